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

package controller

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/dynamic"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/test/envtestbins"
)

// The envtest suite runs the three reconcilers in a manager wired by Setup,
// as cmd/main.go wires them, against a real kube-apiserver and etcd with the
// generated CRDs installed. Specs read through k8sClient, which talks to the
// API server directly, never through the manager's cache.
var (
	testScheme = runtime.NewScheme()

	testEnv *envtest.Environment
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

	ctx         context.Context
	stopManager context.CancelFunc
	managerDone chan error
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(testScheme))
	utilruntime.Must(billingv1.AddToScheme(testScheme))
}

func TestControllers(t *testing.T) {
	envtestbins.Require(t, "kubectl")
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
	testEnv = &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		Scheme:                testScheme,
	}
	var err error
	cfg, err = testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	Expect(cfg).NotTo(BeNil())

	k8sClient, err = client.New(cfg, client.Options{Scheme: testScheme})
	Expect(err).NotTo(HaveOccurred())
	dynamicClient, err = dynamic.NewForConfig(cfg)
	Expect(err).NotTo(HaveOccurred())

	By("writing a kubeconfig for an admin user")
	admin, err := testEnv.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
	Expect(err).NotTo(HaveOccurred())
	kubeconfig, err := admin.KubeConfig()
	Expect(err).NotTo(HaveOccurred())
	kubeconfigPath = filepath.Join(GinkgoT().TempDir(), "kubeconfig")
	Expect(os.WriteFile(kubeconfigPath, kubeconfig, 0o600)).To(Succeed())

	By("starting the manager wired by Setup, as cmd/main.go wires it")
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 testScheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	Expect(err).NotTo(HaveOccurred())

	var managerCtx context.Context
	managerCtx, stopManager = context.WithCancel(context.Background())
	ctx = context.Background()
	// Webhook receivers in these specs listen on loopback over plain http,
	// as make run allows; small batches make a story cross several.
	Expect(Setup(managerCtx, mgr, Options{
		Webhooks:     delivery.SenderOptions{Policy: delivery.Policy{AllowInsecureLoopback: true}},
		WebhookBatch: 4,
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

// newNamespace creates a namespace of its own for one spec, so that specs
// share no objects. envtest runs no namespace controller, so namespaces are
// never finalized; they go with the control plane.
func newNamespace() string {
	GinkgoHelper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "test-"}}
	Expect(k8sClient.Create(ctx, ns)).To(Succeed())
	return ns.Name
}
