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
	"encoding/json"
	"fmt"
	"hash/fnv"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// This file is the sealing protocol's steps (docs/ledger.md, and the
// contract in SealReconciler): choose whole sealable families, write the
// seal, read it back from the API server and verify it, then label and
// delete each original, then record ledger.sealed; and, first on every
// run, finish what a crash interrupted.

// chosenFamily is a family chosen for a seal, read live: its records in
// the seal's order (the invoice, its credit notes by name, its payments by
// name) and their lines.
type chosenFamily struct {
	invoice *billingv1.Invoice
	records []client.Object
	lines   [][]byte
	size    int
}

// sealNext makes the workspace's next seal from its sealable families,
// if it has any; made says it did. deferred says a family the cache
// called sealable was not, read live (or is still named in a journal):
// the workspace is looked at again shortly.
func (r *SealReconciler) sealNext(ctx context.Context, ns string, through time.Time, tails *moveTails) (
	made, deferred bool, err error) {
	seals, broken, err := r.Sealed.Chain(ctx, ns)
	if err != nil {
		return false, false, err
	}
	if broken != nil {
		return false, false, fmt.Errorf("%w: %w", errSealBroken, broken)
	}
	candidates, loose, err := r.sealableFamilies(ctx, ns, through)
	if err != nil || len(candidates) == 0 {
		// Records of no family wait for a seal with an invoice: a seal
		// names its first and last invoice.
		return false, false, err
	}
	// The journals are trimmed first: an entry whose sequence its record
	// carries is done with, and goes while the record is still live.
	for _, j := range r.Journals {
		if err := j.Trim(ctx, ns); err != nil {
			return false, false, fmt.Errorf("trimming a numbering journal of %s: %w", ns, err)
		}
	}
	reserved, err := r.reservedUIDs(ctx, ns)
	if err != nil {
		return false, false, err
	}
	target := r.payloadBytes()
	// One live read covers the first candidates, enough for this seal:
	// a few paged lists, not a GET per record.
	candidates = candidates[:min(len(candidates), familiesPerRead(target))]
	started := time.Now()
	live, err := r.readLive(ctx, ns, candidates, loose)
	if err != nil {
		return false, false, err
	}
	logf.FromContext(ctx).Info("Read the records to seal", "namespace", ns, "families", len(candidates),
		"records", len(live), "seconds", time.Since(started).Seconds())
	chosen, lines, deferred, err := chooseFamilies(candidates, live, through, reserved, target)
	if err != nil {
		return false, false, err
	}
	// The records of no family go last, and are the first left for the
	// next seal when this one would be too large.
	if c, ok, err := liveLoose(loose, live, through, reserved); err != nil {
		return false, false, err
	} else if ok && len(chosen) > 0 {
		chosen, lines = append(chosen, c), append(lines, c.lines...)
	}
	for len(chosen) > 0 {
		enc, err := seal.Encode(lines)
		if err != nil {
			return false, false, err
		}
		if len(enc.Payload) <= seal.MaxEncodedBytes {
			return true, false, r.move(ctx, ns, seals, chosen, enc, through, tails)
		}
		last := chosen[len(chosen)-1]
		if len(chosen) == 1 {
			logf.FromContext(ctx).Error(nil, "An invoice's family is too large for any seal; it stays live",
				"invoice", last.invoice.Name)
			return false, false, nil
		}
		if last.invoice == nil {
			deferred = true // the records of no family wait for the next seal
		}
		chosen, lines = chosen[:len(chosen)-1], lines[:len(lines)-len(last.lines)]
	}
	return false, deferred, nil
}

// chooseFamilies returns the first of candidates that are still sealable
// as read live (liveFamily), in order, until their encoded payload
// reaches about target bytes, with their lines; deferred says one that the
// cache called sealable was not.
func chooseFamilies(candidates []billing.Family, live liveRecords, through time.Time, reserved map[string]bool,
	target int) (chosen []chosenFamily, lines [][]byte, deferred bool, err error) {
	raw, check := 0, target
	for _, f := range candidates {
		c, ok, err := liveFamily(f, live, through, reserved)
		if err != nil {
			return nil, nil, false, err
		}
		if !ok {
			deferred = true
			continue
		}
		chosen, lines, raw = append(chosen, c), append(lines, c.lines...), raw+c.size
		if raw < check {
			continue
		}
		// JSON lines compress several times over; the encoded size is
		// checked only once the raw size could reach the target, then
		// again where the ratio so far says it would.
		enc, err := seal.Encode(lines)
		if err != nil {
			return nil, nil, false, err
		}
		if n := len(enc.Payload); n >= target*9/10 {
			break
		} else {
			check = raw + (target-n)*raw/max(n, 1)
		}
	}
	return chosen, lines, deferred, nil
}

// invoiceMembers are the kinds of record that name an invoice
// (spec.invoiceRef.name, index.RecordInvoice) and go into a seal with it.
var invoiceMembers = []*recordkind.Kind{&recordkind.CreditNote, &recordkind.Payment,
	&recordkind.CreditApplication, &recordkind.WriteOff}

// sealableFamilies returns the workspace's sealable families from the
// cache, in invoice-number order (status.sequence): their invoices and
// the records that name them (credit notes, payments, credit
// applications, write-offs, e-mails); and its sealable records of no
// family (refunds, late and statement e-mails: billing.LooseSealable). A
// record whose name a seal holds already is no part of either (a leftover
// being moved, or a re-creation that is Invalid, AlreadySealed).
func (r *SealReconciler) sealableFamilies(ctx context.Context, ns string, through time.Time) (
	[]billing.Family, []billingv1.Settled, error) {
	invoices := &billingv1.InvoiceList{}
	if err := r.List(ctx, invoices, client.InNamespace(ns), client.UnsafeDisableDeepCopy); err != nil {
		return nil, nil, fmt.Errorf("listing the invoices of %s: %w", ns, err)
	}
	var families []billing.Family
	var loose []billingv1.Settled
	err := r.Sealed.holders(ctx, ns, func(held func(kind, name string) sealedRecord) error {
		sealed := func(obj client.Object) bool { return held(SealKindOf(obj), obj.GetName()).seal != "" }
		// members adds to f the records of kinds that the index field
		// of kinds names by value, but those sealed already, and but
		// those that are not final when finalOnly.
		members := func(f *billing.Family, kinds []*recordkind.Kind, field, value string, finalOnly bool) error {
			for _, k := range kinds {
				list := k.NewList()
				if err := r.List(ctx, list, client.InNamespace(ns), client.UnsafeDisableDeepCopy,
					client.MatchingFields{field: value}); err != nil {
					return fmt.Errorf("listing the %ss of %s %s/%s: %w", k.Name, field, ns, value, err)
				}
				for _, obj := range listItems(list) {
					if rec, ok := obj.(billingv1.Settled); ok && !sealed(obj) && (!finalOnly || rec.Settled()) {
						f.Members = append(f.Members, rec)
					}
				}
			}
			return nil
		}
		emails := []*recordkind.Kind{&recordkind.Email}
		for i := range invoices.Items {
			inv := &invoices.Items[i]
			if !billing.InvoiceSealable(inv, through) || sealed(inv) {
				continue
			}
			f := billing.Family{Invoice: inv, Credit: r.creditOf(ctx, inv)}
			if err := members(&f, invoiceMembers, index.RecordInvoice, inv.Name, false); err != nil {
				return err
			}
			// An e-mail never holds its invoice back: one whose delivery
			// has ended goes with it, one still being tried goes later,
			// once it has ended (looseRecords).
			if err := members(&f, emails, index.EmailRecord,
				index.EmailRecordKey(recordkind.Invoice.Name, inv.Name), true); err != nil {
				return err
			}
			for _, m := range slices.Clone(f.Members) {
				if SealKindOf(m) != recordkind.CreditNote.Name {
					continue
				}
				if err := members(&f, emails, index.EmailRecord,
					index.EmailRecordKey(recordkind.CreditNote.Name, m.GetName()), true); err != nil {
					return err
				}
			}
			if billing.Sealable(f, through) {
				families = append(families, f)
			}
		}
		var err error
		loose, err = r.looseRecords(ctx, ns, through, held)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(families, func(a, b billing.Family) int {
		return int(*a.Invoice.Status.Sequence - *b.Invoice.Status.Sequence)
	})
	return families, loose, nil
}

// looseKinds are the kinds of record that may belong to no family:
// refunds (a customer's), and e-mails of a statement or of a record sealed
// before they were final.
var looseKinds = []*recordkind.Kind{&recordkind.Refund, &recordkind.Email}

// maxLoosePerSeal bounds how many records of no family one seal takes: the
// rest go into the next.
const maxLoosePerSeal = 2000

// looseRecords returns the workspace's sealable records of no family, from
// the cache, by kind then name; held looks a record up in the seals.
func (r *SealReconciler) looseRecords(ctx context.Context, ns string, through time.Time,
	held func(kind, name string) sealedRecord) ([]billingv1.Settled, error) {
	var loose []billingv1.Settled
	for _, k := range looseKinds {
		list := k.NewList()
		if err := r.List(ctx, list, client.InNamespace(ns), client.UnsafeDisableDeepCopy); err != nil {
			return nil, fmt.Errorf("listing the %ss of %s: %w", k.Name, ns, err)
		}
		for _, obj := range listItems(list) {
			rec, ok := obj.(billingv1.Settled)
			if !ok || held(k.Name, obj.GetName()).seal != "" {
				continue
			}
			if billing.LooseSealable(rec, through, sentRecordSealed(rec, held)) {
				loose = append(loose, rec)
			}
		}
	}
	sortRecords(loose)
	return loose[:min(len(loose), maxLoosePerSeal)], nil
}

// sentRecordSealed says whether rec is an e-mail whose invoice or credit
// note a seal holds.
func sentRecordSealed(rec billingv1.Settled, held func(kind, name string) sealedRecord) bool {
	em, ok := rec.(*billingv1.Email)
	switch {
	case !ok:
		return false
	case em.Spec.InvoiceRef != nil:
		return held(recordkind.Invoice.Name, em.Spec.InvoiceRef.Name).seal != ""
	case em.Spec.CreditNoteRef != nil:
		return held(recordkind.CreditNote.Name, em.Spec.CreditNoteRef.Name).seal != ""
	}
	return false
}

// reservedUIDs returns the uids that a journal of the workspace's
// numbering (invoice numbers, credit note numbers, events) still names. A
// record is sealed only once no journal names it: the allocator frees an
// entry whose object is gone, so deleting the original of an entry not yet
// trimmed could hand its sequence out again.
func (r *SealReconciler) reservedUIDs(ctx context.Context, ns string) (map[string]bool, error) {
	reserved := map[string]bool{}
	for _, name := range []string{billingv1.InvoiceSequenceName, billingv1.CreditNoteSequenceName, billingv1.EventSequenceName} {
		seq := &billingv1.InvoiceSequence{}
		if err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, seq); err != nil {
			if apierrors.IsNotFound(err) {
				continue
			}
			return nil, fmt.Errorf("reading the sequence %s/%s: %w", ns, name, err)
		}
		for _, e := range seq.Spec.Reserved {
			if e.UID != "" {
				reserved[e.UID] = true
			}
		}
	}
	return reserved, nil
}

// creditOf returns the credit ledger of inv's customer, from the cache
// (nil when it has none). A source once entered stays, so a cached ledger
// that holds an invoice's credit is still true.
func (r *SealReconciler) creditOf(ctx context.Context, inv *billingv1.Invoice) *billingv1.CustomerCredit {
	if inv.Status.Balance == nil || inv.Status.Balance.AmountOverpaid == 0 {
		return nil
	}
	customer := &billingv1.Customer{}
	if err := r.Get(ctx, types.NamespacedName{Namespace: inv.Namespace, Name: inv.Spec.CustomerRef.Name}, customer); err != nil {
		return nil // not sealable until it can be read
	}
	return customer.Status.Credit
}

// sealObject returns the seal with sequence n after the seal whose hash
// is previous, holding chosen (encoded as enc), of a workspace closed
// through through.
func sealObject(ns string, n int64, previous string, chosen []chosenFamily, enc seal.Encoded,
	through time.Time) *billingv1.LedgerSeal {
	link := seal.Link{Namespace: ns, Sequence: n, Previous: previous, ClosedThrough: through}
	for _, c := range chosen {
		if c.invoice != nil {
			if link.First == "" {
				link.First = c.invoice.Status.Number
			}
			link.Last = c.invoice.Status.Number
		}
		for _, obj := range c.records {
			seal.Count(&link.Counts, obj)
		}
	}
	return seal.New(link, enc)
}

// move runs the protocol for chosen: create the seal after seals (the
// workspace's verified chain), read it back from the API server and
// verify it, then label each original; then, in the background while the
// next seal is made (tails), delete the originals and record
// ledger.sealed.
func (r *SealReconciler) move(ctx context.Context, ns string, seals []sealInfo, chosen []chosenFamily,
	enc seal.Encoded, through time.Time, tails *moveTails) error {
	n, previous := int64(len(seals))+1, billingv1.ZeroHash
	if len(seals) > 0 {
		previous = seals[len(seals)-1].hash
	}
	sl := sealObject(ns, n, previous, chosen, enc, through)
	if err := r.Writer.Create(ctx, sl); err != nil {
		if apierrors.IsAlreadyExists(err) {
			// Another run made it, and the cache has not brought it yet:
			// retry once it has; its records are then that seal's to
			// finish (finishMoves), not this run's to seal.
			return fmt.Errorf("seal %s/%s exists already; sealing again once the cache has it", ns, sl.Name)
		}
		return fmt.Errorf("creating seal %s/%s: %w", ns, sl.Name, err)
	}
	got := &billingv1.LedgerSeal{}
	if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(sl), got); err != nil {
		return fmt.Errorf("reading seal %s/%s back: %w", ns, sl.Name, err)
	}
	raw, err := seal.Verify(got, previous)
	if err == nil {
		err = holdsExactly(raw, chosen)
	}
	if err != nil {
		// Never expected: the API server gave back another seal than was
		// written. Nothing more of the workspace is sealed or deleted.
		broken := fmt.Errorf("%w: seal %s/%s read back: %w", errSealBroken, ns, sl.Name, err)
		if stopErr := r.Sealed.stop(ctx, ns, broken); stopErr != nil {
			return stopErr
		}
		return broken
	}
	if err := r.Sealed.add(ctx, got); err != nil {
		return fmt.Errorf("%w: %w", errSealBroken, err)
	}
	c := got.Spec.Counts
	logf.FromContext(ctx).Info("Sealed records", "namespace", ns, "seal", got.Name,
		"invoices", c.Invoices, "creditNotes", c.CreditNotes, "payments", c.Payments,
		"creditApplications", c.CreditApplications, "writeOffs", c.WriteOffs, "refunds", c.Refunds, "emails", c.Emails)
	var records []client.Object
	for _, c := range chosen {
		records = append(records, c.records...)
	}
	if err := r.labelSealed(ctx, got.Name, records); err != nil {
		return err
	}
	var after int64
	for _, obj := range records {
		_, _, events := billing.RecordedEvents(obj)
		for _, e := range events {
			after = max(after, e.Sequence)
		}
	}
	kinds := sealedKinds(records)
	return tails.start(func() error { return r.deleteSealed(ctx, ns, got.Name, len(records), kinds) },
		func() error { return r.recordSealed(ctx, ns, got.Name, after) })
}

// holdsExactly checks that a seal's verified payload raw holds exactly the
// chosen records, in order, by kind, name and uid.
func holdsExactly(raw []byte, chosen []chosenFamily) error {
	records, err := seal.Records(raw)
	if err != nil {
		return err
	}
	i := 0
	for _, c := range chosen {
		for _, want := range c.records {
			if i >= len(records) {
				return fmt.Errorf("it holds %d records, fewer than were sealed", len(records))
			}
			got := records[i].Object
			if records[i].Kind != SealKindOf(want) || got.GetName() != want.GetName() || got.GetUID() != want.GetUID() {
				return fmt.Errorf("record %d is %s %s (%s), not %s %s (%s)", i+1, records[i].Kind, got.GetName(),
					got.GetUID(), SealKindOf(want), want.GetName(), want.GetUID())
			}
			i++
		}
	}
	if i != len(records) {
		return fmt.Errorf("it holds %d records, more than the %d sealed", len(records), i)
	}
	return nil
}

// moveOut labels each of records (originals that the verified seal named
// sealName holds; labelSealed), then deletes them all (deleteSealed).
func (r *SealReconciler) moveOut(ctx context.Context, sealName string, records []client.Object) error {
	if len(records) == 0 {
		return nil
	}
	if err := r.labelSealed(ctx, sealName, records); err != nil {
		return err
	}
	return r.deleteSealed(ctx, records[0].GetNamespace(), sealName, len(records), sealedKinds(records))
}

// labelSealed labels each of records (originals that the verified seal
// named sealName holds) billing.invoicing.dev/sealed-in: sealName, and
// billing.invoicing.dev/sealed-part with its part (sealedPart). The
// label's patch carries the record's uid (immutable, so another object
// of that name refuses it), and only the manager may set the label (the
// sealed-in-label policy), so the label selects exactly the originals the
// seal holds: it stands where a UID precondition on each delete stood.
// One gone already is done.
func (r *SealReconciler) labelSealed(ctx context.Context, sealName string, records []client.Object) error {
	// Every original is labelled before any is deleted; the labels go
	// moveWorkers at once, in any order: each record is written on its
	// own.
	label := func(ctx context.Context, obj client.Object) error {
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
			"uid": obj.GetUID(), "labels": map[string]string{billingv1.LabelSealedIn: sealName,
				billingv1.LabelSealedPart: sealedPart(obj.GetName())}}})
		if err != nil {
			return err
		}
		err = r.Writer.Patch(ctx, emptyRecord(obj), client.RawPatch(types.MergePatchType, patch))
		if apierrors.IsNotFound(err) || apierrors.IsInvalid(err) || apierrors.IsConflict(err) {
			return nil // gone, or another object has its name now
		}
		if err != nil {
			return fmt.Errorf("labelling %s %s sealed in %s: %w", SealKindOf(obj), obj.GetName(), sealName, err)
		}
		return nil
	}
	// An original that carries both labels already (read from the cache
	// by finishMoves) is not written again: the label is only ever set by
	// this step. Were it taken off since, the cache shows that soon, the
	// delete's selector misses the original, and the next run finds it
	// still held and labels it. One labelled before the part label was
	// (by an earlier version) gets it now.
	var unlabelled []client.Object
	for _, obj := range records {
		l := obj.GetLabels()
		if l[billingv1.LabelSealedIn] != sealName || l[billingv1.LabelSealedPart] != sealedPart(obj.GetName()) {
			unlabelled = append(unlabelled, obj)
		}
	}
	if len(unlabelled) == 0 {
		return nil
	}
	started := time.Now()
	if err := eachRecord(ctx, unlabelled, label); err != nil {
		return err
	}
	logf.FromContext(ctx).Info("Labelled the sealed originals", "namespace", unlabelled[0].GetNamespace(),
		"seal", sealName, "records", len(unlabelled), "seconds", time.Since(started).Seconds())
	return nil
}

// deleteSealed deletes the originals (records of them, of kinds) of the
// seal named sealName of ns: DeleteCollections selecting by the label
// billing.invoicing.dev/sealed-in=sealName (set only by labelSealed,
// after the seal was verified), deletePage items each, until a list of
// the label finds none. The API server deletes a collection's items one
// by one, each through admission (the retention policies admit a
// labelled record) and each waiting for etcd, so the kinds and each
// kind's parts (billing.invoicing.dev/sealed-part, deleteParts) go at
// once; then a last pass of each kind selects the seal's label alone,
// for an original whose part label is missing (its list of one finds
// none, nearly always, and it deletes nothing). A page keeps each request
// well inside the API server's request timeout. Only metadata is asked
// for.
func (r *SealReconciler) deleteSealed(ctx context.Context, ns, sealName string, records int, kinds []string) error {
	started := time.Now()
	for _, parts := range [][]string{partNames, {""}} {
		g, gctx := errgroup.WithContext(ctx)
		for _, kind := range kinds {
			for _, part := range parts {
				g.Go(func() error { return r.deleteSealedKind(gctx, ns, sealName, kind, part, records) })
			}
		}
		if err := g.Wait(); err != nil {
			return err
		}
	}
	logf.FromContext(ctx).Info("Deleted the sealed originals", "namespace", ns, "seal", sealName,
		"records", records, "seconds", time.Since(started).Seconds())
	return nil
}

// deleteParts is how many parts a seal's originals of one kind are
// deleted in at once: with a seal's two or three kinds, one seal deleting
// alone fills about the 10 seats of the sealing priority level
// (config/apf). While the deletes of tailsAtOnce seals overlap, the
// requests beyond the seats wait in that level's queues (a flow per
// workspace), which take nothing from issuing; one that waits too long
// is answered 429, which client-go retries.
const deleteParts = 4

// partNames are the values of billing.invoicing.dev/sealed-part.
var partNames = func() []string {
	names := make([]string, deleteParts)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	return names
}()

// sealedPart is the part (billing.invoicing.dev/sealed-part) of the
// original named name: a hash of the name, so that a seal's originals
// spread evenly over the parts.
func sealedPart(name string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return partNames[h.Sum32()%deleteParts]
}

// deletePage is how many originals one DeleteCollection deletes: a page
// takes the API server seconds (its items go one by one), well inside its
// request timeout even while issuing runs, and frees its seat of the
// sealing priority level for the next request in between.
const deletePage = 200

// deleteLimit is a DeleteAllOf option: the API server deletes at most
// that many items, one page of its list (client.Limit is for lists only).
type deleteLimit int64

// ApplyToDeleteAllOf sets the page size of a DeleteCollection.
func (l deleteLimit) ApplyToDeleteAllOf(o *client.DeleteAllOfOptions) {
	o.Limit = int64(l)
}

// deleteSealedKind deletes the originals of kind (at most records of
// them) that carry the label of the seal named sealName of ns and, unless
// it is "", the part label part, a page at a time. The last pass (part
// "") looks before it deletes: the parts have nearly always taken every
// original by then.
func (r *SealReconciler) deleteSealedKind(ctx context.Context, ns, sealName, kind, part string, records int) error {
	selector := client.MatchingLabels{billingv1.LabelSealedIn: sealName}
	if part != "" {
		selector[billingv1.LabelSealedPart] = part
	} else if left, err := r.anySealed(ctx, ns, sealName, kind, selector); err != nil || !left {
		return err
	}
	for range records/deletePage + 2 {
		obj := &metav1.PartialObjectMetadata{}
		obj.SetGroupVersionKind(billingv1.GroupVersion.WithKind(kind))
		err := r.Writer.DeleteAllOf(ctx, obj, client.InNamespace(ns), selector, deleteLimit(deletePage))
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting the %ss of %s sealed in %s: %w", kind, ns, sealName, err)
		}
		if left, err := r.anySealed(ctx, ns, sealName, kind, selector); err != nil || !left {
			return err
		}
	}
	return fmt.Errorf("%ss of %s sealed in %s are left after deleting %d", kind, ns, sealName, records)
}

// anySealed reports whether an original of kind that selector selects is
// left in ns, from a live list of one.
func (r *SealReconciler) anySealed(ctx context.Context, ns, sealName, kind string, selector client.MatchingLabels) (bool, error) {
	left := &metav1.PartialObjectMetadataList{}
	left.SetGroupVersionKind(billingv1.GroupVersion.WithKind(kind + "List"))
	if err := r.APIReader.List(ctx, left, client.InNamespace(ns), selector, client.Limit(1)); err != nil {
		return false, fmt.Errorf("listing the %ss of %s sealed in %s: %w", kind, ns, sealName, err)
	}
	return len(left.Items) > 0, nil
}

// sealKinds are the rows of internal/recordkind that a seal holds, in the
// table's order.
var sealKinds = recordkind.Where(func(k *recordkind.Kind) bool { return k.Sealed != nil })

// sealOrder is a kind's place in sealKinds.
func sealOrder(obj client.Object) int {
	return slices.IndexFunc(sealKinds, func(k *recordkind.Kind) bool { return k.Name == SealKindOf(obj) })
}

// sortRecords sorts records into a seal's order: by kind (sealKinds), then
// by name.
func sortRecords[T client.Object](records []T) {
	slices.SortFunc(records, func(a, b T) int {
		if c := sealOrder(a) - sealOrder(b); c != 0 {
			return c
		}
		return strings.Compare(a.GetName(), b.GetName())
	})
}

// sealedKinds returns the kinds (Invoice, CreditNote, Payment, ...) that
// records hold, in sealKinds' order.
func sealedKinds(records []client.Object) []string {
	var kinds []string
	for _, k := range sealKinds {
		if slices.ContainsFunc(records, func(obj client.Object) bool { return SealKindOf(obj) == k.Name }) {
			kinds = append(kinds, k.Name)
		}
	}
	return kinds
}

// moveWorkers is how many label patches of a move run at once.
const moveWorkers = 32

// eachRecord runs write on every record, moveWorkers at once, and returns
// the first error (the others stop at their next record).
func eachRecord(ctx context.Context, records []client.Object, write func(context.Context, client.Object) error) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(moveWorkers)
	for _, obj := range records {
		g.Go(func() error { return write(ctx, obj) })
	}
	return g.Wait()
}

// emptyRecord returns an empty object of obj's kind with obj's namespace
// and name, for a write that must not touch obj (which may be the
// cache's).
func emptyRecord(obj client.Object) client.Object {
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(client.Object)
	out.SetNamespace(obj.GetNamespace())
	out.SetName(obj.GetName())
	return out
}

// recordSealed records the ledger.sealed event on the seal named name
// (read live), after the event sequence after (the highest of its
// records'), unless it carries it already.
func (r *SealReconciler) recordSealed(ctx context.Context, ns, name string, after int64) error {
	sl := &billingv1.LedgerSeal{}
	if err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sl); err != nil {
		return fmt.Errorf("reading seal %s/%s: %w", ns, name, err)
	}
	if billingv1.FindEvent(sl.Status.Events, billingv1.EventTypeLedgerSealed) != nil {
		return nil
	}
	before := sl.DeepCopy()
	var err error
	if sl.Status.Events, err = reconciler.RecordFact(ctx, r.Events, sl, billingv1.EventTypeLedgerSealed, after,
		sl.Status.Events); err != nil {
		return err
	}
	changed, err := reconciler.PatchStatus(ctx, r.Writer, before, sl, client.MergeFromWithOptimisticLock{})
	if changed {
		reconciler.ObserveEvents(before.Status.Events, sl.Status.Events)
	}
	return err
}

// finishMoves finishes what an interrupted run left of the workspace's
// verified seals: a live record that a seal holds with the same uid is
// labelled and deleted (a record of that name with another uid is a
// re-creation, which the record's own reconciler makes Invalid,
// AlreadySealed); then a seal without its ledger.sealed event gets it, in
// sequence order.
func (r *SealReconciler) finishMoves(ctx context.Context, ns string, seals []sealInfo) error {
	if len(seals) == 0 {
		return nil
	}
	lists := make([]client.ObjectList, 0, len(sealKinds))
	for _, k := range sealKinds {
		lists = append(lists, k.NewList())
	}
	leftovers := map[string][]client.Object{}
	for _, list := range lists {
		if err := r.List(ctx, list, client.InNamespace(ns), client.UnsafeDisableDeepCopy); err != nil {
			return fmt.Errorf("listing the records of %s: %w", ns, err)
		}
	}
	err := r.Sealed.holders(ctx, ns, func(held func(kind, name string) sealedRecord) error {
		for _, list := range lists {
			err := meta.EachListItem(list, func(item runtime.Object) error {
				if obj, ok := item.(client.Object); ok {
					if h := held(SealKindOf(obj), obj.GetName()); h.seal != "" && h.uid == obj.GetUID() {
						leftovers[h.seal] = append(leftovers[h.seal], obj)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, info := range seals {
		if records := leftovers[info.Name]; len(records) > 0 {
			logf.FromContext(ctx).Info("Finishing an interrupted move into a seal", "namespace", ns,
				"seal", info.Name, "records", len(records))
			if err := r.moveOut(ctx, info.Name, records); err != nil {
				return err
			}
		}
	}
	cached := &billingv1.LedgerSealList{}
	if err := r.List(ctx, cached, client.InNamespace(ns), client.UnsafeDisableDeepCopy); err != nil {
		return fmt.Errorf("listing the seals of %s: %w", ns, err)
	}
	recorded := map[string]bool{}
	for i := range cached.Items {
		if billingv1.FindEvent(cached.Items[i].Status.Events, billingv1.EventTypeLedgerSealed) != nil {
			recorded[cached.Items[i].Name] = true
		}
	}
	for _, info := range seals {
		if !recorded[info.Name] {
			if err := r.recordSealed(ctx, ns, info.Name, info.maxEvent); err != nil {
				return err
			}
		}
	}
	return nil
}
