// Copyright 2026 The Invoicing Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/test/testca"
)

// The releases whose CRDs the install suite installs from their Go modules
// (through the Go module proxy): cert-manager's, so that config/default's
// Issuers and Certificates apply, and the Prometheus Operator's, so that
// config/prometheus passes a server-side dry run. Neither operator runs: the
// suite issues the certificates the pod would mount itself, with a test CA.
const (
	certManagerVersion        = "v1.21.2"
	prometheusOperatorVersion = "v0.85.0"
)

// installCertManagerCRDs installs cert-manager's Certificate and Issuer CRDs.
func (c *cluster) installCertManagerCRDs() {
	GinkgoHelper()
	c.installModuleCRDs("github.com/cert-manager/cert-manager", certManagerVersion, "deploy/crds",
		"cert-manager.io_certificates.yaml", "cert-manager.io_issuers.yaml")
}

// installPrometheusOperatorCRDs installs the ServiceMonitor and
// PrometheusRule CRDs.
func (c *cluster) installPrometheusOperatorCRDs() {
	GinkgoHelper()
	c.installModuleCRDs("github.com/prometheus-operator/prometheus-operator", prometheusOperatorVersion,
		"example/prometheus-operator-crd",
		"monitoring.coreos.com_servicemonitors.yaml", "monitoring.coreos.com_prometheusrules.yaml")
}

// installModuleCRDs applies the CRD files in dir of a Go module's version
// and waits until they are established.
func (c *cluster) installModuleCRDs(module, version, dir string, files ...string) {
	GinkgoHelper()
	download := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	download.Dir = repoRoot
	out, err := download.Output()
	Expect(err).NotTo(HaveOccurred(), "downloading %s %s: %s", module, version, out)
	var mod struct{ Dir string }
	Expect(json.Unmarshal(out, &mod)).To(Succeed())
	args := []string{"wait", "--for=condition=Established", "--timeout=60s"}
	for _, f := range files {
		applied := c.kubectl("apply", "--server-side", "-f", filepath.Join(mod.Dir, dir, f))
		name, _, _ := strings.Cut(strings.TrimSpace(applied), " ")
		args = append(args, name)
	}
	c.kubectl(args...)
}

// localizeCerts points each certificate directory flag (--tls-cert-dir,
// --metrics-cert-path) at a directory under dir into which ca issues a
// certificate for 127.0.0.1, as cert-manager fills the Secret the pod mounts.
func localizeCerts(args []string, ca *testca.CA, dir string) []string {
	GinkgoHelper()
	for i, arg := range args {
		name, _, ok := strings.Cut(arg, "=")
		if ok && (name == "--tls-cert-dir" || name == "--metrics-cert-path") {
			d := filepath.Join(dir, strings.TrimPrefix(name, "--"))
			Expect(ca.Issue(d)).To(Succeed())
			args[i] = name + "=" + d
		}
	}
	return args
}

// flagValue returns the value of --name=value in args, or "".
func flagValue(args []string, name string) string {
	for _, arg := range args {
		if v, ok := strings.CutPrefix(arg, name+"="); ok {
			return v
		}
	}
	return ""
}
