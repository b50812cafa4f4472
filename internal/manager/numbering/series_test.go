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
	"testing"

	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// withSequence names the allocator's series.
func withSequence(name string) allocatorOption { return func(o *Options) { o.Sequence = name } }

// Two series of one workspace (invoices and credit notes) are kept in two
// InvoiceSequence objects and are each gapless from 1, whatever the other
// hands out.
func TestTwoSeriesOfOneWorkspaceAreNumberedIndependently(t *testing.T) {
	ns := newWorkspace(t)
	invoices := newAllocator(t)
	credits := newAllocator(t, withSequence(billingv1.CreditNoteSequenceName))
	for i := range 3 {
		for _, a := range []*Allocator{invoices, credits} {
			got := assign(t, a, createInvoice(t, ns, fmt.Sprintf("%s-%d", a.opts.Sequence, i)))
			if got.Sequence != int64(i+1) {
				t.Fatalf("object %d of series %s got %d, want %d", i, a.opts.Sequence, got.Sequence, i+1)
			}
		}
	}
	for _, name := range []string{billingv1.InvoiceSequenceName, billingv1.CreditNoteSequenceName} {
		seq := &billingv1.InvoiceSequence{}
		if err := k8s.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, seq); err != nil {
			t.Fatalf("reading sequence %s: %v", name, err)
		}
		if seq.Spec.Next != 4 {
			t.Fatalf("sequence %s has next %d, want 4", name, seq.Spec.Next)
		}
	}
}
