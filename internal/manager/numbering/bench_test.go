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

package numbering

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/invoicing-dev/invoicing/internal/test/naivenumbering"
)

// BenchmarkAssign compares the batched allocator with a naive one that takes
// one API round trip per number, both against the real API server, with 64
// callers per CPU in one workspace. It measures allocation alone: a
// number is "written" by remembering it (memoryInvoices), where the
// controller patches the invoice's status. Each sub-benchmark also checks
// that it handed out exactly 1..N.
func BenchmarkAssign(b *testing.B) {
	b.Run("batched", func(b *testing.B) {
		ns := newWorkspace(b)
		written := &memoryInvoices{}
		a, err := New(Options{Client: k8s, APIReader: k8s, Cached: written, Live: written})
		if err != nil {
			b.Fatal(err)
		}
		benchmarkNumbers(b, func(ctx context.Context, i int64) (int64, error) {
			name := fmt.Sprintf("inv-%d", i)
			uid := types.UID(name)
			got, err := a.Assign(ctx, ns, name, uid)
			if err == nil {
				written.write(types.NamespacedName{Namespace: ns, Name: name}, uid, got.Sequence)
			}
			return got.Sequence, err
		})
	})
	b.Run("naive one number per round trip", func(b *testing.B) {
		naive := &naivenumbering.Counter{Client: k8s, Key: types.NamespacedName{Namespace: newWorkspace(b), Name: "naive"}}
		benchmarkNumbers(b, func(ctx context.Context, _ int64) (int64, error) { return naive.Next(ctx) })
	})
}

// benchmarkNumbers runs next from many goroutines b.N times in all, reports
// numbers per second, and fails unless the numbers are exactly 1..b.N.
func benchmarkNumbers(b *testing.B, next func(ctx context.Context, i int64) (int64, error)) {
	b.Helper()
	var calls atomic.Int64
	seen := make([]atomic.Bool, b.N+1)
	var failure sync.Once
	b.SetParallelism(64)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			seq, err := next(context.Background(), calls.Add(1))
			if err == nil && (seq < 1 || seq > int64(b.N) || seen[seq].Swap(true)) {
				err = fmt.Errorf("sequence %d is out of 1..%d or handed out twice", seq, b.N)
			}
			if err != nil {
				failure.Do(func() { b.Error(err) })
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "numbers/s")
}
