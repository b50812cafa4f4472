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

	"context"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"

	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// slowWatches delays every read of a watch response by delay, once set: an
// informer behind it sees each event late, like a replica whose watch lags.
type slowWatches struct {
	base  http.RoundTripper
	delay *atomic.Int64 // nanoseconds
}

func (s slowWatches) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.base.RoundTrip(req)
	if err == nil && req.URL.Query().Get("watch") == "true" {
		resp.Body = &slowBody{ReadCloser: resp.Body, delay: s.delay}
	}
	return resp, err
}

type slowBody struct {
	io.ReadCloser
	delay *atomic.Int64
}

func (b *slowBody) Read(p []byte) (int, error) {
	time.Sleep(time.Duration(b.delay.Load()))
	return b.ReadCloser.Read(p)
}

// roundRobin is one address in front of several adapters, like a Service:
// request n goes to backend n mod len(backends).
type roundRobin struct {
	backends []*url.URL
	n        atomic.Int64
	url      string
}

func newRoundRobin(backends ...string) *roundRobin {
	GinkgoHelper()
	rr := &roundRobin{}
	for _, b := range backends {
		u, err := url.Parse(b)
		Expect(err).NotTo(HaveOccurred())
		rr.backends = append(rr.backends, u)
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(rr.backends[int(rr.n.Add(1)-1)%len(rr.backends)])
		r.Out.Host = r.In.Host
	}}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	srv := &http.Server{Handler: proxy, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	DeferCleanup(func() { _ = srv.Shutdown(context.Background()) })
	rr.url = "http://" + ln.Addr().String()
	return rr
}

// nextTo makes the next request go to backend i, sending a cheap request
// to the other first when needed.
func (rr *roundRobin) nextTo(i int, client *v1client.Client) {
	GinkgoHelper()
	for int(rr.n.Load())%len(rr.backends) != i {
		_, _, err := client.ListCustomers(ctx, v1client.ListParams{Limit: 1})
		Expect(err).NotTo(HaveOccurred())
	}
}

var _ = Describe("Two adapters behind one address", func() {
	// fast has a prompt watch; lagging sees every event 3 seconds late.
	startPair := func(opts Options) (*roundRobin, *v1client.Client, string) {
		GinkgoHelper()
		laggingCfg := rest.CopyConfig(adapterCfg)
		delay := &atomic.Int64{}
		laggingCfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
			return slowWatches{base: rt, delay: delay}
		}
		fast := startAdapter(adapterCfg, opts)
		lagging := startAdapter(laggingCfg, opts)
		rr := newRoundRobin(fast, lagging)
		ns := newWorkspace()
		client := apiClient(rr.url).With(v1client.Token(writerToken), v1client.Workspace(ns))
		// Ready means synced: until then an adapter serves lists from the
		// API server, which would hide the lagging watch.
		for _, url := range []string{fast, lagging} {
			Eventually(func() int { return send(http.MethodGet, "/readyz", on(url)).status }).Should(Equal(http.StatusOK))
		}
		Eventually(func(g Gomega) {
			for range 2 {
				_, resp, err := client.ListInvoices(ctx, v1client.ListParams{})
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(resp.Status).To(Equal(http.StatusOK))
			}
		}).Should(Succeed())
		customer, _, err := client.CreateCustomer(ctx, v1client.CustomerParams{Name: "Ada", Email: "ada@example.com"})
		Expect(err).NotTo(HaveOccurred())
		// Both have synced: from now on the lagging one sees events late.
		// Its invoice watch is waiting in a read, which the delay does not
		// hold back: one invoice elsewhere moves it on to a delayed read.
		delay.Store(int64(3 * time.Second))
		elsewhere := newWorkspace()
		other := createCustomer(v1client.Workspace(elsewhere))
		Expect(k8s.Create(ctx, builder.Invoice(elsewhere, "inv-elsewhere", inEUR(other.ID)...))).To(Succeed())
		time.Sleep(500 * time.Millisecond)
		return rr, client, customer.ID
	}

	It("let a client read its own writes whichever answers, although one's watch lags seconds behind", func() {
		rr, client, customerID := startPair(Options{RateLimit: -1})
		var created []string
		for range 8 {
			By("creating through the fast adapter, then listing and getting through the lagging one")
			rr.nextTo(0, client)
			inv, _, err := client.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: customerID,
				Items: []v1client.Item{{Description: "Consulting", Quantity: billingv1.Units(1), Amount: 100}}})
			Expect(err).NotTo(HaveOccurred())
			created = append(created, inv.ID)

			list, _, err := client.ListInvoices(ctx, v1client.ListParams{Limit: 100})
			Expect(err).NotTo(HaveOccurred())
			Expect(v1client.IDs(list)).To(Equal(created), "the lagging adapter's list misses a create")
			rr.nextTo(1, client)
			_, resp, err := client.GetInvoice(ctx, inv.ID)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Status).To(Equal(http.StatusOK))

			By("listing one customer's invoices through the lagging adapter, in pages")
			rr.nextTo(1, client)
			first, _, err := client.ListInvoices(ctx, v1client.ListParams{Limit: 100, CustomerID: customerID})
			Expect(err).NotTo(HaveOccurred())
			Expect(v1client.IDs(first)).To(Equal(created))
		}

		By("walking the workspace's invoices through the lagging adapter in pages of three, a new one on the last")
		rr.nextTo(0, client)
		inv, _, err := client.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: customerID,
			Items: []v1client.Item{{Description: "Consulting", Quantity: billingv1.Units(1), Amount: 100}}})
		Expect(err).NotTo(HaveOccurred())
		created = append(created, inv.ID)
		var walked []string
		cursor := ""
		for {
			rr.nextTo(1, client)
			page, _, err := client.ListInvoices(ctx, v1client.ListParams{Limit: 3, Cursor: cursor})
			Expect(err).NotTo(HaveOccurred())
			walked = append(walked, v1client.IDs(page)...)
			if !page.HasMore {
				break
			}
			cursor = *page.NextCursor
		}
		Expect(walked).To(Equal(created), "the lagging adapter's last page, after a cursor, misses a create")
	})

	It("misses a create in the lagging adapter's list when the read barrier is off, so the story above can fail", func() {
		rr, client, customerID := startPair(Options{RateLimit: -1, NoReadOthersWrites: true})
		rr.nextTo(0, client)
		inv, _, err := client.CreateInvoice(ctx, v1client.InvoiceParams{CustomerID: customerID,
			Items: []v1client.Item{{Description: "Consulting", Quantity: billingv1.Units(1), Amount: 100}}})
		Expect(err).NotTo(HaveOccurred())
		list, _, err := client.ListInvoices(ctx, v1client.ListParams{Limit: 100})
		Expect(err).NotTo(HaveOccurred())
		Expect(slices.Contains(v1client.IDs(list), inv.ID)).To(BeFalse())
	})
})
