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

package httpapi

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/yaml"

	"github.com/invoicing-dev/invoicing/internal/manager/controller"
	"github.com/invoicing-dev/invoicing/internal/test/serviceaccount"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// The suite runs a real kube-apiserver and etcd (envtest), the three
// controllers, and adapters on loopback listeners, each talking to the API
// server as a ServiceAccount with exactly the rules of config/rbac/role.yaml.

// Workspaces and callers of the suite.
const (
	nsAlpha   = "alpha" // writer's own namespace
	nsBeta    = "beta"  // reader's own namespace; writer may work here too
	nsAdapter = "invoicing-system"
)

// roleFile is the pod's ClusterRole as make manifests renders it from the
// +kubebuilder:rbac markers (rbac.go and internal/controller): the suite runs
// the adapters with exactly its rules, so they are known sufficient.
var roleFile = filepath.Join(testenv.ModuleRoot(), "config", "rbac", "role.yaml")

// adapterRole is the ClusterRole of roleFile, renamed for the suite.
func adapterRole() *rbacv1.ClusterRole {
	data, err := os.ReadFile(roleFile)
	Expect(err).NotTo(HaveOccurred())
	role := &rbacv1.ClusterRole{}
	Expect(yaml.UnmarshalStrict(data, role)).To(Succeed())
	Expect(role.Rules).NotTo(BeEmpty(), "%s has no rules", roleFile)
	return &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "invoicing-adapter"}, Rules: role.Rules}
}

var (
	ctx         context.Context
	cancel      context.CancelFunc
	testEnv     *testenv.Env
	adminCfg    *rest.Config
	k8s         client.Client // the cluster admin
	clientset   kubernetes.Interface
	apiContract *contract

	// adapterCfg is the adapter's own identity: a ServiceAccount with adapterRole.
	adapterCfg *rest.Config
	// main is the adapter most specs talk to.
	mainURL string
	// Tokens of the callers.
	writerToken, readerToken, nobodyToken, aliceToken string
)

func TestHTTPAPI(t *testing.T) {
	testenv.Require(t)
	RegisterFailHandler(Fail)
	RunSpecs(t, "HTTP adapter suite")
}

var _ = BeforeSuite(func() {
	log := zap.New(zap.WriteTo(io.MultiWriter(GinkgoWriter, &suiteLogs)), zap.UseDevMode(true))
	logf.SetLogger(log)
	klog.SetLogger(log.WithName("klog"))
	ctx, cancel = context.WithCancel(logf.IntoContext(context.Background(), log))

	SetDefaultEventuallyTimeout(15 * time.Second)
	SetDefaultEventuallyPollingInterval(50 * time.Millisecond)
	var err error
	apiContract, err = newContract()
	Expect(err).NotTo(HaveOccurred())

	By("starting the control plane")
	// alice is a user, not a ServiceAccount: the API server knows her from
	// a static token file, and she is in the group billing-admins.
	tokenDir, err := os.MkdirTemp("", "httpapi-tokens-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, tokenDir)
	aliceToken = rand.String(32)
	tokenFile := filepath.Join(tokenDir, "tokens.csv")
	Expect(os.WriteFile(tokenFile, []byte(aliceToken+`,alice,alice-uid,"billing-admins"`+"\n"), 0o600)).To(Succeed())
	testEnv, err = testenv.Start(testenv.WithScheme(testScheme()), testenv.WithAPIServerFlag("token-auth-file", tokenFile))
	Expect(err).NotTo(HaveOccurred())
	adminCfg, k8s = testEnv.Config, testEnv.Client
	clientset, err = kubernetes.NewForConfig(adminCfg)
	Expect(err).NotTo(HaveOccurred())

	By("starting the controllers")
	startControllers()

	By("creating the workspaces, the callers and their roles")
	for _, ns := range []string{nsAlpha, nsBeta, nsAdapter} {
		Expect(k8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
	}
	writerToken = serviceAccountToken(nsAlpha, "writer")
	readerToken = serviceAccountToken(nsBeta, "reader")
	nobodyToken = serviceAccountToken(nsAlpha, "nobody")
	grant(nsAlpha, "writer", nsAlpha, "get", "list", "create")
	grant(nsAlpha, "writer", nsBeta, "get", "list", "create")
	grant(nsBeta, "reader", nsBeta, "get", "list")

	By("giving the adapter its own identity")
	Expect(k8s.Create(ctx, adapterRole())).To(Succeed())
	adapterToken := serviceAccountToken(nsAdapter, "adapter")
	Expect(k8s.Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "invoicing-adapter"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "invoicing-adapter"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: nsAdapter, Name: "adapter"}},
	})).To(Succeed())
	adapterCfg = &rest.Config{
		Host:            adminCfg.Host,
		BearerToken:     adapterToken,
		TLSClientConfig: rest.TLSClientConfig{CAData: adminCfg.CAData},
	}

	By("starting the adapter")
	mainURL = startAdapter(adapterCfg, Options{RateLimit: -1, IdempotencyInFlightWait: 2 * time.Second})
})

var _ = AfterSuite(func() {
	if cancel != nil {
		cancel()
	}
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
	GinkgoWriter.Printf("Validated %d responses against openapi.json\n", apiContract.checked)
})

func startControllers() {
	mgr, err := ctrl.NewManager(adminCfg, ctrl.Options{
		Scheme:                 testScheme(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(controller.Setup(ctx, mgr, controller.Options{})).To(Succeed())
	go func() {
		defer GinkgoRecover()
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
}

// startAdapter runs an adapter with cfg's identity on a loopback port until
// the suite ends, and returns its base URL once it listens. It waits for
// readiness only when the API server of cfg is the suite's.
func startAdapter(cfg *rest.Config, opts Options) string {
	url, _ := startStoppableAdapter(cfg, opts)
	return url
}

// startStoppableAdapter is startAdapter that also returns a function that
// shuts the adapter down gracefully and waits until Run has returned (nil);
// the suite's cleanup then finds it stopped.
func startStoppableAdapter(cfg *rest.Config, opts Options) (string, func()) {
	a, err := newConnected(cfg, opts)
	Expect(err).NotTo(HaveOccurred())
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	actx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Run(actx, ln) }()
	var once sync.Once
	stop := func() {
		GinkgoHelper()
		once.Do(func() {
			cancel()
			Eventually(done).WithTimeout(20 * time.Second).Should(Receive(BeNil()))
		})
	}
	DeferCleanup(stop)
	return "http://" + ln.Addr().String(), stop
}

// serviceAccountToken creates the ServiceAccount ns/name and returns a token
// for it from the TokenRequest API.
func serviceAccountToken(ns, name string) string {
	_, err := clientset.CoreV1().ServiceAccounts(ns).Create(ctx,
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	token, err := serviceaccount.Token(ctx, clientset, ns, name, time.Hour)
	Expect(err).NotTo(HaveOccurred())
	return token
}

// grant lets the ServiceAccount saNS/sa use verbs on customers, invoices,
// credit notes, payments, period closes, seals, credit applications,
// refunds, write-offs and emails in ns, with a Role and RoleBinding there.
func grant(saNS, sa, ns string, verbs ...string) {
	name := "billing-" + saNS + "-" + sa
	Expect(k8s.Create(ctx, &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{"billing.invoicing.dev"}, Resources: grantedResources, Verbs: verbs,
		}},
	})).To(Succeed())
	Expect(k8s.Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: saNS, Name: sa}},
	})).To(Succeed())

	user := "system:serviceaccount:" + saNS + ":" + sa
	for _, resource := range grantedResources {
		for _, verb := range verbs {
			awaitAllowed(user, ns, verb, resource)
		}
	}
}

// grantedResources are the resources grant grants.
var grantedResources = []string{"customers", "invoices", "creditnotes", "payments", "periodcloses", "ledgerseals",
	"creditapplications", "refunds", "writeoffs", "emails", "invoiceschedules", "pendingitems", "banktransactions"}

// awaitAllowed waits until the API server's authorizer allows user to verb
// resource in ns. It sees new RBAC objects through its own informers, a
// moment after they are created: without the wait, a spec's first request
// could be denied by that lag (and the denial cached by the adapter).
func awaitAllowed(user, ns, verb, resource string) {
	EventuallyWithOffset(2, func() (bool, error) {
		review, err := clientset.AuthorizationV1().SubjectAccessReviews().Create(ctx,
			&authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
				User: user,
				ResourceAttributes: &authorizationv1.ResourceAttributes{
					Namespace: ns, Verb: verb, Group: "billing.invoicing.dev", Resource: resource,
				},
			}}, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		return review.Status.Allowed, nil
	}).Should(BeTrue(), "RBAC does not yet allow %s to %s %s in %s", user, verb, resource, ns)
}

// apiClient is the /v1 client of the adapter at base; every answer it gets
// is validated against openapi.json.
func apiClient(base string) *v1client.Client { return v1client.New(base, httpClient()) }

// httpClient sends requests through the contract-validating transport.
func httpClient() *http.Client {
	return &http.Client{
		Transport: &validatingTransport{base: http.DefaultTransport, contract: apiContract},
		Timeout:   30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
