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
	"encoding/json"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/invoicing-dev/invoicing/internal/adapter"
	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
	"github.com/invoicing-dev/invoicing/internal/servingtls"
	"github.com/invoicing-dev/invoicing/internal/test/serviceaccount"
	"github.com/invoicing-dev/invoicing/internal/test/testca"
)

// audience is the one the adapter requires, as config/default sets it.
const audience = "billing.invoicing.dev"

var _ = Describe("The adapter served as in a cluster", Ordered, func() {
	var (
		admin    kubernetes.Interface
		certDir  string
		base     string // https://127.0.0.1:port
		firstCA  *testca.CA
		bound    string // a token of shop/ci bound to the audience
		unbound  string // a token of shop/ci for the API server
		adapterE chan error
	)

	BeforeAll(func() {
		var err error
		admin, err = kubernetes.NewForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())

		By("giving the ServiceAccount shop/ci read access to customers in its workspace")
		_, err = admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}},
			metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		_, err = admin.CoreV1().ServiceAccounts("shop").Create(ctx,
			&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "ci"}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		_, err = admin.RbacV1().Roles("shop").Create(ctx, &rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: "customer-reader"},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{"billing.invoicing.dev"}, Resources: []string{"customers"},
				Verbs: []string{"get", "list"}}},
		}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		_, err = admin.RbacV1().RoleBindings("shop").Create(ctx, &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "ci-reads-customers"},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "customer-reader"},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "ci", Namespace: "shop"}},
		}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		unbound = token(admin, "shop", "ci")
		bound = token(admin, "shop", "ci", audience)

		By("serving the adapter over HTTPS with a certificate of a test CA, requiring the audience")
		certDir = GinkgoT().TempDir()
		firstCA = newCA("first test CA")
		Expect(firstCA.Issue(certDir)).To(Succeed())
		o := httpapi.DefaultOptions()
		o.TokenAudiences = []string{audience}
		a, err := adapter.New(cfg, o)
		Expect(err).NotTo(HaveOccurred())
		ln, err := servingtls.Listen(ctx, "127.0.0.1:0", certDir, 100*time.Millisecond)
		Expect(err).NotTo(HaveOccurred())
		base = "https://" + ln.Addr().String()
		adapterE = make(chan error, 1)
		go func() { adapterE <- a.Run(ctx, ln) }()
		Eventually(func() (int, error) { return get(firstCA.Client(), base+"/readyz", "") }).Should(Equal(http.StatusOK))
	})

	It("serves HTTPS that a client trusting the CA verifies, and no plain HTTP", func() {
		code, err := get(firstCA.Client(), base+"/v1/customers", bound)
		Expect(err).NotTo(HaveOccurred())
		Expect(code).To(Equal(http.StatusOK))

		_, err = get(newCA("another CA").Client(), base+"/healthz", "")
		Expect(err).To(MatchError(ContainSubstring("certificate signed by unknown authority")))

		plain := "http://" + base[len("https://"):]
		code, err = get(http.DefaultClient, plain+"/healthz", "")
		Expect(err == nil && code == http.StatusOK).To(BeFalse(), "plain HTTP must not be served (got %d, %v)", code, err)
	})

	It("refuses with 401 a token for the API server, and serves one bound to the audience", func() {
		code, body := getJSON(firstCA.Client(), base+"/v1/customers", unbound)
		Expect(code).To(Equal(http.StatusUnauthorized), "%v", body)
		Expect(body).To(HaveKeyWithValue("error", HaveKeyWithValue("code", "token_invalid")))

		code, body = getJSON(firstCA.Client(), base+"/v1/customers", bound)
		Expect(code).To(Equal(http.StatusOK), "%v", body)
		Expect(body).To(HaveKey("data"))
	})

	It("binds the audience token to the adapter: the API server refuses it", func() {
		c, err := kubernetes.NewForConfig(&rest.Config{
			Host:            cfg.Host,
			BearerToken:     bound,
			TLSClientConfig: rest.TLSClientConfig{CAData: cfg.CAData},
		})
		Expect(err).NotTo(HaveOccurred())
		_, err = c.CoreV1().Namespaces().Get(ctx, "shop", metav1.GetOptions{})
		Expect(apierrors.IsUnauthorized(err)).To(BeTrue(), "got %v", err)

		By("while the API server accepts the token without the audience")
		c, err = kubernetes.NewForConfig(&rest.Config{
			Host:            cfg.Host,
			BearerToken:     unbound,
			TLSClientConfig: rest.TLSClientConfig{CAData: cfg.CAData},
		})
		Expect(err).NotTo(HaveOccurred())
		_, err = c.CoreV1().Namespaces().Get(ctx, "shop", metav1.GetOptions{})
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "authenticated, and not allowed to get namespaces: got %v", err)
	})

	It("picks up a renewed certificate on disk without a restart", func() {
		renewed := newCA("renewed test CA")
		Expect(renewed.Issue(certDir)).To(Succeed())
		Eventually(func() (int, error) { return get(renewed.Client(), base+"/v1/customers", bound) }).
			Should(Equal(http.StatusOK))
		_, err := get(firstCA.Client(), base+"/healthz", "")
		Expect(err).To(MatchError(ContainSubstring("certificate signed by unknown authority")),
			"the old certificate is no longer presented")
	})

	It("shuts down cleanly", func() {
		cancel()
		Eventually(adapterE).Should(Receive(BeNil()))
	})
})

// token returns a new token of a ServiceAccount, bound to audiences (none:
// the API server's own), as kubectl create token --audience makes.
func token(cs kubernetes.Interface, namespace, name string, audiences ...string) string {
	GinkgoHelper()
	t, err := serviceaccount.Token(ctx, cs, namespace, name, time.Hour, audiences...)
	Expect(err).NotTo(HaveOccurred())
	return t
}

func get(c *http.Client, url, bearer string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

func getJSON(c *http.Client, url, bearer string) (int, map[string]any) {
	GinkgoHelper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+bearer)
	resp, err := c.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer func() { _ = resp.Body.Close() }()
	var body map[string]any
	Expect(json.NewDecoder(resp.Body).Decode(&body)).To(Succeed())
	return resp.StatusCode, body
}

// newCA makes a test CA or fails the spec.
func newCA(name string) *testca.CA {
	GinkgoHelper()
	ca, err := testca.New(name)
	Expect(err).NotTo(HaveOccurred())
	return ca
}
