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

package reliability

import (
	"fmt"
	"net/http"
	"runtime"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/rand"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// goroutineSlack is how many more goroutines than before the outage the
// test process may run once the load has stopped and its connections are
// closed. The adapter, the controller-runtime cache and the suite's own
// clients each re-dial the API server after it returns; the HTTP/2
// connection of a client-go transport carries a few goroutines of its own.
// A pile-up (a goroutine per failed request or per retry) would be
// hundreds: the load below sends well over a thousand requests.
const goroutineSlack = 15

var _ = Describe("An API server outage under load", func() {
	It("answers 503 api_unavailable with Retry-After within the request timeout, serves what its cache holds, "+
		"and recovers with the controller without a restart", func() {
		const requestTimeout = 2 * time.Second
		ws := newWorkspace("outage")
		adapter := startInProcessAdapter(httpapi.Options{RequestTimeout: requestTimeout, RateLimit: -1})
		const workers = 6
		c := newClient(adapter.url, workers, 3*requestTimeout)
		customers := createCustomers(c, ws, 3)
		managerPID := manager.pid()

		var rec recorder
		op := func(w, i int) {
			who := call{token: tokens[callers[w%len(callers)]], workspace: ws}
			customer := customers[w%len(customers)]
			switch i % 4 {
			case 0:
				who.body = invoiceFor(customer, int64(100+i))
				who.key = fmt.Sprintf("outage-%d-%d-%s", w, i, rand.String(6))
				rec.add(c.do(http.MethodPost, "/v1/invoices", who))
			case 1:
				rec.add(c.do(http.MethodGet, "/v1/invoices?limit=5", who))
			case 2:
				rec.add(c.do(http.MethodGet, "/v1/customers/"+customer, who))
			case 3:
				rec.add(c.do(http.MethodGet, "/v1/invoices?limit=5&customer_id="+customer, who))
			}
		}

		By("warming up: every caller's token and access reviews are cached")
		warm := startLoad(workers, 8, 10*time.Millisecond, op)
		warm.wg.Wait()
		for _, r := range rec.all() {
			Expect(r.status).To(BeElementOf(http.StatusOK, http.StatusCreated), "%+v", r)
		}
		c.http.CloseIdleConnections()
		goroutinesBefore := settledGoroutines()

		By("killing the API server while the load runs")
		l := startLoad(workers, 2000, 20*time.Millisecond, op)
		time.Sleep(time.Second)
		down := time.Now()
		crashAPIServer()
		stopped := time.Now()
		time.Sleep(3 * time.Second)

		By("checking readiness says so while it is down")
		Expect(probeStatus(adapter.url + "/readyz")).To(Equal(http.StatusServiceUnavailable))
		Expect(probeStatus(adapter.url + "/healthz")).To(Equal(http.StatusOK))

		By("starting the API server again")
		up := time.Now()
		startAPIServer()
		healthy := time.Now()
		var recovered time.Time
		Eventually(func() int {
			r := c.do(http.MethodPost, "/v1/invoices", call{token: tokens[callers[0]], workspace: ws,
				body: invoiceFor(customers[0], 1)})
			rec.add(r)
			recovered = time.Now()
			return r.status
		}).Should(Equal(http.StatusCreated))
		time.Sleep(time.Second)
		l.halt()
		GinkgoWriter.Printf("Killing took %s, the API server was down %s and took %s to start; "+
			"the adapter created again %s after that\n",
			stopped.Sub(down), up.Sub(stopped), healthy.Sub(up), recovered.Sub(healthy))

		records := rec.all()
		var unavailableDown, servedDown, created []string
		for _, r := range records {
			Expect(r.err).To(BeEmpty(), "the adapter dropped a request: %+v", r)
			Expect(r.took).To(BeNumerically("<", requestTimeout+time.Second), "a request hung: %+v", r)
			if r.created != "" {
				created = append(created, r.created)
			}
			duringOutage := r.end().After(down) && r.start.Before(recovered.Add(2*time.Second))
			switch {
			case r.status == http.StatusOK || r.status == http.StatusCreated:
				if r.start.After(stopped) && r.end().Before(up) {
					servedDown = append(servedDown, r.path)
				}
			case r.status == http.StatusServiceUnavailable && duringOutage:
				Expect(r.unavailable).To(BeTrue(), "a 503 without api_unavailable and Retry-After: %+v", r)
				unavailableDown = append(unavailableDown, r.path)
			default:
				Fail(fmt.Sprintf("unexpected answer (down %s, stopped %s, up %s, recovered %s): %+v",
					down.Format(time.StampMilli), stopped.Format(time.StampMilli), up.Format(time.StampMilli),
					recovered.Format(time.StampMilli), r))
			}
		}
		GinkgoWriter.Printf("%d requests: %d answered 503 and %d served from the cache while the API server was down\n",
			len(records), len(unavailableDown), len(servedDown))
		Expect(unavailableDown).NotTo(BeEmpty(), "the outage was not noticed")
		Expect(servedDown).NotTo(BeEmpty(), "nothing was served from the cache during the outage")

		By("checking every create answered 201 exists")
		expectInvoicesExist(ws, created)

		By("checking the adapter and the manager still run, unrestarted")
		Expect(adapter.done).NotTo(Receive())
		Expect(manager.running()).To(BeTrue(), "the manager exited: %s", manager.tail())
		Expect(manager.pid()).To(Equal(managerPID))
		Eventually(func() (int, error) { return probeStatus(adapter.url + "/readyz") }).Should(Equal(http.StatusOK))

		By("checking the manager issues an invoice created after the outage")
		r := c.do(http.MethodPost, "/v1/invoices", call{token: tokens[callers[1]], workspace: ws,
			body: invoiceFor(customers[1], 4200)})
		Expect(r.status).To(Equal(http.StatusCreated), "%s", r)
		Eventually(func(g Gomega) {
			inv := &billingv1.Invoice{}
			g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ws, Name: r.id()}, inv)).To(Succeed())
			g.Expect(inv.Status.Phase).To(Equal(billingv1.InvoiceIssued))
		}).Should(Succeed())

		By("checking the adapter's cache follows the API server again: it lists an invoice made with the client library")
		made := builder.Invoice(ws, "made-after-outage", builder.WithCustomer(customers[2]), builder.WithItem("Work", 1, 1))
		Expect(k8s.Create(ctx, made)).To(Succeed())
		Eventually(func() string {
			return string(c.do(http.MethodGet, "/v1/invoices?limit=100&customer_id="+customers[2],
				call{token: tokens[callers[2]], workspace: ws}).body)
		}).Should(ContainSubstring(`"id":"made-after-outage"`))

		By("checking no goroutines piled up")
		c.http.CloseIdleConnections()
		Eventually(func() int {
			c.http.CloseIdleConnections()
			return runtime.NumGoroutine()
		}).Should(BeNumerically("<=", goroutinesBefore+goroutineSlack),
			"goroutines before the outage: %d", goroutinesBefore)
		GinkgoWriter.Printf("Goroutines before the outage %d, after %d\n", goroutinesBefore, settledGoroutines())
	})
})
