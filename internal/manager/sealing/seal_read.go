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
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// This file reads the records of the families chosen for a seal as the
// API server stores them: a few paged lists of the workspace's invoices,
// credit notes and payments (one page a request, until the families'
// records are found), keeping only the records of those families,
// instead of one GET per record.

// liveReadPage is how many records one list request of the live read
// asks for.
const liveReadPage = 500

// liveRecords is the live read of a workspace's records: the chosen
// families' records by kind and name, as the API server stores them.
type liveRecords map[SealedKey]client.Object

// familiesPerRead is how many candidate families one live read covers for
// a seal of target encoded bytes: enough for a seal whose families
// compress to 64 bytes each (a family of an invoice and its payment takes
// about 140), so a seal is rarely cut short by the read; the next seal
// reads on.
func familiesPerRead(target int) int {
	return max(target/64, 1)
}

// wantedRecords returns the kinds and names of families' records.
func wantedRecords(families []billing.Family) map[SealedKey]types.UID {
	want := map[SealedKey]types.UID{}
	for _, f := range families {
		want[SealedKey{seal.KindInvoice, f.Invoice.Name}] = f.Invoice.UID
		for _, n := range f.CreditNotes {
			want[SealedKey{seal.KindCreditNote, n.Name}] = n.UID
		}
		for _, p := range f.Payments {
			want[SealedKey{seal.KindPayment, p.Name}] = p.UID
		}
	}
	return want
}

// readLive lists the workspace's invoices, credit notes and payments from
// the API server (not the cache), a page at a time, and keeps the records
// that families hold.
func (r *SealReconciler) readLive(ctx context.Context, ns string, families []billing.Family) (liveRecords, error) {
	want := wantedRecords(families)
	wanted := map[string]int{}
	for key := range want {
		wanted[key.Kind]++
	}
	live := liveRecords{}
	lists := []struct {
		kind    string
		newList func() client.ObjectList
	}{
		{seal.KindInvoice, func() client.ObjectList { return &billingv1.InvoiceList{} }},
		{seal.KindCreditNote, func() client.ObjectList { return &billingv1.CreditNoteList{} }},
		{seal.KindPayment, func() client.ObjectList { return &billingv1.PaymentList{} }},
	}
	for _, l := range lists {
		// A kind's pages stop once every record wanted of it is found:
		// the families chosen are the oldest, and the names the adapter
		// makes (billing.NewID, ULIDs) sort by time, so in a large
		// workspace they are in its first pages. Other names cost at
		// most the whole list, as before.
		found, next := 0, ""
		for found < wanted[l.kind] {
			list := l.newList()
			if err := r.APIReader.List(ctx, list, client.InNamespace(ns), client.Limit(liveReadPage),
				client.Continue(next)); err != nil {
				return nil, fmt.Errorf("listing the records of %s to seal them: %w", ns, err)
			}
			for _, obj := range listItems(list) {
				key := SealedKey{SealKindOf(obj), obj.GetName()}
				if _, ok := want[key]; ok {
					live[key] = obj
					found++
				}
			}
			if next = list.GetContinue(); next == "" {
				break
			}
		}
	}
	return live, nil
}

// listItems returns the items of a list of invoices, credit notes or
// payments as objects.
func listItems(list client.ObjectList) []client.Object {
	var out []client.Object
	_ = meta.EachListItem(list, func(item runtime.Object) error {
		if obj, ok := item.(client.Object); ok {
			out = append(out, obj)
		}
		return nil
	})
	return out
}

// liveFamily returns f's records from live (the live read) with their
// lines; ok is false when the family, read live, is not sealable (a record
// is gone, has another uid, is being deleted or is still named in a
// numbering journal, reserved; or the family is not sealable any more): it
// waits for a later run.
func liveFamily(f billing.Family, live liveRecords, through time.Time, reserved map[string]bool) (chosenFamily, bool, error) {
	current := func(kind, name string, uid types.UID) (client.Object, bool) {
		obj := live[SealedKey{kind, name}]
		if obj == nil || obj.GetUID() != uid || !obj.GetDeletionTimestamp().IsZero() || reserved[string(uid)] {
			return nil, false
		}
		return obj, true
	}
	inv, ok := current(seal.KindInvoice, f.Invoice.Name, f.Invoice.UID)
	if !ok {
		return chosenFamily{}, false, nil
	}
	fam := billing.Family{Invoice: inv.(*billingv1.Invoice), Credit: f.Credit}
	for _, n := range f.CreditNotes {
		obj, ok := current(seal.KindCreditNote, n.Name, n.UID)
		if !ok {
			return chosenFamily{}, false, nil
		}
		fam.CreditNotes = append(fam.CreditNotes, obj.(*billingv1.CreditNote))
	}
	for _, p := range f.Payments {
		obj, ok := current(seal.KindPayment, p.Name, p.UID)
		if !ok {
			return chosenFamily{}, false, nil
		}
		fam.Payments = append(fam.Payments, obj.(*billingv1.Payment))
	}
	if !billing.Sealable(fam, through) {
		return chosenFamily{}, false, nil
	}
	slices.SortFunc(fam.CreditNotes, func(a, b *billingv1.CreditNote) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(fam.Payments, func(a, b *billingv1.Payment) int { return strings.Compare(a.Name, b.Name) })
	c := chosenFamily{invoice: fam.Invoice, records: []client.Object{fam.Invoice}}
	for _, n := range fam.CreditNotes {
		c.records = append(c.records, n)
	}
	for _, p := range fam.Payments {
		c.records = append(c.records, p)
	}
	for _, obj := range c.records {
		line, err := seal.Line(obj)
		if err != nil {
			return chosenFamily{}, false, err
		}
		c.lines = append(c.lines, line)
		c.size += len(line) + 1
	}
	return c, true, nil
}
