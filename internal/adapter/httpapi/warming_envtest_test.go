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
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"

	"net/http"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"

	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// stalledInformers holds back the informers' lists and watches (a list
// with a resourceVersion, or a watch) until released is closed: an adapter
// behind it has a cache that keeps warming, like one that is listing a
// million invoices. Other requests (gets, creates, the pages and resource
// versions the store reads from the API server) pass.
type stalledInformers struct {
	base     http.RoundTripper
	released chan struct{}
}

func (s stalledInformers) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	if req.Method == http.MethodGet && (q.Get("watch") == "true" || q.Has("resourceVersion")) {
		select {
		case <-s.released:
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
	}
	return s.base.RoundTrip(req)
}

var _ = Describe("An adapter whose cache is still warming", func() {
	It("creates, gets and lists a whole workspace from the API server, keeps filtered lists waiting, and is "+
		"ready only when asked to be", func() {
		released := make(chan struct{})
		release := sync.OnceFunc(func() { close(released) })
		stalledCfg := rest.CopyConfig(adapterCfg)
		stalledCfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
			return stalledInformers{base: rt, released: released}
		}
		warming := startAdapter(stalledCfg, Options{RateLimit: -1, RequestTimeout: 2 * time.Second,
			ReadyBeforeSynced: true})
		waiting := startAdapter(stalledCfg, Options{RateLimit: -1, RequestTimeout: 2 * time.Second})
		DeferCleanup(release) // before the adapters stop: cleanups run last first

		ns := newWorkspace()
		customer := createCustomer(v1client.Workspace(ns))
		for _, name := range []string{"inv-0001", "inv-0002", "inv-0003"} {
			Expect(k8s.Create(ctx, builder.Invoice(ns, name, inEUR(customer.ID)...))).To(Succeed())
		}
		client := apiClient(warming).With(v1client.Token(writerToken), v1client.Workspace(ns))

		By("answering ready when asked to be, and not ready otherwise")
		resp, err := client.Do(ctx, http.MethodGet, "/readyz", nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
		resp, err = apiClient(waiting).Do(ctx, http.MethodGet, "/readyz", nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusServiceUnavailable), "body: %s", resp.Body)

		By("creating an invoice, and getting it")
		created, resp, err := client.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: customer.ID, Currency: "EUR",
			Items: []v1client.Item{{Description: "Audit", Quantity: billingv1.Units(1), Amount: 700}}})
		Expect(err).NotTo(HaveOccurred(), "body: %s", resp.Body)
		got, _, err := client.GetInvoice(ctx, created.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.ID).To(Equal(created.ID))

		By("listing the whole workspace page by page, the new invoice last")
		first, _, err := client.ListInvoices(ctx, v1client.ListParams{Limit: 2})
		Expect(err).NotTo(HaveOccurred())
		Expect(v1client.IDs(first)).To(Equal([]string{"inv-0001", "inv-0002"}))
		Expect(first.HasMore).To(BeTrue())
		rest, _, err := client.ListInvoices(ctx, v1client.ListParams{Limit: 2, Cursor: *first.NextCursor})
		Expect(err).NotTo(HaveOccurred())
		Expect(v1client.IDs(rest)).To(Equal([]string{"inv-0003", created.ID}))
		Expect(rest.HasMore).To(BeFalse())

		By("keeping a customer's list waiting for the cache, until the request's time is up")
		_, resp, err = client.ListInvoices(ctx, v1client.ListParams{CustomerID: customer.ID})
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusServiceUnavailable), "body: %s", resp.Body)

		By("serving it once the cache has synced")
		release()
		Eventually(func(g Gomega) {
			list, _, err := client.ListInvoices(ctx, v1client.ListParams{CustomerID: customer.ID})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(v1client.IDs(list)).To(ConsistOf("inv-0001", "inv-0002", "inv-0003", created.ID))
		}).Should(Succeed())
		Eventually(func() int {
			resp, err := apiClient(waiting).Do(ctx, http.MethodGet, "/readyz", nil)
			if err != nil {
				return 0
			}
			return resp.Status
		}).Should(Equal(http.StatusOK))
	})
})
