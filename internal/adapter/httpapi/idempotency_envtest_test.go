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
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

var _ = Describe("Idempotency-Key", func() {
	var ns, key string
	BeforeEach(func() {
		ns = newWorkspace()
		key = "order-" + rand.String(12)
	})

	countInvoices := func() int {
		var list billingv1.InvoiceList
		Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		return len(list.Items)
	}

	It("returns the first request's object to a retry, with Idempotent-Replayed", func() {
		first := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(key), withJSON(customerBody()))
		Expect(first.status).To(Equal(http.StatusCreated))
		Expect(first.header.Get(IdempotentReplayedHeader)).To(BeEmpty())

		again := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(key),
			withBody(`{"email": "ada@example.com",   "name": "Ada Lovelace"}`))
		Expect(again.status).To(Equal(http.StatusCreated))
		Expect(again.header.Get(IdempotentReplayedHeader)).To(Equal("true"))
		Expect(again.header.Get("Location")).To(Equal(first.header.Get("Location")))
		Expect(again.customer()).To(Equal(first.customer()))

		By("keeping the key for 24 hours in an IdempotencyKey object")
		claim := &billingv1.IdempotencyKey{}
		Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: idempotency.ClaimName(key)}, claim)).To(Succeed())
		Expect(claim.Spec.Resource).To(Equal("customers"))
		Expect(claim.Spec.ObjectName).To(Equal(first.customer().ID))
		Expect(claim.Spec.ExpiresAt.Time).To(BeTemporally("~", time.Now().Add(24*time.Hour), time.Minute))
	})

	It("refuses the same key with another body with 409 idempotency_key_reused", func() {
		Expect(send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(key),
			withJSON(customerBody())).status).To(Equal(http.StatusCreated))
		resp := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(key),
			withJSON(customerBody(set("name", "Eve"))))
		Expect(resp.status).To(Equal(http.StatusConflict))
		Expect(resp.apiErr().Code).To(Equal(CodeIdempotencyReused))
		Expect(resp.apiErr().Type).To(Equal("invalid_request_error"))

		By("and on another path")
		c := createCustomer(v1client.Workspace(ns))
		resp = send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withIdempotencyKey(key), withJSON(invoiceBody(c.ID)))
		Expect(resp.status).To(Equal(http.StatusConflict))
	})

	It("scopes keys to the workspace", func() {
		a := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(key), withJSON(customerBody()))
		b := send(http.MethodPost, "/v1/customers", inWorkspace(nsBeta), withIdempotencyKey(key), withJSON(customerBody()))
		Expect(a.status).To(Equal(http.StatusCreated))
		Expect(b.status).To(Equal(http.StatusCreated))
		Expect(b.header.Get(IdempotentReplayedHeader)).To(BeEmpty())
		Expect(b.customer().ID).NotTo(Equal(a.customer().ID))
	})

	It("makes exactly one object when many retries race each other", func() {
		c := createCustomer(v1client.Workspace(ns))
		const racers = 12
		var wg sync.WaitGroup
		results := make([]response, racers)
		errs := make([]error, racers)
		start := make(chan struct{})
		for i := range racers {
			wg.Go(func() {
				<-start
				results[i], errs[i] = try(http.MethodPost, "/v1/invoices", inWorkspace(ns), withIdempotencyKey(key),
					withJSON(invoiceBody(c.ID)))
			})
		}
		close(start)
		wg.Wait()
		ids := map[string]int{}
		replayed := 0
		for i := range racers {
			Expect(errs[i]).NotTo(HaveOccurred())
			Expect(results[i].status).To(Equal(http.StatusCreated), "body: %s", results[i].body)
			ids[results[i].invoice().ID]++
			if results[i].header.Get(IdempotentReplayedHeader) == "true" {
				replayed++
			}
		}
		Expect(ids).To(HaveLen(1))
		Expect(replayed).To(Equal(racers - 1))
		Expect(countInvoices()).To(Equal(1))
	})

	It("claims nothing for an invalid request, so the key stays free", func() {
		resp := send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withIdempotencyKey(key),
			withJSON(invoiceBody("cus-nobody")))
		Expect(resp.status).To(Equal(http.StatusUnprocessableEntity))
		c := createCustomer(v1client.Workspace(ns))
		resp = send(http.MethodPost, "/v1/invoices", inWorkspace(ns), withIdempotencyKey(key), withJSON(invoiceBody(c.ID)))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(resp.header.Get(IdempotentReplayedHeader)).To(BeEmpty())
	})

	It("claims the key anew once it has expired", func() {
		first := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(key), withJSON(customerBody()))
		Expect(first.status).To(Equal(http.StatusCreated))
		By("replacing the claim with one that expired, as if 24 hours had passed")
		old := &billingv1.IdempotencyKey{}
		Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: idempotency.ClaimName(key)}, old)).To(Succeed())
		Expect(k8s.Delete(ctx, old)).To(Succeed())
		expired := &billingv1.IdempotencyKey{
			ObjectMeta: metav1.ObjectMeta{Name: old.Name, Namespace: ns},
			Spec:       old.Spec,
		}
		expired.Spec.ExpiresAt = metav1.NewTime(time.Now().Add(-time.Minute))
		Expect(k8s.Create(ctx, expired)).To(Succeed())

		again := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(key),
			withJSON(customerBody(set("name", "Someone else"))))
		Expect(again.status).To(Equal(http.StatusCreated), "body: %s", again.body)
		Expect(again.header.Get(IdempotentReplayedHeader)).To(BeEmpty())
		Expect(again.customer().ID).NotTo(Equal(first.customer().ID))
	})

	It("claims the key anew when its request died before creating the object", func() {
		By("leaving a claim whose object was never created, made long ago")
		Expect(k8s.Create(ctx, &billingv1.IdempotencyKey{
			ObjectMeta: metav1.ObjectMeta{Name: idempotency.ClaimName(key), Namespace: ns},
			Spec: billingv1.IdempotencyKeySpec{
				RequestHash: requestHash(http.MethodPost, "/v1/customers", &CustomerParams{Name: "Ada Lovelace", Email: "ada@example.com"}),
				Resource:    "customers", ObjectName: "cus-never-created",
				ExpiresAt: metav1.NewTime(time.Now().Add(time.Hour)),
			},
		})).To(Succeed())

		By("answering 409 idempotency_key_in_use while the claim may still be in flight")
		resp := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(key), withJSON(customerBody()))
		Expect(resp.status).To(Equal(http.StatusConflict), "body: %s", resp.body)
		Expect(resp.apiErr().Code).To(Equal(CodeIdempotencyInUse))

		By("taking the claim over on an adapter that deems it stale")
		stale := startAdapter(adapterCfg, Options{RateLimit: -1, StaleClaimAfter: time.Millisecond})
		Eventually(func() int { return send(http.MethodGet, "/readyz", on(stale)).status }).Should(Equal(http.StatusOK))
		resp = send(http.MethodPost, "/v1/customers", on(stale), inWorkspace(ns), withIdempotencyKey(key), withJSON(customerBody()))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
		Expect(resp.customer().ID).To(HavePrefix("cus-"))
		Expect(resp.customer().ID).NotTo(Equal("cus-never-created"))
	})

	DescribeTable("refuses a malformed Idempotency-Key with 400",
		func(keys ...string) {
			opts := []reqOpt{withJSON(customerBody())}
			for _, k := range keys {
				opts = append(opts, withIdempotencyKey(k))
			}
			resp := send(http.MethodPost, "/v1/customers", opts...)
			Expect(resp.status).To(Equal(http.StatusBadRequest))
			Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid))
			Expect(resp.apiErr().Param).To(Equal(IdempotencyKeyHeader))
		},
		Entry("empty", ""),
		Entry("256 characters", strings.Repeat("k", 256)),
		Entry("not ASCII", "clé"),
		Entry("sent twice", "a", "b"),
	)

	It("accepts a key of 255 printable characters", func() {
		k := strings.Repeat("~", 200) + fmt.Sprintf("%055d", 1)
		Expect(k).To(HaveLen(255))
		resp := send(http.MethodPost, "/v1/customers", inWorkspace(ns), withIdempotencyKey(k), withJSON(customerBody()))
		Expect(resp.status).To(Equal(http.StatusCreated))
	})
})
