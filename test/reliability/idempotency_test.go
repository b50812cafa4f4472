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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
	"github.com/invoicing-dev/invoicing/internal/test/netutil"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// retryingClient creates invoices as a careful client does: every create
// carries an Idempotency-Key, and every failure that may hide a create (a
// transport error, a timeout, 503, 409 idempotency_key_in_use) is retried
// with the same key and body until it answers 201.
type retryingClient struct {
	c        *client
	ws       string
	deadline time.Time
	inFlight atomic.Int32

	mu sync.Mutex
	// ids is the id each key's 201 named; the counts are of the attempts
	// and of how those that failed ended.
	ids                           map[string]string
	transportErrors, unavailable  int
	inUse, attempts, interruptedN int
	replayed                      int
	interruptedAt                 time.Time
}

func (rc *retryingClient) create(key string, body v1client.InvoiceParams, token string) {
	for {
		rc.inFlight.Add(1)
		r := rc.c.do(http.MethodPost, "/v1/invoices", call{token: token, workspace: rc.ws, key: key, body: body})
		rc.inFlight.Add(-1)
		rc.mu.Lock()
		rc.attempts++
		pause := 200 * time.Millisecond
		switch {
		case r.err != nil:
			rc.transportErrors++
			if !rc.interruptedAt.IsZero() && r.start.Before(rc.interruptedAt) && r.start.Add(r.took).After(rc.interruptedAt) {
				rc.interruptedN++
			}
		case r.status == http.StatusCreated:
			rc.ids[key] = r.id()
			if r.header.Get(httpapi.IdempotentReplayedHeader) == "true" {
				rc.replayed++
			}
			rc.mu.Unlock()
			return
		case r.isUnavailable():
			rc.unavailable++
			pause = time.Duration(r.response().RetryAfter()) * time.Second
		case r.status == http.StatusConflict && r.apiError().Code == httpapi.CodeIdempotencyInUse:
			rc.inUse++
		default:
			rc.mu.Unlock()
			Fail("an answer a retry cannot fix: " + r.String())
		}
		rc.mu.Unlock()
		Expect(time.Now().Before(rc.deadline)).To(BeTrue(), "key %s still has no 201: %s", key, r)
		time.Sleep(pause)
	}
}

var _ = Describe("A client that retries creates with an Idempotency-Key", func() {
	It("ends with exactly one invoice per key across an adapter killed mid-request and an API server crash", func() {
		ws := newWorkspace("idem")
		addr := netutil.MustFreeAddr(GinkgoT())
		// A claim whose request died (here: with the adapter) before it
		// created the object is released after staleAfter; it must exceed
		// the request timeout.
		const requestTimeout, staleAfter = 3 * time.Second, 8 * time.Second
		args := []string{
			"--request-timeout", requestTimeout.String(), "--rate-limit=-1",
			"--idempotency-in-flight-wait", "1s", "--idempotency-stale-claim-after", staleAfter.String(),
		}
		adapter := startAdapterProcess(addr, args...)
		DeferCleanup(func() { adapter.stop() })
		const workers = 8
		c := newClient("http://"+addr, workers, 10*time.Second)
		customers := createCustomers(c, ws, 3)

		rc := &retryingClient{c: c, ws: ws, ids: map[string]string{}, deadline: time.Now().Add(2 * time.Minute)}
		keys := make(chan int)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for k := range keys {
					rc.create(fmt.Sprintf("order-%04d", k), invoiceFor(customers[k%len(customers)], int64(1000+k)),
						tokens[callers[w%len(callers)]])
				}
			}()
		}
		stopKeys := make(chan struct{})
		var sent atomic.Int32
		go func() {
			defer GinkgoRecover()
			defer close(keys)
			for k := range 1000 {
				select {
				case <-stopKeys:
					return
				case keys <- k:
					sent.Add(1)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()

		By("killing the adapter with SIGKILL while requests are in flight, and starting it again")
		time.Sleep(time.Second)
		// One create is surely cut: its body is half sent when the adapter
		// dies, after the adapter has authenticated and authorized it.
		slowBody, err := json.Marshal(invoiceFor(customers[0], 999))
		Expect(err).NotTo(HaveOccurred())
		slow, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = slow.Close() }()
		_, err = fmt.Fprintf(slow, "POST /v1/invoices HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
			"%s: %s\r\n%s: order-slow\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			addr, tokens[callers[0]], httpapi.WorkspaceHeader, ws, httpapi.IdempotencyKeyHeader, len(slowBody),
			slowBody[:len(slowBody)/2])
		Expect(err).NotTo(HaveOccurred())
		time.Sleep(300 * time.Millisecond)
		Eventually(rc.inFlight.Load).WithPolling(time.Millisecond).Should(BeNumerically(">=", 2))
		rc.mu.Lock()
		rc.interruptedAt = time.Now()
		rc.mu.Unlock()
		adapter.kill()
		Expect(slow.SetReadDeadline(time.Now().Add(5 * time.Second))).To(Succeed())
		answer, err := io.ReadAll(slow)
		Expect(answer).To(BeEmpty(), "the half-sent create was answered")
		Expect(err == nil || !errors.Is(err, os.ErrDeadlineExceeded)).To(BeTrue(), "the killed adapter kept the connection")
		time.Sleep(300 * time.Millisecond)
		adapter = startAdapterProcess(addr, args...)
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			rc.create("order-slow", invoiceFor(customers[0], 999), tokens[callers[0]])
		}()

		By("crashing the API server and starting it again")
		time.Sleep(time.Second)
		crashAPIServer()
		time.Sleep(2 * time.Second)
		startAPIServer()
		time.Sleep(time.Second)
		close(stopKeys)
		wg.Wait()

		rc.mu.Lock()
		defer rc.mu.Unlock()
		GinkgoWriter.Printf("%d keys, %d attempts: %d transport errors (%d requests cut by the kill), %d 503, "+
			"%d 409 in use; %d keys answered by a replay\n", len(rc.ids), rc.attempts, rc.transportErrors,
			rc.interruptedN, rc.unavailable, rc.inUse, rc.replayed)
		Expect(rc.ids).To(HaveLen(int(sent.Load()) + 1))
		Expect(rc.unavailable).To(BeNumerically(">", 0), "the API server crash was not noticed")

		By("checking there is exactly one invoice per key, the one its 201 named")
		byID := map[string]string{}
		for key, id := range rc.ids {
			Expect(byID).NotTo(HaveKey(id), "keys %s and %s were answered the same invoice", byID[id], key)
			byID[id] = key
		}
		var invoices billingv1.InvoiceList
		Expect(k8s.List(ctx, &invoices, crclient.InNamespace(ws))).To(Succeed())
		var names []string
		for _, inv := range invoices.Items {
			names = append(names, inv.Name)
		}
		Expect(names).To(ConsistOf(keysOf(byID)), "invoices that no 201 named, or 201s that name no invoice")
		var claims billingv1.IdempotencyKeyList
		Expect(k8s.List(ctx, &claims, crclient.InNamespace(ws))).To(Succeed())
		Expect(claims.Items).To(HaveLen(len(rc.ids)))
		for _, claim := range claims.Items {
			Expect(byID).To(HaveKey(claim.Spec.ObjectName))
		}

		By("checking a retry of every key now replays its invoice")
		for key, id := range rc.ids {
			body := invoiceFor(customers[0], 999)
			if key != "order-slow" {
				k := 0
				_, _ = fmt.Sscanf(key, "order-%04d", &k)
				body = invoiceFor(customers[k%len(customers)], int64(1000+k))
			}
			r := c.do(http.MethodPost, "/v1/invoices", call{token: tokens[callers[0]], workspace: ws, key: key, body: body})
			Expect(r.status).To(Equal(http.StatusCreated), "%s", r)
			Expect(r.id()).To(Equal(id))
			Expect(r.header.Get(httpapi.IdempotentReplayedHeader)).To(Equal("true"))
		}
	})
})

func keysOf(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
