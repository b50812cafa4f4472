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

// The move of settled records into seals, watched from outside: every
// record, every page of every list, the feed and the events answer as
// before the move, plus the seal's name, and no read misses while it runs.

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// walkedPage is one page of a list: its ids, its cursor to the next page
// and its objects, each without its "seal".
type walkedPage struct {
	IDs  []string
	Next any
	Data []any
}

// walk reads every page of path (a list with its query) in ns.
func walk(ns, path string, opts ...reqOpt) []walkedPage {
	GinkgoHelper()
	var pages []walkedPage
	cursor := ""
	for range 100 {
		url := path
		if cursor != "" {
			url += "&cursor=" + cursor
		}
		got := send(http.MethodGet, url, append([]reqOpt{inWorkspace(ns)}, opts...)...)
		Expect(got.status).To(Equal(http.StatusOK), "%s: %s", url, got.body)
		body := got.json()
		page := walkedPage{Next: body["next_cursor"]}
		for _, o := range body["data"].([]any) {
			page.IDs = append(page.IDs, o.(map[string]any)["id"].(string))
			page.Data = append(page.Data, withoutSeal(o))
		}
		pages = append(pages, page)
		next, _ := body["next_cursor"].(string)
		if next == "" || body["has_more"] == false {
			return pages
		}
		cursor = next
	}
	Fail("a list of more than 100 pages")
	return nil
}

// withoutSeal is v with every "seal" key of its objects removed.
func withoutSeal(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if k != "seal" {
				out[k] = withoutSeal(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutSeal(e)
		}
		return out
	default:
		return v
	}
}

var _ = Describe("Sealing watched over HTTP", Label(periodCloseController), func() {
	It("answers every record, page, feed entry and event as before the move, plus its seal, and never misses one", func() {
		ns := newWorkspace()
		cus := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withJSON(customerBody())).customer()

		By("issuing six invoices: four paid, one credited in full (void), one left open")
		var invoices, records []string
		for range 6 {
			got := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withJSON(invoiceBody(cus.ID)))
			Expect(got.status).To(Equal(http.StatusCreated), "body: %s", got.body)
			invoices = append(invoices, got.invoice().ID)
		}
		records = append(records, invoices...)
		total := map[string]int64{}
		Eventually(func(g Gomega) {
			for _, id := range invoices {
				inv := send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns)).invoice()
				g.Expect(inv.Status).To(Equal("issued"))
				total[id] = *inv.Total
			}
		}).Should(Succeed())
		for i, id := range invoices[:5] {
			path, body := "/v1/payments", map[string]any{"invoice_id": id, "amount": total[id]}
			if i == 4 {
				path, body = "/v1/credit_notes", map[string]any{"invoice_id": id, "reason": "order_change", "full_credit": true}
			}
			got := send(http.MethodPost, path, inWorkspace(ns), withJSON(body))
			Expect(got.status).To(Equal(http.StatusCreated), "body: %s", got.body)
			records = append(records, path+"/"+got.json()["id"].(string))
		}
		Eventually(func(g Gomega) {
			for i, id := range invoices {
				inv := send(http.MethodGet, "/v1/invoices/"+id, inWorkspace(ns)).invoice()
				want := map[bool]string{true: "paid", false: "void"}[i < 4]
				if i == 5 {
					want = "open"
				}
				g.Expect(inv.PaymentStatus).To(HaveValue(Equal(want)), "invoice %s", id)
			}
			// An invoice is paid once its payment is entered, a moment
			// before the payment itself is recorded: the records read
			// before the move must be final, as the sealer waits for.
			for _, r := range records[len(invoices):] {
				g.Expect(send(http.MethodGet, r, inWorkspace(ns)).json()["status"]).
					To(BeElementOf("recorded", "issued"), "record %s", r)
			}
		}).Should(Succeed())
		path := func(r string) string {
			if len(r) > 0 && r[0] == '/' {
				return r
			}
			return "/v1/invoices/" + r
		}

		By("reading every record, every page of the lists, the feed and the events before the move")
		lists := []string{
			"/v1/invoices?limit=2",
			"/v1/invoices?limit=2&customer_id=" + cus.ID,
			"/v1/invoices?limit=2&payment_status=paid",
			"/v1/invoices?limit=2&status=issued&order=sequence",
			"/v1/credit_notes?limit=2",
			"/v1/payments?limit=2",
		}
		before := map[string]any{}
		for _, r := range records {
			got := send(http.MethodGet, path(r), inWorkspace(ns))
			Expect(got.status).To(Equal(http.StatusOK))
			Expect(got.json()).To(HaveKeyWithValue("seal", BeNil()), "%s while live", r)
			before[r] = withoutSeal(got.json())
		}
		documents := []string{"/v1/invoices/" + invoices[0] + "/document?format=html",
			"/v1/invoices/" + invoices[0] + "/document?format=pdf",
			"/v1/credit_notes/" + records[len(records)-1][len("/v1/credit_notes/"):] + "/document?format=html"}
		documentsBefore := map[string][]byte{}
		for _, d := range documents {
			got := send(http.MethodGet, d, inWorkspace(ns))
			Expect(got.status).To(Equal(http.StatusOK), "%s: %s", d, got.body)
			documentsBefore[d] = got.body
		}
		pagesBefore := map[string][]walkedPage{}
		for _, l := range lists {
			pagesBefore[l] = walk(ns, l)
		}
		reader := eventsReader(ns)
		// An invoice is paid a moment before its invoice.paid event is
		// numbered into the feed: the events read before the move are
		// those of the four paid invoices.
		var eventsBefore []walkedPage
		Eventually(func(g Gomega) {
			eventsBefore = walk(ns, "/v1/events?limit=3", as(reader))
			paid := 0
			for _, p := range eventsBefore {
				for _, e := range p.Data {
					if e.(map[string]any)["type"] == "invoice.paid" {
						paid++
					}
				}
			}
			g.Expect(paid).To(Equal(4))
		}).Should(Succeed())

		By("closing the books through a second ago while readers get every record without pause")
		stop := make(chan struct{})
		var misses []string
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for i := w; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					r := records[i%len(records)]
					got, err := try(http.MethodGet, path(r), inWorkspace(ns))
					if err != nil || got.status != http.StatusOK {
						mu.Lock()
						misses = append(misses, fmt.Sprintf("%s: %d %v", r, got.status, err))
						mu.Unlock()
					}
				}
			}()
		}
		time.Sleep(1100 * time.Millisecond)
		closed := send(http.MethodPost, "/v1/period_closes", inWorkspace(ns), withJSON(map[string]any{
			"through": time.Now().Add(-time.Second).UTC().Format(time.RFC3339)}))
		Expect(closed.status).To(Equal(http.StatusCreated), "body: %s", closed.body)
		Eventually(func(g Gomega) {
			var live billingv1.InvoiceList
			g.Expect(k8s.List(ctx, &live, client.InNamespace(ns))).To(Succeed())
			g.Expect(live.Items).To(HaveLen(1), "only the open invoice stays live")
			var notes billingv1.CreditNoteList
			g.Expect(k8s.List(ctx, &notes, client.InNamespace(ns))).To(Succeed())
			g.Expect(notes.Items).To(BeEmpty())
			var pays billingv1.PaymentList
			g.Expect(k8s.List(ctx, &pays, client.InNamespace(ns))).To(Succeed())
			g.Expect(pays.Items).To(BeEmpty())
		}, time.Minute).Should(Succeed())
		time.Sleep(500 * time.Millisecond)
		close(stop)
		wg.Wait()
		Expect(misses).To(BeEmpty(), "reads that missed a record while it moved")

		By("answering every record as before, plus the seal that holds it (null for the open invoice)")
		for _, r := range records {
			got := send(http.MethodGet, path(r), inWorkspace(ns))
			Expect(got.status).To(Equal(http.StatusOK))
			if r == invoices[5] {
				Expect(got.json()).To(HaveKeyWithValue("seal", BeNil()))
			} else {
				Expect(got.json()).To(HaveKeyWithValue("seal", MatchRegexp(`^seal-[0-9]{6}$`)), "%s", r)
			}
			Expect(withoutSeal(got.json())).To(Equal(before[r]), "%s changed in the move", r)
		}

		By("answering the same documents and e-invoices")
		for _, d := range documents {
			got := send(http.MethodGet, d, inWorkspace(ns))
			Expect(got.status).To(Equal(http.StatusOK), "%s: %s", d, got.body)
			Expect(string(got.body)).To(Equal(string(documentsBefore[d])), "%s", d)
		}

		By("answering every page of every list with the same records and the same cursors")
		for _, l := range lists {
			Expect(walk(ns, l)).To(Equal(pagesBefore[l]), "%s", l)
		}

		By("answering the same events, then the close's and the seal's, gapless")
		eventsAfter := walk(ns, "/v1/events?limit=3", as(reader))
		var seen []any
		var sequences []int64
		for _, p := range eventsAfter {
			for _, e := range p.Data {
				seen = append(seen, e)
				sequences = append(sequences, int64(e.(map[string]any)["sequence"].(float64)))
			}
		}
		var earlier []any
		for _, p := range eventsBefore {
			earlier = append(earlier, p.Data...)
		}
		Expect(seen[:len(earlier)]).To(Equal(earlier))
		var types []any
		for _, e := range seen[len(earlier):] {
			types = append(types, e.(map[string]any)["type"])
		}
		Expect(types).To(ConsistOf("period.closed", "ledger.sealed"))
		for i, seq := range sequences {
			Expect(seq).To(Equal(int64(i+1)), "the event sequences are not 1..%d: %v", len(sequences), sequences)
		}
	})
})
