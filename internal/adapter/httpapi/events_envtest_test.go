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
	"net/http"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// eventJSON is an event of GET /v1/events, with the few fields of its
// object that the story checks.
type eventJSON struct {
	ID       string `json:"id"`
	Object   string `json:"object"`
	Sequence int64  `json:"sequence"`
	Type     string `json:"type"`
	Data     struct {
		Object struct {
			ID        string `json:"id"`
			Object    string `json:"object"`
			InvoiceID string `json:"invoice_id"`
		} `json:"object"`
		// WriteOff is the write-off of an invoice.marked_uncollectible.
		WriteOff *struct {
			ID        string `json:"id"`
			Object    string `json:"object"`
			InvoiceID string `json:"invoice_id"`
		} `json:"write_off"`
	} `json:"data"`
}

type eventPage struct {
	Data       []eventJSON `json:"data"`
	HasMore    bool        `json:"has_more"`
	NextCursor *string     `json:"next_cursor"`
}

// eventsReader is a ServiceAccount of ns allowed to list the events of ns,
// and nothing else; its token.
func eventsReader(ns string) string {
	token := serviceAccountToken(ns, "events-reader")
	Expect(k8s.Create(ctx, &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "events-reader", Namespace: ns},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{"billing.invoicing.dev"}, Resources: []string{"events"}, Verbs: []string{"list"},
		}},
	})).To(Succeed())
	Expect(k8s.Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "events-reader", Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "events-reader"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: "events-reader"}},
	})).To(Succeed())
	awaitAllowed("system:serviceaccount:"+ns+":events-reader", ns, "list", "events")
	return token
}

// listEvents sends GET /v1/events?query and decodes the page.
func listEvents(g Gomega, token, ns, query string) eventPage {
	resp, err := try(http.MethodGet, "/v1/events?"+query, as(token), inWorkspace(ns))
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(resp.status).To(Equal(http.StatusOK), "body: %s", resp.body)
	var page eventPage
	g.Expect(json.Unmarshal(resp.body, &page)).To(Succeed())
	g.Expect(page.NextCursor).NotTo(BeNil(), "a page of events always says where the next starts")
	return page
}

var _ = Describe("The workspace's events (GET /v1/events)", func() {
	It("gives a consumer every fact once, in order, never before the facts it depends on", func() {
		ns := newWorkspace()
		c := createCustomer(v1client.Workspace(ns))
		reader := eventsReader(ns)
		const invoices = 12

		By("creating invoices, and paying, crediting or partly paying each as soon as it is issued, concurrently")
		var wg sync.WaitGroup
		for i := range invoices {
			wg.Go(func() {
				defer GinkgoRecover()
				name := fmt.Sprintf("inv-%02d", i)
				Expect(k8s.Create(ctx, builder.Invoice(ns, name, inEUR(c.ID)...))).To(Succeed())
				inv := &billingv1.Invoice{}
				Eventually(func(g Gomega) {
					g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, inv)).To(Succeed())
					g.Expect(inv.Status.Total).NotTo(BeNil())
					g.Expect(inv.Status.Sequence).NotTo(BeNil())
				}).Should(Succeed())
				total := *inv.Status.Total
				switch i % 3 {
				case 0: // paid in two payments
					Expect(k8s.Create(ctx, builder.Payment(ns, name+"-p1", name, total/2))).To(Succeed())
					Expect(k8s.Create(ctx, builder.Payment(ns, name+"-p2", name, total-total/2))).To(Succeed())
				case 1: // voided by a full credit note
					Expect(k8s.Create(ctx, builder.CreditNote(ns, name+"-cn", name, builder.WithFullCredit()))).To(Succeed())
				case 2: // partly paid: stays open
					Expect(k8s.Create(ctx, builder.Payment(ns, name+"-p1", name, 1))).To(Succeed())
				}
			})
		}
		// invoices issued, 8+4 payments, 4 credit notes, 4 paid, 4 voided.
		const want = invoices + invoices/3*3 + invoices/3 + invoices/3 + invoices/3

		By("walking the events from after=0, page by page, while they happen")
		var events []eventJSON
		var last int64
		Eventually(func(g Gomega) {
			for {
				page := listEvents(g, reader, ns, fmt.Sprintf("after=%d&limit=7", last))
				for _, e := range page.Data {
					g.Expect(e.Sequence).To(Equal(last+1), "the events skipped or repeated a sequence")
					g.Expect(e.ID).To(Equal(fmt.Sprintf("evt-%s-%d", ns, e.Sequence)))
					g.Expect(e.Object).To(Equal("event"))
					last = e.Sequence
					events = append(events, e)
				}
				if !page.HasMore || len(page.Data) == 0 {
					break
				}
			}
			g.Expect(events).To(HaveLen(want))
		}).WithTimeout(time.Minute).Should(Succeed())
		wg.Wait()

		By("finding each fact once, after what it depends on")
		at := map[string]int64{} // "type/object id" -> sequence
		for _, e := range events {
			key := e.Type + "/" + e.Data.Object.ID
			Expect(at).NotTo(HaveKey(key), "%s came twice", key)
			at[key] = e.Sequence
		}
		for _, e := range events {
			o := e.Data.Object
			switch e.Type {
			case "invoice.issued":
				Expect(o.Object).To(Equal("invoice"))
			case "payment.recorded", "credit_note.issued":
				Expect(at).To(HaveKey("invoice.issued/" + o.InvoiceID))
				Expect(e.Sequence).To(BeNumerically(">", at["invoice.issued/"+o.InvoiceID]),
					"%s %s came before its invoice was issued", e.Type, o.ID)
			case "invoice.paid":
				Expect(e.Sequence).To(BeNumerically(">", at["payment.recorded/"+o.ID+"-p1"]))
				Expect(e.Sequence).To(BeNumerically(">", at["payment.recorded/"+o.ID+"-p2"]),
					"invoice %s was paid before the payments that paid it", o.ID)
			case "invoice.voided":
				Expect(e.Sequence).To(BeNumerically(">", at["credit_note.issued/"+o.ID+"-cn"]),
					"invoice %s was voided before the credit note that voided it", o.ID)
			default:
				Fail("unexpected event type " + e.Type)
			}
		}

		By("keeping only some types with type=, following next_cursor")
		var settled []eventJSON
		query := "type=invoice.voided,invoice.paid&limit=3"
		for {
			page := listEvents(Default, reader, ns, query)
			settled = append(settled, page.Data...)
			if !page.HasMore {
				break
			}
			query = "type=invoice.voided,invoice.paid&limit=3&cursor=" + *page.NextCursor
		}
		Expect(settled).To(HaveLen(invoices/3 + invoices/3))
		for i, e := range settled {
			Expect(e.Type).To(BeElementOf("invoice.paid", "invoice.voided"))
			if i > 0 {
				Expect(e.Sequence).To(BeNumerically(">", settled[i-1].Sequence))
			}
		}
	})

	It("refuses a caller without list on events, and parameters that are not events'", func() {
		ns := newWorkspace()
		resp := send(http.MethodGet, "/v1/events", inWorkspace(nsAlpha))
		Expect(resp.status).To(Equal(http.StatusForbidden), "the writer may list invoices but not events: %s", resp.body)
		reader := eventsReader(ns)
		for query, param := range map[string]string{
			"after=-1":            "after",
			"type=invoice.bogus":  "type",
			"type=":               "type",
			"after=1&cursor=abc":  "cursor",
			"limit=0":             "limit",
			"order=sequence":      "order",
			"cursor=not-a-cursor": "cursor",
		} {
			resp := send(http.MethodGet, "/v1/events?"+query, as(reader), inWorkspace(ns))
			Expect(resp.status).To(Equal(http.StatusBadRequest), "%s: %s", query, resp.body)
			Expect(resp.apiErr().Param).To(Equal(param), query)
		}
	})
})
