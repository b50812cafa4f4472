/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/servingtls/testca"
)

// certManagerVersion is the cert-manager release whose CRDs the install
// suite installs, so that config/default's Issuers and Certificates apply.
// The CRDs come from the release's Go module (deploy/crds), through the Go
// module proxy; no cert-manager runs: the suite issues the certificates the
// pod would mount itself, with a test CA.
const certManagerVersion = "v1.21.2"

// installCertManagerCRDs installs cert-manager's Certificate and Issuer CRDs.
func (c *cluster) installCertManagerCRDs() {
	GinkgoHelper()
	download := exec.Command("go", "mod", "download", "-json", "github.com/cert-manager/cert-manager@"+certManagerVersion)
	download.Dir = repoRoot
	out, err := download.Output()
	Expect(err).NotTo(HaveOccurred(), "downloading cert-manager %s: %s", certManagerVersion, out)
	var mod struct{ Dir string }
	Expect(json.Unmarshal(out, &mod)).To(Succeed())
	for _, crd := range []string{"certificates", "issuers"} {
		c.kubectl("apply", "--server-side", "-f", filepath.Join(mod.Dir, "deploy", "crds", "cert-manager.io_"+crd+".yaml"))
	}
	c.kubectl("wait", "--for=condition=Established", "--timeout=60s",
		"crd/certificates.cert-manager.io", "crd/issuers.cert-manager.io")
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
