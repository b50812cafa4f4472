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
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/utils/ptr"

	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("The feed of issued invoices (order=sequence)", func() {
	It("gives a consumer walking it while invoices are being issued every invoice once, in sequence order", func() {
		ns := newWorkspace()
		c := createCustomer(v1client.Workspace(ns))
		client := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns))
		const total = 60

		By("creating invoices from four writers while the consumer walks the feed")
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				defer GinkgoRecover()
				for i := range total / 4 {
					Expect(k8s.Create(ctx, builder.Invoice(ns, fmt.Sprintf("inv-%d-%02d", w, i), inEUR(c.ID)...))).To(Succeed())
				}
			})
		}

		var seen []int64
		ids := map[string]bool{}
		var last int64
		Eventually(func(g Gomega) {
			// The consumer stores the last sequence it processed and
			// resumes after it, page by page.
			for {
				list, resp, err := client.ListInvoices(ctx, v1client.ListParams{
					Status: "issued", Order: "sequence", AfterSequence: ptr.To(last), Limit: 7,
				})
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
				g.Expect(list.NextCursor).NotTo(BeNil(), "the feed always says where it goes on")
				for _, inv := range list.Data {
					g.Expect(inv.Status).To(Equal("issued"))
					g.Expect(inv.Sequence).NotTo(BeNil())
					g.Expect(*inv.Sequence).To(Equal(last+1), "the feed skipped or repeated a sequence")
					g.Expect(*inv.Number).To(Equal(fmt.Sprintf("INV-%06d", *inv.Sequence)))
					g.Expect(ids).NotTo(HaveKey(inv.ID), "invoice %s came twice", inv.ID)
					ids[inv.ID] = true
					last = *inv.Sequence
					seen = append(seen, last)
				}
				if !list.HasMore || len(list.Data) == 0 {
					break
				}
			}
			g.Expect(seen).To(HaveLen(total))
		}).WithTimeout(time.Minute).WithPolling(50 * time.Millisecond).Should(Succeed())
		wg.Wait()
		for i, s := range seen {
			Expect(s).To(Equal(int64(i + 1)))
		}

		By("following next_cursor from the start gives the same invoices in the same order")
		var again []int64
		p := v1client.ListParams{Status: "issued", Order: "sequence", Limit: 25}
		for {
			list, resp, err := client.ListInvoices(ctx, p)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
			for _, inv := range list.Data {
				again = append(again, *inv.Sequence)
			}
			if !list.HasMore {
				break
			}
			p.Cursor = *list.NextCursor
		}
		Expect(again).To(Equal(seen))
	})

	It("refuses order and after_sequence that do not make a feed, with the parameter at fault", func() {
		ns := newWorkspace()
		c := createCustomer(v1client.Workspace(ns))
		for _, name := range []string{"inv-a", "inv-b"} {
			Expect(k8s.Create(ctx, builder.Invoice(ns, name, inEUR(c.ID)...))).To(Succeed())
		}
		var cursor *string
		Eventually(func() *string {
			cursor = send(http.MethodGet, "/v1/invoices?status=issued&limit=1", inWorkspace(ns)).invoices().NextCursor
			return cursor
		}).ShouldNot(BeNil(), "a list by id of two issued invoices has a next page")
		for query, param := range map[string]string{
			"order=sequence":                                               "status",
			"order=sequence&status=pending":                                "status",
			"order=number&status=issued":                                   "order",
			"order=sequence&status=issued&customer_id=cus-1":               "customer_id",
			"after_sequence=3":                                             "after_sequence",
			"status=issued&after_sequence=3":                               "after_sequence",
			"order=sequence&status=issued&after_sequence=-1":               "after_sequence",
			"order=sequence&status=issued&after_sequence=01":               "after_sequence",
			"order=sequence&status=issued&after_sequence=1e3":              "after_sequence",
			"order=sequence&status=issued&after_sequence=9007199254740992": "after_sequence",
		} {
			resp := send(http.MethodGet, "/v1/invoices?"+query)
			Expect(resp.status).To(Equal(http.StatusBadRequest), query)
			Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid), query)
			Expect(resp.apiErr().Param).To(Equal(param), query)
		}
		By("refusing a cursor of the list by id in the feed, and cursor with after_sequence")
		resp := send(http.MethodGet, "/v1/invoices?status=issued&order=sequence&cursor="+url.QueryEscape(*cursor),
			inWorkspace(ns))
		Expect(resp.status).To(Equal(http.StatusBadRequest))
		Expect(resp.apiErr().Param).To(Equal("cursor"))
		feed := send(http.MethodGet, "/v1/invoices?status=issued&order=sequence").invoices()
		Expect(feed.NextCursor).NotTo(BeNil())
		resp = send(http.MethodGet, "/v1/invoices?status=issued&order=sequence&after_sequence=0&cursor="+
			url.QueryEscape(*feed.NextCursor))
		Expect(resp.status).To(Equal(http.StatusBadRequest))
		Expect(resp.apiErr().Param).To(Equal("after_sequence"))
	})
})

// readEvents reads n events of s and checks each against the contract,
// that its frame ends with its id, and that the ids are the sequences from
// first on.
func readEvents(s *v1client.EventStream, first int64, n int) {
	GinkgoHelper()
	for i := range n {
		e, err := s.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Fields).To(Equal([]string{"event", "data", "id"}), "the id line must come last, after the data")
		Expect(e.Type).To(Equal("invoice.issued"))
		Expect(apiContract.checkEvent(e.Data)).To(Succeed())
		var inv v1client.Invoice
		Expect(json.Unmarshal(e.Data, &inv)).To(Succeed())
		want := first + int64(i)
		Expect(e.ID).To(Equal(strconv.FormatInt(want, 10)), "events out of order")
		Expect(inv.Sequence).To(HaveValue(Equal(want)))
		Expect(inv.Status).To(Equal("issued"))
	}
}

var _ = Describe("The live stream of the feed (Accept: text/event-stream)", func() {
	var ns, customerID string
	createIssued := func(n int) {
		GinkgoHelper()
		for range n {
			Expect(k8s.Create(ctx, builder.Invoice(ns, billing.NewID("inv-"), inEUR(customerID)...))).To(Succeed())
		}
	}
	BeforeEach(func() {
		ns = newWorkspace()
		customerID = createCustomer(v1client.Workspace(ns)).ID
	})

	It("sends the issued invoices in order, then each new one, and resumes after Last-Event-ID on another adapter once the first shut down", func() {
		createIssued(5)
		url, stop := startStoppableAdapter(adapterCfg, Options{RateLimit: -1, ShutdownTimeout: 30 * time.Second})
		client := apiClient(url).With(v1client.Token(writerToken), v1client.Workspace(ns))
		stream, resp, err := client.StreamIssuedInvoices(ctx, v1client.ListParams{})
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("Cache-Control")).To(Equal("no-store"))
		readEvents(stream, 1, 5)

		By("sending invoices issued while the stream is open")
		createIssued(5)
		readEvents(stream, 6, 5)

		By("ending the stream cleanly when the adapter shuts down, without waiting for it")
		started := time.Now()
		stop()
		Expect(time.Since(started)).To(BeNumerically("<", 10*time.Second), "the shutdown waited for the stream")
		_, err = stream.Next()
		Expect(err).To(MatchError(io.EOF))

		By("resuming after Last-Event-ID 7 on another adapter, with what was issued meanwhile")
		createIssued(3)
		resumed, _, err := apiClient(mainURL).With(v1client.Token(writerToken), v1client.Workspace(ns)).
			StreamIssuedInvoices(ctx, v1client.ListParams{}, v1client.Header("Last-Event-ID", "7"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(resumed.Close)
		readEvents(resumed, 8, 6)
	})

	It("refuses a caller's stream beyond the bound with 429, and a bad Last-Event-ID with 400", func() {
		url := startAdapter(adapterCfg, Options{RateLimit: -1, MaxStreamsPerCaller: 1})
		client := apiClient(url).With(v1client.Token(writerToken), v1client.Workspace(ns))
		first, _, err := client.StreamIssuedInvoices(ctx, v1client.ListParams{})
		Expect(err).NotTo(HaveOccurred())
		_, resp, err := client.StreamIssuedInvoices(ctx, v1client.ListParams{})
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusTooManyRequests))
		Expect(resp.Err().Code).To(Equal(CodeRateLimited))

		By("allowing another once the first is closed")
		Expect(first.Close()).To(Succeed())
		Eventually(func(g Gomega) {
			s, _, err := client.StreamIssuedInvoices(ctx, v1client.ListParams{})
			g.Expect(err).NotTo(HaveOccurred())
			_ = s.Close()
		}).Should(Succeed())

		_, resp, err = client.StreamIssuedInvoices(ctx, v1client.ListParams{}, v1client.Header("Last-Event-ID", "x"))
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusBadRequest))
		Expect(resp.Err().Param).To(Equal("Last-Event-ID"))
	})

	It("keeps an idle stream open with heartbeat comments", func() {
		url := startAdapter(adapterCfg, Options{RateLimit: -1, StreamHeartbeat: 50 * time.Millisecond})
		client := apiClient(url).With(v1client.Token(writerToken), v1client.Workspace(ns))
		// Heartbeats begin once the adapter's cache has synced: a list
		// that answers says it has, so the 500 ms below are all idle.
		Eventually(func() error {
			_, _, err := client.ListInvoices(ctx, v1client.ListParams{})
			return err
		}).Should(Succeed())
		stream, _, err := client.StreamIssuedInvoices(ctx, v1client.ListParams{})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(stream.Close)
		time.Sleep(500 * time.Millisecond)
		createIssued(1)
		readEvents(stream, 1, 1)
		Expect(stream.Comments).To(BeNumerically(">=", 3), "heartbeats before the event")
	})
})
