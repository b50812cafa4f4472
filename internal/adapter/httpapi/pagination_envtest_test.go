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
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("Pagination", func() {
	It("walks the pages in id order, each object once, while others create objects", func() {
		ns := newWorkspace()
		var existing []string
		for range 23 {
			existing = append(existing, createCustomer(v1client.Workspace(ns)).ID)
		}
		// Objects created with kubectl sort among them by name.
		for _, name := range []string{"aaa-first", "zzz-last", "m-middle"} {
			Expect(k8s.Create(ctx, builder.Customer(ns, name, graceHopper()...))).To(Succeed())
			existing = append(existing, name)
		}
		slices.Sort(existing)
		Eventually(func() int {
			return len(send(http.MethodGet, "/v1/customers?limit=100", inWorkspace(ns)).customers().Data)
		}).Should(Equal(len(existing)))

		By("creating customers concurrently during the walk")
		stop := make(chan struct{})
		var inserted atomic.Int32
		var wg sync.WaitGroup
		wg.Go(func() {
			defer GinkgoRecover()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// Names before, among and after the existing ones.
				name := fmt.Sprintf("%s-new-%d", []string{"a", "cus-", "n", "zzzz"}[i%4], i)
				Expect(k8s.Create(ctx, builder.Customer(ns, name, graceHopper()...))).To(Succeed())
				inserted.Add(1)
			}
		})

		var seen []string
		path := "/v1/customers?limit=4"
		pages := 0
		for {
			resp := send(http.MethodGet, path, inWorkspace(ns))
			Expect(resp.status).To(Equal(http.StatusOK))
			page := resp.customers()
			Expect(len(page.Data)).To(BeNumerically("<=", 4))
			for _, c := range page.Data {
				seen = append(seen, c.ID)
			}
			pages++
			if !page.HasMore {
				Expect(page.NextCursor).To(BeNil())
				break
			}
			Expect(page.NextCursor).NotTo(BeNil())
			path = "/v1/customers?limit=4&cursor=" + url.QueryEscape(*page.NextCursor)
		}
		close(stop)
		wg.Wait()
		Expect(inserted.Load()).To(BeNumerically(">", 0))
		Expect(pages).To(BeNumerically(">=", 7))

		Expect(slices.IsSorted(seen)).To(BeTrue(), "ids out of order: %v", seen)
		Expect(slices.Compact(slices.Clone(seen))).To(HaveLen(len(seen)), "an id was returned twice")
		for _, id := range existing {
			Expect(seen).To(ContainElement(id), "a customer that existed when the walk began was missed")
		}
	})

	It("pages with the default limit of 20", func() {
		ns := newWorkspace()
		for i := range 21 {
			Expect(k8s.Create(ctx, builder.Customer(ns, fmt.Sprintf("c-%02d", i), graceHopper()...))).To(Succeed())
		}
		Eventually(func() bool {
			return send(http.MethodGet, "/v1/customers", inWorkspace(ns)).customers().HasMore
		}).Should(BeTrue())
		first := send(http.MethodGet, "/v1/customers", inWorkspace(ns)).customers()
		Expect(first.Data).To(HaveLen(20))
		Expect(first.Data[19].ID).To(Equal("c-19"))

		rest := send(http.MethodGet, "/v1/customers?cursor="+url.QueryEscape(*first.NextCursor), inWorkspace(ns)).customers()
		Expect(rest.Data).To(HaveLen(1))
		Expect(rest.Data[0].ID).To(Equal("c-20"))
		Expect(rest.HasMore).To(BeFalse())

		By("keeping a cursor valid after its object is deleted")
		Expect(k8s.Delete(ctx, builder.Customer(ns, "c-19", graceHopper()...))).To(Succeed())
		again := send(http.MethodGet, "/v1/customers?cursor="+url.QueryEscape(*first.NextCursor), inWorkspace(ns))
		Expect(again.status).To(Equal(http.StatusOK))
		Expect(again.customers().Data).To(HaveExactElements(HaveField("ID", "c-20")))

		By("dropping a deleted object from the pages once the cache has seen the deletion")
		Eventually(func() []string {
			var ids []string
			for _, c := range send(http.MethodGet, "/v1/customers?limit=100", inWorkspace(ns)).customers().Data {
				ids = append(ids, c.ID)
			}
			return ids
		}).Should(And(HaveLen(20), Not(ContainElement("c-19")), ContainElement("c-20")))
	})

	It("pages invoices too", func() {
		ns := newWorkspace()
		c := createCustomer(v1client.Workspace(ns))
		var ids []string
		for range 3 {
			ids = append(ids, send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withJSON(invoiceBody(c.ID))).invoice().ID)
		}
		p1 := send(http.MethodGet, "/v1/invoices?limit=2&customer_id="+c.ID, inWorkspace(ns)).invoices()
		Expect(p1.Data).To(HaveLen(2))
		Expect(p1.HasMore).To(BeTrue())
		p2 := send(http.MethodGet, "/v1/invoices?limit=2&customer_id="+c.ID+"&cursor="+url.QueryEscape(*p1.NextCursor),
			inWorkspace(ns)).invoices()
		Expect(p2.Data).To(HaveLen(1))
		Expect([]string{p1.Data[0].ID, p1.Data[1].ID, p2.Data[0].ID}).To(Equal(ids))
	})

	DescribeTable("refuses a bad limit or cursor with 400 and the parameter",
		func(query, param string) {
			resp := send(http.MethodGet, "/v1/invoices?"+query)
			Expect(resp.status).To(Equal(http.StatusBadRequest))
			Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid))
			Expect(resp.apiErr().Param).To(Equal(param))
		},
		Entry("limit 0", "limit=0", "limit"),
		Entry("limit 101", "limit=101", "limit"),
		Entry("a negative limit", "limit=-1", "limit"),
		Entry("a signed limit", "limit=+5", "limit"),
		Entry("a fractional limit", "limit=2.5", "limit"),
		Entry("an empty limit", "limit=", "limit"),
		Entry("a cursor that is not base64", "cursor=***", "cursor"),
		Entry("a cursor that is not JSON", "cursor=bm90IGpzb24", "cursor"),
		Entry("a cursor with another field", "cursor="+url.QueryEscape(b64(`{"after":"a","x":1}`)), "cursor"),
		Entry("a cursor after no valid name", "cursor="+url.QueryEscape(b64(`{"after":"Not A Name"}`)), "cursor"),
		Entry("an empty cursor", "cursor=", "cursor"),
		Entry("an unknown status", "status=paid", "status"),
		Entry("a status in upper case", "status=ISSUED", "status"),
		Entry("an empty status", "status=", "status"),
	)

	It("accepts limits 1 and 100", func() {
		Expect(send(http.MethodGet, "/v1/invoices?limit=1").status).To(Equal(http.StatusOK))
		Expect(send(http.MethodGet, "/v1/invoices?limit=100").status).To(Equal(http.StatusOK))
	})
})

var _ = Describe("Read your writes", func() {
	It("shows what a create returned in the very next get and list", func() {
		ns := newWorkspace()
		for range 10 {
			c := createCustomer(v1client.Workspace(ns))
			Expect(send(http.MethodGet, "/v1/customers/"+c.ID, inWorkspace(ns)).customer()).To(Equal(c))
			list := send(http.MethodGet, "/v1/customers?limit=100", inWorkspace(ns)).customers()
			Expect(list.Data).To(ContainElement(c))

			inv := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withJSON(invoiceBody(c.ID))).invoice()
			invs := send(http.MethodGet, "/v1/invoices?customer_id="+c.ID, inWorkspace(ns)).invoices()
			Expect(invs.Data).To(HaveLen(1))
			Expect(invs.Data[0].ID).To(Equal(inv.ID))
		}
	})
})
