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

package servingtls_test

import (
	"context"
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// The suite runs a real kube-apiserver and etcd (envtest) with the CRDs, and
// the /v1 adapter served as cmd/adapter serves it in a cluster: HTTPS with a
// certificate from disk, and tokens bound to an audience.
var (
	ctx     context.Context
	cancel  context.CancelFunc
	testEnv *testenv.Env
	cfg     *rest.Config
)

func TestServingTLS(t *testing.T) {
	testenv.Require(t)
	RegisterFailHandler(Fail)
	RunSpecs(t, "Serving TLS Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(100 * time.Millisecond)
	Expect(os.Getenv("KUBEBUILDER_ASSETS")).NotTo(BeEmpty(),
		"KUBEBUILDER_ASSETS must name the directory holding kube-apiserver, etcd and kubectl (make envtest-binaries)")

	ctx, cancel = context.WithCancel(logf.IntoContext(context.Background(), logf.Log))
	var err error
	testEnv, err = testenv.Start()
	Expect(err).NotTo(HaveOccurred())
	cfg = testEnv.Config
})

var _ = AfterSuite(func() {
	if cancel != nil {
		cancel()
	}
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
})
