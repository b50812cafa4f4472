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

package controller

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/mailing"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testca"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// The envtest suite runs the three reconcilers in a manager wired by Setup,
// as cmd/main.go wires them, against a real kube-apiserver and etcd with the
// generated CRDs installed. Specs read through k8sClient, which talks to the
// API server directly, never through the manager's cache.
var (
	testScheme = testenv.DefaultScheme()

	testEnv *testenv.Env
	cfg     *rest.Config
	// k8sClient reads and writes straight through the API server.
	k8sClient client.Client
	// dynamicClient sends raw REST requests, for field selectors and for
	// objects the typed client cannot express.
	dynamicClient dynamic.Interface
	// apiReader is the manager's non-cached reader, the one the customer
	// controller counts invoices with.
	apiReader client.Reader
	// kubeconfigPath is a kubeconfig for an admin user of the test API server.
	kubeconfigPath string

	// smtpCA signs the certificates of the specs' TLS mail servers; the
	// manager trusts it.
	smtpCA *testca.CA

	ctx         context.Context
	stopManager context.CancelFunc
	managerDone chan error
)

func TestControllers(t *testing.T) {
	testenv.Require(t, "kubectl")
	RegisterFailHandler(Fail)
	RunSpecs(t, "Controller Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(100 * time.Millisecond)
	SetDefaultConsistentlyDuration(2 * time.Second)
	SetDefaultConsistentlyPollingInterval(200 * time.Millisecond)

	By("starting the control plane with the generated CRDs")
	var err error
	testEnv, err = testenv.Start(testenv.WithScheme(testScheme))
	Expect(err).NotTo(HaveOccurred())
	cfg, k8sClient = testEnv.Config, testEnv.Client
	dynamicClient, err = dynamic.NewForConfig(cfg)
	Expect(err).NotTo(HaveOccurred())

	By("writing a kubeconfig for an admin user")
	kubeconfigPath = filepath.Join(GinkgoT().TempDir(), "kubeconfig")
	Expect(testEnv.WriteKubeconfig(kubeconfigPath, "admin")).To(Succeed())

	By("starting the manager wired by Setup, as cmd/main.go wires it")
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: testScheme,
		// The cache of cmd/main.go, which trims issued invoices: every spec
		// runs through it, and internal/manager/trim's envtest guards it.
		Cache:                  trim.CacheOptions(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	Expect(err).NotTo(HaveOccurred())

	var managerCtx context.Context
	managerCtx, stopManager = context.WithCancel(context.Background())
	ctx = context.Background()
	// Webhook receivers in these specs listen on loopback over plain http,
	// as make run allows; small batches make a story cross several.
	smtpCA, err = testca.New("smtp-test-ca")
	Expect(err).NotTo(HaveOccurred())
	Expect(Setup(managerCtx, mgr, Options{
		// Short retries and timeouts, so that a spec sees the attempts run
		// out in seconds.
		Mail:         mailing.MailOptions{RootCAs: smtpCA.Pool(), Timeout: 2 * time.Second, FirstRetry: 50 * time.Millisecond},
		Webhooks:     delivery.SenderOptions{Policy: delivery.Policy{AllowInsecureLoopback: true}},
		WebhookBatch: 4,
		// Several workers per controller, as in production, so racing
		// credit notes and payments are reconciled in parallel.
		MaxConcurrentReconciles: 4,
	})).To(Succeed())
	apiReader = mgr.GetAPIReader()

	managerDone = make(chan error, 1)
	go func() {
		defer GinkgoRecover()
		managerDone <- mgr.Start(managerCtx)
	}()
	Expect(mgr.GetCache().WaitForCacheSync(managerCtx)).To(BeTrue())
})

var _ = AfterSuite(func() {
	if stopManager != nil {
		By("stopping the manager")
		stopManager()
		var err error
		Eventually(managerDone).Should(Receive(&err))
		Expect(err).NotTo(HaveOccurred())
	}
	if testEnv != nil {
		By("stopping the control plane")
		Expect(testEnv.Stop()).To(Succeed())
	}
})

// newNamespace creates a namespace of its own for one spec (builder.Namespace).
func newNamespace() string {
	GinkgoHelper()
	return builder.Namespace(GinkgoT(), ctx, k8sClient, "test-")
}
