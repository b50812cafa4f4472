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

// Package e2e tests the artefacts users run, with the real binaries:
//   - the install (config/default) applied to a real API server, with the
//     controller and the adapter running as the install's ServiceAccount
//     under the install's RBAC, driven with client-go and plain HTTP;
//   - what `make run` runs (the localenv program), driven with the real
//     kubectl and plain HTTP.
package e2e

import (
	"context"
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/test/binaries"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// bins is where BeforeSuite built the manager, adapter and localenv binaries.
var bins string

func TestE2E(t *testing.T) {
	testenv.Require(t, "kubectl", "kube-controller-manager")
	RegisterFailHandler(Fail)
	RunSpecs(t, "End-to-end suite")
}

var _ = BeforeSuite(func() {
	// The install's adapter limits each caller to 50 requests a second,
	// burst 100 (docs/api.md#rate-limits): Gomega's default of a poll
	// every 10 ms spends a story's bucket in a second of waiting, and a
	// loaded machine waits longer. Ten polls a second stay under it.
	SetDefaultEventuallyPollingInterval(100 * time.Millisecond)
	Expect(os.Getenv("KUBEBUILDER_ASSETS")).NotTo(BeEmpty(),
		"KUBEBUILDER_ASSETS must name the directory of kube-apiserver, etcd, kubectl and kube-controller-manager")
	bins = GinkgoT().TempDir()
	// With E2E_COVERDIR set (make test sets it), the binaries are built
	// for coverage and write their counters there, so the coverage that
	// make test prints includes what this suite runs of cmd/.
	Expect(binaries.Build(context.Background(), bins, map[string]string{
		"manager":  "./cmd",
		"adapter":  "./cmd/adapter",
		"localenv": "./cmd/localenv",
	})).To(Succeed())
})
