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

package controller

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// Folding a customer's credit ledger
// (docs/ledger.md#the-credit-ledger-across-seals): once a seal holds the
// record behind a source or a use, the customer reconciler moves the entry
// into status.credit.carried (billing.FoldCredit), in the one status
// patch, with the optimistic lock, in which it enters sources.
//
// The rule, safe against entering a folded source again: an entry is
// folded only when a seal holds its record with the entry's uid AND the
// sealer has let the original go, as the cache shows it: gone, made again
// under its name with another uid, or, for a credit application or
// refund, labelled billingv1.LabelSealedIn (the sealer labels an original
// only once its seal is verified, then deletes it). An invoice's labels
// are not in the manager's cache (trim.InvoiceCacheTransform drops them
// from issued invoices), so a source waits for its invoice's deletion,
// which follows the label at once. And a source is never entered for an
// invoice that a seal holds with its uid (creditWithSources): a seal holds
// an overpaid invoice only once the ledger holds its whole amountOverpaid
// (billing.Sealable), so nothing is lost; and the index of seals learns a
// seal before the sealer labels a single original (and, after a restart,
// from a cache synced before any reconcile), and forgets it only with the
// namespace, so it answers for every labelled invoice as the label would,
// and an invoice still in the cache after its source was folded is never
// entered twice.

// sealHoldings is what the customer reconciler asks of the seals; a
// *sealing.SealedRecords (SealedRecords.Holding).
type sealHoldings interface {
	Holding(ctx context.Context, ns string, fn func(held func(kind, name string) (sequence int64, uid types.UID))) error
}

// creditRecord is the record behind an entry of a customer's credit: its
// kind (recordkind's name), name and uid.
type creditRecord struct {
	kind, name string
	uid        types.UID
}

// sourceRecord is the record behind a source, an invoice.
func sourceRecord(name string, uid types.UID) creditRecord {
	return creditRecord{kind: recordkind.Invoice.Name, name: name, uid: uid}
}

// sealedCredit is what the seals hold of a customer's credit ledger and
// of its live invoices: each such record with the sequence of its seal.
// The zero value holds nothing.
type sealedCredit map[creditRecord]int64

// invoice reports whether a seal holds inv (its name and uid): no source
// is entered for it. Every invoice labelled sealed is one (the label is
// set only after its seal is in the index), so the label, which the
// manager's cache does not keep of an issued invoice, need not be read.
func (s sealedCredit) invoice(inv *billingv1.Invoice) bool {
	_, ok := s[sourceRecord(inv.Name, inv.UID)]
	return ok
}

// sealedCreditOf looks up, in one pass over the index of seals, the
// records behind credit's entries and invoices (the customer's, from the
// cache) that a seal holds with the same uid. seals nil holds none.
func sealedCreditOf(ctx context.Context, seals sealHoldings, ns string, credit *billingv1.CustomerCredit,
	invoices []billingv1.Invoice) (sealedCredit, error) {
	out := sealedCredit{}
	if seals == nil {
		return out, nil
	}
	var records []creditRecord
	if credit != nil {
		for _, s := range credit.Sources {
			records = append(records, sourceRecord(s.Invoice, types.UID(s.UID)))
		}
		for _, u := range credit.Uses {
			records = append(records, creditRecord{kind: string(u.Kind), name: u.Name, uid: types.UID(u.UID)})
		}
	}
	for i := range invoices {
		if b := invoices[i].Status.Balance; b != nil && b.AmountOverpaid > 0 {
			records = append(records, sourceRecord(invoices[i].Name, invoices[i].UID))
		}
	}
	if len(records) == 0 {
		return out, nil
	}
	err := seals.Holding(ctx, ns, func(held func(kind, name string) (int64, types.UID)) {
		for _, r := range records {
			if seq, uid := held(r.kind, r.name); seq > 0 && uid == r.uid {
				out[r] = seq
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("looking the customer's credit up in the seals: %w", err)
	}
	return out, nil
}

// foldSealed returns credit with every entry whose record sealed holds and
// the cache (c) no longer shows as a live original folded into carried,
// and whether anything was folded (billing.FoldCredit). invoices are the
// customer's invoices from the cache; a use's record is read from c.
func foldSealed(ctx context.Context, c client.Reader, ns string, credit *billingv1.CustomerCredit,
	sealed sealedCredit, invoices []billingv1.Invoice) (*billingv1.CustomerCredit, bool, error) {
	if credit == nil || len(sealed) == 0 {
		return credit, false, nil
	}
	foldable := map[creditRecord]int64{}
	for r, seq := range sealed {
		live, err := liveOriginal(ctx, c, ns, r, invoices)
		if err != nil {
			return nil, false, err
		}
		if !live {
			foldable[r] = seq
		}
	}
	folded, changed := billing.FoldCredit(credit, func(kind, name, uid string) (int64, bool) {
		seq, ok := foldable[creditRecord{kind: kind, name: name, uid: types.UID(uid)}]
		return seq, ok
	})
	return folded, changed, nil
}

// liveOriginal reports whether the cache still shows r as a live original
// not yet let go by the sealer: of its kind and name, with its uid, and,
// for a credit application or refund, without the label
// billingv1.LabelSealedIn. An invoice is looked for in invoices (the
// customer's: an invoice's customer never changes); the cache keeps no
// labels of an issued invoice, so one is live until it is deleted. A
// credit application or refund is read from c.
func liveOriginal(ctx context.Context, c client.Reader, ns string, r creditRecord,
	invoices []billingv1.Invoice) (bool, error) {
	var obj client.Object
	switch r.kind {
	case recordkind.Invoice.Name:
		for i := range invoices {
			if invoices[i].Name == r.name {
				return invoices[i].UID == r.uid, nil
			}
		}
		return false, nil
	case string(billingv1.CreditUseApplication), string(billingv1.CreditUseRefund):
		if r.kind == string(billingv1.CreditUseApplication) {
			obj = &billingv1.CreditApplication{}
		} else {
			obj = &billingv1.Refund{}
		}
		if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: r.name}, obj); err != nil {
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return false, fmt.Errorf("reading %s %s: %w", r.kind, r.name, err)
		}
	default:
		return true, nil // a kind no entry names: never folded
	}
	return obj.GetUID() == r.uid && obj.GetLabels()[billingv1.LabelSealedIn] == "", nil
}

// sealedOrGone is the predicate of the customer reconciler's watches of
// credit applications and refunds: one deleted, or labelled
// billingv1.LabelSealedIn, may let the customer fold its use.
var sealedOrGone = predicate.Funcs{
	CreateFunc:  func(event.CreateEvent) bool { return false },
	UpdateFunc:  func(e event.UpdateEvent) bool { return gainedSealedLabel(e.ObjectOld, e.ObjectNew) },
	DeleteFunc:  func(event.DeleteEvent) bool { return true },
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// gainedSealedLabel reports whether an object gained the label
// billingv1.LabelSealedIn from before to after.
func gainedSealedLabel(before, after client.Object) bool {
	return before.GetLabels()[billingv1.LabelSealedIn] == "" && after.GetLabels()[billingv1.LabelSealedIn] != ""
}

// customerOfUse maps a credit application or refund to the customer whose
// credit it used (none for an application never applied).
func customerOfUse(_ context.Context, obj client.Object) []reconcile.Request {
	rec, ok := obj.(billingv1.LedgerRecord)
	if !ok || rec.CustomerName() == "" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: obj.GetNamespace(), Name: rec.CustomerName()}}}
}

// sealMade passes only the creation of a LedgerSeal (each seal, once, at a
// manager's start too).
var sealMade = predicate.Funcs{
	CreateFunc:  func(event.CreateEvent) bool { return true },
	UpdateFunc:  func(event.UpdateEvent) bool { return false },
	DeleteFunc:  func(event.DeleteEvent) bool { return false },
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// customersHeldBySeal maps a new LedgerSeal to the customers of its
// namespace (read through c, the cache) whose credit ledger lists an entry
// whose record it holds: once the sealer has let the original go, the
// entry is folded. The originals' deletions (and the labels of credit
// applications and refunds) wake them too (customerOfInvoice,
// customerOfUse); this wakes them whichever the cache shows first.
func customersHeldBySeal(c client.Reader, seals sealHoldings) func(context.Context, client.Object) []reconcile.Request {
	return func(ctx context.Context, obj client.Object) []reconcile.Request {
		sl, ok := obj.(*billingv1.LedgerSeal)
		if !ok || seals == nil {
			return nil
		}
		customers := &billingv1.CustomerList{}
		if err := c.List(ctx, customers, client.InNamespace(sl.Namespace), client.UnsafeDisableDeepCopy); err != nil {
			logf.FromContext(ctx).Error(err, "Listing the customers of a new seal", "namespace", sl.Namespace)
			return nil
		}
		var withEntries []*billingv1.Customer
		for i := range customers.Items {
			if cr := customers.Items[i].Status.Credit; cr != nil && len(cr.Sources)+len(cr.Uses) > 0 {
				withEntries = append(withEntries, &customers.Items[i])
			}
		}
		if len(withEntries) == 0 {
			return nil
		}
		var requests []reconcile.Request
		err := seals.Holding(ctx, sl.Namespace, func(held func(kind, name string) (int64, types.UID)) {
			holds := func(r creditRecord) bool {
				seq, uid := held(r.kind, r.name)
				return seq == sl.Spec.Sequence && uid == r.uid
			}
			for _, customer := range withEntries {
				if creditHeldBy(customer.Status.Credit, holds) {
					requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(customer)})
				}
			}
		})
		if err != nil {
			logf.FromContext(ctx).Error(err, "Looking the customers' credit up in a new seal", "namespace", sl.Namespace, "seal", sl.Name)
			return nil
		}
		return requests
	}
}

// creditHeldBy reports whether holds says a record behind one of credit's
// entries is held.
func creditHeldBy(credit *billingv1.CustomerCredit, holds func(creditRecord) bool) bool {
	for _, s := range credit.Sources {
		if holds(sourceRecord(s.Invoice, types.UID(s.UID))) {
			return true
		}
	}
	for _, u := range credit.Uses {
		if holds(creditRecord{kind: string(u.Kind), name: u.Name, uid: types.UID(u.UID)}) {
			return true
		}
	}
	return false
}
