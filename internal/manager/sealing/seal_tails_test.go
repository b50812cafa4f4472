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

package sealing

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	. "github.com/onsi/gomega"
)

func TestTheTailsOfMovesRecordInSealOrderAndAFailureStopsTheRecordsAfterIt(t *testing.T) {
	failed := errors.New("deleting failed")
	for _, tc := range []struct {
		name     string
		deletes  []error // what each tail's delete returns, in the order started
		recorded int     // how many tails recorded their event
		wantErr  error
	}{
		{"no tail is no error", nil, 0, nil},
		{"every tail records, in order", []error{nil, nil, nil, nil, nil}, 5, nil},
		{"a failed delete stops the records after it", []error{nil, failed, nil}, 1, failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			tails := &moveTails{}
			var mu sync.Mutex
			var order []int
			var startErr error
			for i, result := range tc.deletes {
				if startErr = tails.start(func() error { return result }, func() error {
					mu.Lock()
					defer mu.Unlock()
					order = append(order, i)
					return nil
				}); startErr != nil {
					break
				}
			}
			if err := errors.Join(startErr, tails.wait()); tc.wantErr == nil {
				g.Expect(err).NotTo(HaveOccurred())
			} else {
				g.Expect(err).To(MatchError(tc.wantErr))
			}
			g.Expect(order).To(HaveLen(tc.recorded))
			for i, got := range order {
				g.Expect(got).To(Equal(i))
			}
		})
	}
}

func TestTheTailsOfMovesDeleteSeveralSealsAtOnceAndNoMore(t *testing.T) {
	g := NewWithT(t)
	tails := &moveTails{}
	var running, most atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{}, 2*tailsAtOnce)
	go func() { // one reconcile starts its tails one after another
		for range 2 * tailsAtOnce {
			_ = tails.start(func() error {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				<-release
				running.Add(-1)
				return nil
			}, func() error { return nil })
			started <- struct{}{}
		}
	}()
	// tailsAtOnce start at once; the others wait in start for a slot.
	for range tailsAtOnce {
		<-started
	}
	g.Eventually(running.Load).Should(BeEquivalentTo(tailsAtOnce))
	g.Consistently(started).ShouldNot(Receive())
	close(release)
	for range tailsAtOnce {
		<-started
	}
	g.Expect(tails.wait()).To(Succeed())
	g.Expect(most.Load()).To(BeEquivalentTo(tailsAtOnce))
}
