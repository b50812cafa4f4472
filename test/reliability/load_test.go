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
	"runtime"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
)

// load runs workers that each call op in a loop until halted. Every load is
// bounded: by maxCalls per worker, and by the spec that halts it.
type load struct {
	stop chan struct{}
	wg   sync.WaitGroup
}

func startLoad(workers, maxCalls int, pause time.Duration, op func(worker, i int)) *load {
	l := &load{stop: make(chan struct{})}
	for w := range workers {
		l.wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer l.wg.Done()
			for i := range maxCalls {
				select {
				case <-l.stop:
					return
				default:
				}
				op(w, i)
				select {
				case <-l.stop:
					return
				case <-time.After(pause):
				}
			}
		}()
	}
	return l
}

// halt stops the workers and waits for their last calls.
func (l *load) halt() {
	close(l.stop)
	l.wg.Wait()
}

// record is what a spec keeps of a result: no body, so that long runs stay
// small.
type record struct {
	method, path string
	start        time.Time
	took         time.Duration
	err          string
	status       int
	unavailable  bool
	code         string
	created      string // the id a 201 returned
}

func (r record) end() time.Time { return r.start.Add(r.took) }

type recorder struct {
	mu      sync.Mutex
	records []record
}

func (rc *recorder) add(r result) {
	rec := record{method: r.method, path: r.path, start: r.start, took: r.took, status: r.status,
		unavailable: r.isUnavailable(), code: r.apiError().Code}
	if r.err != nil {
		rec.err = r.err.Error()
	}
	if r.err == nil && r.status == 201 {
		rec.created = r.id()
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.records = append(rc.records, rec)
}

func (rc *recorder) all() []record {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]record(nil), rc.records...)
}

// settledGoroutines returns the goroutine count once it has stopped
// falling: the least of a few samples a moment apart.
func settledGoroutines() int {
	least := runtime.NumGoroutine()
	for range 10 {
		time.Sleep(100 * time.Millisecond)
		least = min(least, runtime.NumGoroutine())
	}
	return least
}
