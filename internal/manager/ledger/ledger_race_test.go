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

package ledger

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// countingNumbers hands out 1, 2, 3... and is safe for concurrent use.
type countingNumbers struct{ next atomic.Int64 }

func (c *countingNumbers) Assign(context.Context, string, string, types.UID) (numbering.Assignment, error) {
	return numbering.Assignment{Sequence: c.next.Add(1), IssuedAt: managertest.Now}, nil
}

// Eight reconciles of eight credit notes for two thirds of a line, run at
// once as a controller with eight workers runs them: the optimistic lock on
// the invoice lets exactly one in, and the seven others are rejected
// without a number.
func TestEightConcurrentReconcilesOfCreditNotesForTwoThirdsOfALineIssueExactlyOne(t *testing.T) {
	g := NewWithT(t)
	inv := creditableInvoice(nil)
	inv.Namespace = "ns"
	inv.Status.Events = []billingv1.RecordedEvent{managertest.IssuedEvent(1)}
	objs := []client.Object{inv}
	for i := range 8 {
		note := builder.CreditNote("ns", fmt.Sprintf("cn-%d", i), "inv-1", builder.WithCreditedQuantity(0, 2))
		note.UID = types.UID(fmt.Sprintf("uid-%d", i))
		objs = append(objs, note)
	}
	c := ledgerClient(objs...)
	numbers := &countingNumbers{}
	r := &CreditNoteReconciler{Parts: ledgerParts(c, managertest.Now, &managertest.CountingEvents{Next: 2}), Numbers: numbers}

	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range 8 {
		wg.Go(func() { _, errs[i] = r.Reconcile(context.Background(), managertest.Request(fmt.Sprintf("cn-%d", i))) })
	}
	wg.Wait()
	for _, err := range errs {
		g.Expect(err).NotTo(HaveOccurred())
	}
	phases := map[billingv1.CreditNotePhase]int{}
	for i := range 8 {
		note := &billingv1.CreditNote{}
		g.Expect(c.Get(context.Background(), managertest.Request(fmt.Sprintf("cn-%d", i)).NamespacedName, note)).To(Succeed())
		phases[note.Status.Phase]++
		if note.Status.Phase == billingv1.CreditNoteIssued {
			g.Expect(note.Status.Number).To(Equal("CN-000001"))
		}
	}
	g.Expect(phases).To(Equal(map[billingv1.CreditNotePhase]int{
		billingv1.CreditNoteIssued: 1, billingv1.CreditNoteRejected: 7}))
	after := &billingv1.Invoice{}
	g.Expect(c.Get(context.Background(), managertest.Request("inv-1").NamespacedName, after)).To(Succeed())
	g.Expect(after.Status.Ledger.CreditNotes).To(HaveLen(1))
	g.Expect(after.Status.Ledger.CreditedLines[0]).To(Equal(billingv1.CreditedLine{Quantity: billingv1.Units(2), Net: 20_000}))
	g.Expect(numbers.next.Load()).To(Equal(int64(1)))
}
