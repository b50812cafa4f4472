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

// The install's adapter and metrics over HTTP: a team's workspace, its
// webhooks, a quota's refusal, and the scrape of both containers.

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"

	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/invoicing-dev/invoicing/internal/test/testca"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
	"github.com/invoicing-dev/invoicing/internal/test/webhookreceiver"
)

// servesTheWorkspaceOverHTTP: lets the same team use its workspace over HTTP, and no other workspace.
func (s *installSuite) servesTheWorkspaceOverHTTP() {
	By("refusing a token for the API server: the adapter requires its audience")
	ctx := context.Background()
	_, resp, _ := apiClient(s.ca, s.api, s.teamA).ListCustomers(ctx, v1client.ListParams{})
	expectAPIError(resp, http.StatusUnauthorized, "token_invalid")

	a := apiClient(s.ca, s.api, s.teamAAPI)
	cus, resp, err := a.CreateCustomer(ctx, v1client.CustomerParams{Name: "Hooli", Email: "ap@hooli.example"})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	order := v1client.InvoiceParams{CustomerID: cus.ID,
		Items: []v1client.Item{{Description: "Compression", Quantity: billingv1.Units(2), Amount: 5000}}}
	key := v1client.IdempotencyKey("hooli-order-1")
	inv, resp, err := a.CreateInvoice(ctx, order, key)
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Expect(inv.Workspace).To(Equal("team-a"))
	Expect(inv.Total).To(HaveValue(BeNumerically("==", 10000)))
	replay, resp, err := a.CreateInvoice(ctx, order, key)
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Expect(replay.ID).To(Equal(inv.ID), "a retry with the same Idempotency-Key returns the first invoice")

	Eventually(func() (string, error) {
		got, _, err := a.GetInvoice(ctx, inv.ID)
		if err != nil {
			return "", err
		}
		return got.Status, nil
	}, 30*time.Second).Should(Equal("issued"))
	list, resp, err := a.ListInvoices(ctx, v1client.ListParams{Limit: 100})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusOK))
	Expect(v1client.IDs(list)).To(ContainElements("gitops-001", inv.ID), "objects applied as manifests are served over HTTP too")

	By("crediting one unit of the invoice and paying the rest: the controller issues the credit note and records the payment")
	one := billingv1.Units(1)
	cn, resp, err := a.CreateCreditNote(ctx, v1client.CreditNoteParams{InvoiceID: inv.ID, Reason: "order_change",
		Lines: []v1client.CreditNoteLineParams{{InvoiceLine: 0, Quantity: &one}}})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	pay, resp, err := a.CreatePayment(ctx, v1client.PaymentParams{InvoiceID: inv.ID, Amount: 5000, Method: "bank_transfer"})
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Status).To(Equal(http.StatusCreated))
	Eventually(func(g Gomega) {
		gotCN, _, err := a.GetCreditNote(ctx, cn.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(gotCN.Status).To(Equal("issued"))
		gotPay, _, err := a.GetPayment(ctx, pay.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(gotPay.Status).To(Equal("recorded"))
		paid, _, err := a.GetInvoice(ctx, inv.ID)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(paid.PaymentStatus).To(HaveValue(Equal("paid")))
	}, 30*time.Second).Should(Succeed())

	By("answering 404 for ids the workspace does not have (a miss of the cache is read from the API server)")
	_, resp, _ = a.GetCustomer(ctx, "cus-missing")
	expectAPIError(resp, http.StatusNotFound, "resource_missing")
	_, resp, _ = a.GetInvoice(ctx, "inv-missing")
	expectAPIError(resp, http.StatusNotFound, "resource_missing")

	_, resp, _ = a.ListInvoices(ctx, v1client.ListParams{}, v1client.Workspace("team-b"))
	expectAPIError(resp, http.StatusForbidden, "permission_denied")
}

// pushesIssuedInvoices: pushes the team's issued invoices to the webhook endpoint the team applies, signed and in order.
func (s *installSuite) pushesIssuedInvoices() {
	secret := []byte("whsec-e2e-0123456789abcdef0123456789")
	receiver := webhookreceiver.Start(secret)
	DeferCleanup(receiver.Close)
	team := s.c.dynamicFor(s.teamA)

	By("applying a Secret and a WebhookEndpoint as the team, with edit")
	applyManifest(team, secretsGVR, fmt.Sprintf(`
apiVersion: v1
kind: Secret
metadata: {name: webhook-signing, namespace: team-a}
stringData: {secret: %s}`, secret))
	applyManifest(team, endpointsGVR, fmt.Sprintf(`
apiVersion: billing.invoicing.dev/v1
kind: WebhookEndpoint
metadata: {name: accounting, namespace: team-a}
spec:
  url: %s
  secretRef: {name: webhook-signing, key: secret}
  events: [invoice.issued]`, receiver.URL))

	By("receiving every issued invoice of the workspace, 1..N, each once")
	Eventually(func(g Gomega) {
		issued := 0
		list, err := s.c.adminDyn.Resource(invoicesGVR).Namespace("team-a").List(context.Background(), metav1.ListOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		for _, inv := range list.Items {
			if _, ok, _ := unstructured.NestedInt64(inv.Object, "status", "sequence"); ok {
				issued++
			}
		}
		g.Expect(issued).To(BeNumerically(">", 0))
		want := make([]int64, issued)
		for i := range want {
			want[i] = int64(i + 1)
		}
		events := receiver.AcceptedEventSequences()
		for i := 1; i < len(events); i++ {
			g.Expect(events[i]).To(BeNumerically(">", events[i-1]), "deliveries in event-sequence order, each once: %v", events)
		}
		accepted := receiver.Accepted()
		slices.Sort(accepted)
		g.Expect(accepted).To(Equal(want))
	}, time.Minute).Should(Succeed())
	for _, a := range receiver.Attempts() {
		Expect(a.SignatureValid).To(BeTrue(), "the delivery of %s has an invalid signature", a.EventID)
		Expect(a.EventID).To(Equal(fmt.Sprintf("evt-team-a-%d", a.EventSequence)))
	}

	By("reporting it Ready to the team")
	Eventually(func() (string, error) {
		e, err := team.Resource(endpointsGVR).Namespace("team-a").Get(context.Background(), "accounting", metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		status, reason := readyCondition(e)
		return status + "/" + reason, nil
	}, 30*time.Second).Should(Equal("True/Delivered"))
}

// answersAQuotaRefusal: answers a create that a ResourceQuota refuses with 403, and frees its Idempotency-Key.
func (s *installSuite) answersAQuotaRefusal() {
	ctx := context.Background()
	a := apiClient(s.ca, s.api, s.teamAAPI)
	quota := &corev1.ResourceQuota{
		ObjectMeta: metav1.ObjectMeta{Name: "invoices", Namespace: "team-a"},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{
			"count/invoices.billing.invoicing.dev": resource.MustParse("2"),
		}},
	}
	_, err := s.c.admin.CoreV1().ResourceQuotas("team-a").Create(ctx, quota, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	usedUp := func() bool {
		q, err := s.c.admin.CoreV1().ResourceQuotas("team-a").Get(ctx, "invoices", metav1.GetOptions{})
		if err != nil {
			return false
		}
		used, hard := q.Status.Used["count/invoices.billing.invoicing.dev"], q.Status.Hard["count/invoices.billing.invoicing.dev"]
		return !hard.IsZero() && used.Cmp(hard) >= 0
	}
	Eventually(usedUp, time.Minute).Should(BeTrue(), "kube-controller-manager counts the two invoices")

	order := v1client.InvoiceParams{CustomerID: "initech",
		Items: []v1client.Item{{Description: "Fax machine", Quantity: billingv1.Units(1), Amount: 9900}}}
	key := v1client.IdempotencyKey("initech-order-7")
	_, resp, _ := a.CreateInvoice(ctx, order, key)
	expectAPIError(resp, http.StatusForbidden, "permission_denied")
	Expect(resp.Err().Message).To(ContainSubstring("exceeded quota"))

	By("raising the quota: a retry with the same key creates the invoice")
	q, err := s.c.admin.CoreV1().ResourceQuotas("team-a").Get(ctx, "invoices", metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	q.Spec.Hard["count/invoices.billing.invoicing.dev"] = resource.MustParse("10")
	_, err = s.c.admin.CoreV1().ResourceQuotas("team-a").Update(ctx, q, metav1.UpdateOptions{})
	Expect(err).NotTo(HaveOccurred())
	Eventually(func() (int, error) {
		_, resp, err := a.CreateInvoice(ctx, order, key)
		if resp == nil {
			return 0, err
		}
		return resp.Status, nil
	}, time.Minute, time.Second).Should(Equal(http.StatusCreated))
}

// servesMetrics: serves both containers' metrics to an authorized scraper only.
func (s *installSuite) servesMetrics() {
	prometheus := s.c.token("monitoring", "prometheus")
	_, err := s.c.admin.RbacV1().ClusterRoleBindings().Create(context.Background(), &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "prometheus-invoicing-metrics"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "invoicing-metrics-reader"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "prometheus", Namespace: "monitoring"}},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())

	Eventually(func() (string, error) { return scrape(s.ca, s.adapterM, prometheus) }, 30*time.Second).Should(SatisfyAll(
		ContainSubstring(`invoicing_http_requests_total{code="201",route="POST /v1/invoices"}`),
		ContainSubstring(`invoicing_http_requests_total{code="403",route="GET /v1/invoices"}`),
		ContainSubstring(`invoicing_http_request_duration_seconds_bucket{code="200",route="GET /v1/customers"`),
		ContainSubstring("go_goroutines "),
		ContainSubstring("process_resident_memory_bytes "),
	))
	Eventually(func() (string, error) { return scrape(s.ca, s.managerM, prometheus) }, 30*time.Second).
		Should(ContainSubstring(`controller_runtime_reconcile_total{controller="invoice",result="success"}`))

	for _, addr := range []string{s.adapterM, s.managerM} {
		_, err := scrape(s.ca, addr, s.teamB)
		Expect(err).To(MatchError(ContainSubstring("403")), "a caller without metrics-reader is refused")
	}
}

func status(url string) (int, error) { return statusWith(http.DefaultClient, url) }

func statusWith(c *http.Client, url string) (int, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// scrape reads /metrics over HTTPS as Prometheus does, with a bearer token,
// verifying the certificate against ca as the ServiceMonitor does.
func scrape(ca *testca.CA, addr, token string) (string, error) {
	client := ca.Client()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, "https://"+addr+"/metrics", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET /metrics: %d %s", resp.StatusCode, body)
	}
	return string(body), nil
}

// apiClient is the /v1 client of the adapter at base, calling with token
// and verifying the adapter's certificate against the test CA.
func apiClient(ca *testca.CA, base, token string) *v1client.Client {
	return v1client.New(base, ca.Client(), v1client.Token(token))
}

// expectAPIError expects resp to be an error answer with status and code.
func expectAPIError(resp *v1client.Response, status int, code string) {
	GinkgoHelper()
	Expect(resp).NotTo(BeNil(), "no answer")
	Expect(resp.Status).To(Equal(status), "%s", resp.Body)
	Expect(resp.Err().Code).To(Equal(code), "%s", resp.Body)
}
