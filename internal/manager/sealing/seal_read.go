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

// wantedRecords returns the kinds and names of the records of families
// and of loose (records of no family).
func wantedRecords(families []billing.Family, loose []billingv1.Settled) map[SealedKey]types.UID {
	want := map[SealedKey]types.UID{}
	add := func(obj client.Object) { want[SealedKey{SealKindOf(obj), obj.GetName()}] = obj.GetUID() }
	for _, f := range families {
		add(f.Invoice)
		for _, m := range f.Members {
			add(m)
		}
	}
	for _, rec := range loose {
		add(rec)
	}
	return want
}

// readLive lists the workspace's records of the kinds a seal holds from
// the API server (not the cache), a page at a time, and keeps the records
// of families and loose.
func (r *SealReconciler) readLive(ctx context.Context, ns string, families []billing.Family,
	loose []billingv1.Settled) (liveRecords, error) {
	want := wantedRecords(families, loose)
	wanted := map[string]int{}
	for key := range want {
		wanted[key.Kind]++
	}
	live := liveRecords{}
	for _, k := range sealKinds {
		// A kind's pages stop once every record wanted of it is found:
		// the families chosen are the oldest, and the names the adapter
		// makes (billing.NewID, ULIDs) sort by time, so in a large
		// workspace they are in its first pages. Other names cost at
		// most the whole list, as before.
		found, next := 0, ""
		for found < wanted[k.Name] {
			list := k.NewList()
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
	inv, ok := live.current(f.Invoice, reserved)
	if !ok {
		return chosenFamily{}, false, nil
	}
	fam := billing.Family{Invoice: inv.(*billingv1.Invoice), Credit: f.Credit}
	for _, m := range f.Members {
		obj, ok := live.current(m, reserved)
		if !ok {
			return chosenFamily{}, false, nil
		}
		fam.Members = append(fam.Members, obj.(billingv1.Settled))
	}
	if !billing.Sealable(fam, through) {
		return chosenFamily{}, false, nil
	}
	sortRecords(fam.Members)
	c := chosenFamily{invoice: fam.Invoice, records: []client.Object{fam.Invoice}}
	for _, m := range fam.Members {
		c.records = append(c.records, m)
	}
	if err := c.encode(); err != nil {
		return chosenFamily{}, false, err
	}
	return c, true, nil
}

// liveLoose returns the records of no family of loose that are, read live,
// still what they were and still sealable, with their lines, as one
// chosenFamily without an invoice; ok is false when none is.
func liveLoose(loose []billingv1.Settled, live liveRecords, through time.Time, reserved map[string]bool) (
	chosenFamily, bool, error) {
	var c chosenFamily
	for _, rec := range loose {
		obj, ok := live.current(rec, reserved)
		// Whether the record an e-mail sent is sealed does not change
		// between the cache's look and this one: a seal, once made, stays.
		if ok && billing.LooseSealable(obj.(billingv1.Settled), through, true) {
			c.records = append(c.records, obj)
		}
	}
	if len(c.records) == 0 {
		return chosenFamily{}, false, nil
	}
	if err := c.encode(); err != nil {
		return chosenFamily{}, false, err
	}
	return c, true, nil
}

// current returns the live object of obj's kind and name, unless it is
// gone, has another uid, is being deleted or is still named in a
// numbering journal (reserved).
func (live liveRecords) current(obj client.Object, reserved map[string]bool) (client.Object, bool) {
	got := live[SealedKey{SealKindOf(obj), obj.GetName()}]
	if got == nil || got.GetUID() != obj.GetUID() || !got.GetDeletionTimestamp().IsZero() || reserved[string(got.GetUID())] {
		return nil, false
	}
	return got, true
}

// encode sets c's lines and size from its records.
func (c *chosenFamily) encode() error {
	for _, obj := range c.records {
		line, err := seal.Line(obj)
		if err != nil {
			return err
		}
		c.lines = append(c.lines, line)
		c.size += len(line) + 1
	}
	return nil
}
