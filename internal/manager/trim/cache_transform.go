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

package trim

import (
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file is what the manager's cache keeps of the objects it watches.
//
// Every object loses metadata.managedFields, which no controller reads.
// An issued invoice (status.phase Issued, which it never leaves) also
// loses what no manager code reads of it, from the cache only; the API
// server keeps the whole object:
//
//   - metadata.annotations, for example kubectl's
//     last-applied-configuration, a second copy of the spec on every
//     invoice applied with kubectl. No manager code reads an invoice's
//     annotations.
//   - metadata.labels: the only label the project ever wrote
//     (billingv1.LabelCreatedBucket) is deprecated and read by nothing; no
//     manager cache or list selects invoices by label.
//   - status.ledger.creditedLines and status.ledger.creditedGroups, what
//     the credit notes took of each line and tax group. Only
//     billing.ToCredit reads them, for the credit note reconciler, which
//     reads its invoice straight from the API server (liveIssuedInvoice),
//     and for a pending credit note's body, which no event carries (a
//     credit note takes credit_note.issued when it is issued).
//
// Everything else of an issued invoice is read from the cache: the
// invoice reconciler copies its status, recomputes the conditions,
// balance and events and compares them (so they must be kept, or a
// reconcile would patch them back), the indexes and map functions read
// spec.customerRef, status.phase, status.sequence and status.events, the
// metrics the Ready condition and creationTimestamp, and webhook delivery
// renders the whole /v1 invoice (package delivery: the spec with its
// line descriptions, the amounts, number, dates, billTo, issuer, payment
// account and balance) from the cache. An invoice that is not issued yet
// is kept whole: the reconciler computes its amounts and taxes from it.
//
// What the reconciler does not recompute of an issued invoice it copies
// from the cached object to the one it patches, and the patch is a merge
// patch of the difference between the two: a field dropped from both is in
// neither, so it is never written, let alone removed. The guard is the
// envtest "A manager whose cache trims issued invoices" (its suite's
// manager uses CacheOptions), which fails if a reconcile needs a dropped
// field.

// CacheOptions are the manager's cache options: managedFields are dropped
// from every object, and issued invoices are trimmed as well
// (InvoiceCacheTransform).
func CacheOptions() cache.Options {
	return cache.Options{
		DefaultTransform: cache.TransformStripManagedFields(),
		// A transform by object replaces the default one, so the invoice's
		// strips managedFields too.
		ByObject: map[client.Object]cache.ByObject{
			&billingv1.Invoice{}:    {Transform: InvoiceCacheTransform()},
			&billingv1.LedgerSeal{}: {Transform: LedgerSealCacheTransform()},
		},
	}
}

// InvoiceCacheTransform is the cache transform of invoices: it strips
// managedFields from every object and trims issued invoices
// (trimIssuedInvoice). Objects of other kinds pass through with only their
// managedFields stripped.
func InvoiceCacheTransform() toolscache.TransformFunc { return stripping(trimIssuedInvoice) }

// LedgerSealCacheTransform is the cache transform of LedgerSeals: it strips
// managedFields and spec.payload, up to a MiB each, which the manager reads
// once per seal straight from the API server (sealing.SealedRecords
// decodes it into small maps) and again only when webhook delivery needs a
// sealed record. The cache keeps the rest: the sequence, the hashes, the
// counts and status.events.
func LedgerSealCacheTransform() toolscache.TransformFunc {
	return stripping(func(sl *billingv1.LedgerSeal) { sl.Spec.Payload = "" })
}

// stripping is a cache transform that strips managedFields from every
// object and then passes each of type O to trim.
func stripping[O any](trim func(O)) toolscache.TransformFunc {
	strip := cache.TransformStripManagedFields()
	return func(in any) (any, error) {
		out, err := strip(in)
		if err != nil {
			return nil, err
		}
		if o, ok := out.(O); ok {
			trim(o)
		}
		return out, nil
	}
}

// trimIssuedInvoice drops, in place, from an issued invoice the fields no
// manager code reads (see the top of this file); any other invoice is left
// whole.
func trimIssuedInvoice(inv *billingv1.Invoice) {
	if inv.Status.Phase != billingv1.InvoiceIssued {
		return
	}
	inv.Annotations = nil
	inv.Labels = nil
	if ledger := inv.Status.Ledger; ledger != nil {
		ledger.CreditedLines = nil
		ledger.CreditedGroups = nil
	}
}
