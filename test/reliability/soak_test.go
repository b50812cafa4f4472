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
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime"
	"sort"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
)

// Soak parameters. The heap is measured after a forced GC; the run adds a
// few hundred invoices to the adapter's cache (a few KiB each) and the live
// heap of the test process, about 6 MiB, still varies by up to 2 MiB
// between samples with what the HTTP servers, clients and the cache hold at
// that moment. So the least of the last three samples may exceed the least
// of the first three by soakHeapSlack (4 MiB), no more: a leak of 400 bytes
// per request would exceed it, as the measured part of the run makes about
// 10,000 requests.
const (
	soakWarmUp        = 5 * time.Second
	soakMeasure       = 20 * time.Second
	soakSample        = 2 * time.Second
	soakHeapSlack     = 4 << 20
	soakWorkers       = 6
	soakCreatesPerSec = 15 // at most, over all workers
	// soakSettle bounds the wait for the heap to settle after the
	// warm-up (settleHeap), soakSettleStep is what counts as settled.
	soakSettle     = 30 * time.Second
	soakSettleStep = 1 << 20
)

// settleHeap waits, up to soakSettle, until the heap after a forced GC
// moves by less than soakSettleStep between two samples soakSample apart.
// The adapter the soak starts takes in every object the suite's earlier
// stories left in the cluster, and on a busy machine it may still be doing
// so after the warm-up: that growth is its cache filling, not a leak, and
// would otherwise fall into the measured part of the run.
func settleHeap() {
	last := heapAfterGC()
	for start := time.Now(); time.Since(start) < soakSettle; {
		time.Sleep(soakSample)
		now := heapAfterGC()
		if max(now, last)-min(now, last) < soakSettleStep {
			return
		}
		GinkgoWriter.Printf("heap still moving after the warm-up: %.1f to %.1f MiB\n",
			float64(last)/(1<<20), float64(now)/(1<<20))
		last = now
	}
}

// heapAfterGC is the live heap of the test process after a forced GC.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// tally sums up a long run without keeping its responses.
type tally struct {
	mu       sync.Mutex
	requests int
	byStatus map[int]int
	failures []string
	created  map[string][]string // ids by workspace
	invoices map[string][]string // invoice ids by workspace
	pages    int
}

func (t *tally) add(r result) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.requests++
	ok := r.err == nil && (r.status == http.StatusOK || r.status == http.StatusCreated)
	if r.err == nil {
		t.byStatus[r.status]++
	}
	if !ok && len(t.failures) < 20 {
		t.failures = append(t.failures, r.String())
	}
	return ok
}

func (t *tally) known(ws string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.invoices[ws]
}

type page struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

var _ = Describe("A soak of mixed traffic", func() {
	It("answers every request without a 5xx, with goroutines and heap flat after the warm-up", func() {
		adapter := startInProcessAdapter(httpapi.Options{RateLimit: -1})
		c := newClient(adapter.url, soakWorkers, 15*time.Second)
		var workspaces []string
		customers := map[string][]string{}
		for range 3 {
			ws := newWorkspace("soak")
			workspaces = append(workspaces, ws)
			customers[ws] = createCustomers(c, ws, 3)
		}
		t := &tally{byStatus: map[int]int{}, created: map[string][]string{}, invoices: map[string][]string{}}
		creates := time.NewTicker(time.Second / soakCreatesPerSec)
		defer creates.Stop()

		op := func(w, i int) {
			// Each worker is one of three callers in one of three
			// workspaces; each caller works in two workspaces.
			ws := workspaces[(w+w/len(callers))%len(workspaces)]
			who := call{token: tokens[callers[w%len(callers)]], workspace: ws}
			select {
			case <-creates.C:
				who.key = fmt.Sprintf("soak-%d-%d", w, i)
				who.body = invoiceFor(customers[ws][i%len(customers[ws])], int64(i+1))
				r := c.do(http.MethodPost, "/v1/invoices", who)
				if t.add(r) {
					t.mu.Lock()
					t.created[ws] = append(t.created[ws], r.id())
					t.invoices[ws] = append(t.invoices[ws], r.id())
					t.mu.Unlock()
				}
				return
			default:
			}
			switch i % 4 {
			case 0, 1:
				known := t.known(ws)
				if len(known) == 0 {
					return
				}
				t.add(c.do(http.MethodGet, "/v1/invoices/"+known[rand.IntN(len(known))], who))
			case 2:
				t.add(c.do(http.MethodGet, "/v1/customers/"+customers[ws][i%len(customers[ws])], who))
			case 3:
				walk(c, t, who)
			}
		}

		By("warming up")
		l := startLoad(soakWorkers, 100000, 5*time.Millisecond, op)
		time.Sleep(soakWarmUp)
		settleHeap()

		By("measuring goroutines and heap while the load runs")
		type sample struct {
			goroutines int
			heap       uint64
			requests   int
		}
		var samples []sample
		measure := func() {
			heap := heapAfterGC()
			t.mu.Lock()
			n := t.requests
			t.mu.Unlock()
			samples = append(samples, sample{goroutines: runtime.NumGoroutine(), heap: heap, requests: n})
		}
		for start := time.Now(); time.Since(start) <= soakMeasure; time.Sleep(soakSample) {
			measure()
		}
		l.halt()

		for _, s := range samples {
			GinkgoWriter.Printf("after %5d requests: %4d goroutines, heap %6.1f MiB\n",
				s.requests, s.goroutines, float64(s.heap)/(1<<20))
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		createdCount := 0
		for _, ids := range t.created {
			createdCount += len(ids)
		}
		GinkgoWriter.Printf("%d requests in %s (%d page walks, %d invoices created), by status: %v\n",
			t.requests, soakWarmUp+soakMeasure, t.pages, createdCount, t.byStatus)

		By("checking every request was answered 200 or 201")
		Expect(t.failures).To(BeEmpty())

		By("checking every create answered 201 exists")
		for ws, ids := range t.created {
			expectInvoicesExist(ws, ids)
		}

		By("checking goroutines and heap stayed flat")
		Expect(len(samples)).To(BeNumerically(">=", 6))
		least := func(s []sample) uint64 {
			m := s[0].heap
			for _, x := range s {
				m = min(m, x.heap)
			}
			return m
		}
		var most int
		for _, s := range samples {
			most = max(most, s.goroutines)
		}
		Expect(most).To(BeNumerically("<=", samples[0].goroutines+goroutineSlack), "goroutines grew under steady load")
		Expect(least(samples[len(samples)-3:])).To(BeNumerically("<=", least(samples[:3])+soakHeapSlack),
			"the heap grew under steady load")
	})
})

// walk pages through a workspace's invoices 10 at a time, and checks the
// pages come in id order, each invoice once.
func walk(c *client, t *tally, who call) {
	seen := map[string]bool{}
	last := ""
	path := "/v1/invoices?limit=10"
	for range 50 {
		r := c.do(http.MethodGet, path, who)
		if !t.add(r) {
			return
		}
		var p page
		Expect(json.Unmarshal(r.body, &p)).To(Succeed())
		ids := make([]string, len(p.Data))
		for i, d := range p.Data {
			ids[i] = d.ID
			Expect(seen).NotTo(HaveKey(d.ID), "a page walk returned %s twice", d.ID)
			seen[d.ID] = true
		}
		Expect(sort.StringsAreSorted(ids)).To(BeTrue())
		if len(ids) > 0 {
			Expect(ids[0] > last).To(BeTrue(), "a page starts before the previous one ended")
			last = ids[len(ids)-1]
		}
		if !p.HasMore {
			t.mu.Lock()
			t.pages++
			t.mu.Unlock()
			return
		}
		path = "/v1/invoices?limit=10&cursor=" + url.QueryEscape(*p.NextCursor)
	}
	Fail("a page walk did not end in 50 pages")
}
