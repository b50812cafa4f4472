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

// Package index declares the controller manager's cache field indexes;
// controller.Setup registers them with the manager. (The HTTP adapter keeps
// its own ordered name index, in internal/store.)
package index

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// InvoiceCustomer indexes Invoices by spec.customerRef.name. The key is the
// same as the CRD's selectable field, so cached and API-server lookups read
// alike: client.MatchingFields{index.InvoiceCustomer: "acme"}.
const InvoiceCustomer = "spec.customerRef.name"

// invoiceCustomer extracts the InvoiceCustomer index value.
var invoiceCustomer = oneValue(func(inv *billingv1.Invoice) string { return inv.Spec.CustomerRef.Name })

// oneValue extracts value's one index value of an object of type O: none
// of another type, or when value is "".
func oneValue[O any](value func(O) string) client.IndexerFunc {
	return func(obj client.Object) []string {
		o, ok := obj.(O)
		if !ok || value(o) == "" {
			return nil
		}
		return []string{value(o)}
	}
}

// InvoiceSequenceBlock indexes issued Invoices by the block of
// SequenceBlockSize sequences their status.sequence falls in (SequenceBlock),
// so webhook delivery finds the invoice with a workspace's next sequence in
// the cache by listing its block and picking the sequence:
// client.MatchingFields{index.InvoiceSequenceBlock: index.SequenceBlock(42)}.
// A block, not the sequence itself, because client-go's indexer keeps a set
// per value: with a value per invoice that set cost the manager about 400
// bytes per cached invoice, with a block of 16 it costs about 40.
const InvoiceSequenceBlock = "status.sequence/16"

// SequenceBlockSize is how many consecutive sequences share one
// InvoiceSequenceBlock value: 1 to 16 are block 0, 17 to 32 block 1.
const SequenceBlockSize = 16

// SequenceBlock is the InvoiceSequenceBlock value of sequence (1 or more).
func SequenceBlock(sequence int64) string {
	return strconv.FormatInt((sequence-1)/SequenceBlockSize, 10)
}

// invoiceSequenceBlock extracts the InvoiceSequenceBlock index value.
func invoiceSequenceBlock(obj client.Object) []string {
	inv, ok := obj.(*billingv1.Invoice)
	if !ok || inv.Status.Sequence == nil || *inv.Status.Sequence < 1 {
		return nil
	}
	return []string{SequenceBlock(*inv.Status.Sequence)}
}

// EventSequenceBlock indexes Invoices, CreditNotes and Payments by the
// blocks of SequenceBlockSize event sequences their status.events fall in
// (SequenceBlock of each event's sequence), so webhook delivery finds the
// object that carries a workspace's next event in the cache by listing the
// block of each of the three kinds:
// client.MatchingFields{index.EventSequenceBlock: index.SequenceBlock(42)}.
// Blocks, for the reason given at InvoiceSequenceBlock.
const EventSequenceBlock = "status.events.sequence/16"

// eventSequenceBlocks extracts the EventSequenceBlock values: one per block
// that holds one of the object's events.
func eventSequenceBlocks(obj client.Object) []string {
	_, _, events := billing.RecordedEvents(obj)
	var blocks []string
	for _, e := range events {
		if e.Sequence < 1 {
			continue
		}
		if b := SequenceBlock(e.Sequence); !slices.Contains(blocks, b) {
			blocks = append(blocks, b)
		}
	}
	return blocks
}

// InvoiceAwaitingIssue indexes the Invoices that are not issued yet under
// the value "true"; issued ones are in no entry, so the index costs
// nothing per issued invoice. A change of a workspace's BillingProfile
// finds the invoices it may unblock with
// client.MatchingFields{index.InvoiceAwaitingIssue: "true"}.
const InvoiceAwaitingIssue = "status.phase!=Issued"

// invoiceAwaitingIssue extracts the InvoiceAwaitingIssue index value.
func invoiceAwaitingIssue(obj client.Object) []string {
	inv, ok := obj.(*billingv1.Invoice)
	if !ok || inv.Status.Phase == billingv1.InvoiceIssued {
		return nil
	}
	return []string{"true"}
}

// InvoiceKeyBucket indexes issued Invoices by the bucket of their
// banktransfer.InvoiceKey (KeyBucket), so that matching a bank transaction
// finds the invoices a quoted reference or number may name by listing one
// bucket and comparing the keys: client.MatchingFields{
// index.InvoiceKeyBucket: index.KeyBucket(key)}. A bucket, not the key,
// for the reason given at InvoiceSequenceBlock: KeyBuckets buckets.
const InvoiceKeyBucket = "status.number/key-bucket"

// KeyBuckets is how many InvoiceKeyBucket values there are.
const KeyBuckets = 4096

// KeyBucket is the InvoiceKeyBucket value of an invoice key.
func KeyBucket(key string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return strconv.FormatUint(uint64(h.Sum32()%KeyBuckets), 10)
}

// invoiceKeyBucket extracts the InvoiceKeyBucket value of an issued
// invoice.
func invoiceKeyBucket(obj client.Object) []string {
	inv, ok := obj.(*billingv1.Invoice)
	if !ok || inv.Status.Number == "" {
		return nil
	}
	key := banktransfer.InvoiceKey(inv.Status.Number)
	if key == "" {
		return nil
	}
	return []string{KeyBucket(key)}
}

// RecordInvoice indexes the records of an invoice's ledger (the kinds of
// internal/recordkind with a Ledger descriptor, but refunds) by the invoice
// they name (spec.invoiceRef.name), so a change of an invoice wakes them.
const RecordInvoice = "spec.invoiceRef.name" //nolint:gosec // a field path, not a credential

// The RecordInvoice index, by the name its kind's readers know it by.
const (
	// CreditNoteInvoice indexes CreditNotes by the invoice they credit.
	CreditNoteInvoice = RecordInvoice
	// PaymentInvoice indexes Payments by the invoice they pay.
	PaymentInvoice = RecordInvoice
	// CreditApplicationInvoice indexes CreditApplications by the invoice
	// their credit is applied to.
	CreditApplicationInvoice = RecordInvoice
	// WriteOffInvoice indexes WriteOffs by the invoice they write off.
	WriteOffInvoice = RecordInvoice
)

// recordInvoice extracts the RecordInvoice value of a
// billingv1.LedgerRecord.
var recordInvoice = oneValue(billingv1.LedgerRecord.InvoiceName)

// RefundCustomer indexes Refunds by the customer paid back, so a change of
// a customer's credit wakes the refunds that wait for it.
const RefundCustomer = "spec.customerRef.name"

// refundCustomer extracts the RefundCustomer value.
var refundCustomer = oneValue(func(rf *billingv1.Refund) string { return rf.Spec.CustomerRef.Name })

// EmailRecord indexes Emails by the record they send (EmailRecordKey):
// the sealer finds an invoice's e-mails, its reminders' and its credit
// notes' by it, to seal them with their invoice.
const EmailRecord = "spec.invoiceRef.name|spec.creditNoteRef.name"

// EmailRecordKey is the EmailRecord value of the e-mails that send the
// record of kind (recordkind's name: Invoice, CreditNote) named name.
func EmailRecordKey(kind, name string) string { return kind + "/" + name }

// emailRecord extracts the EmailRecord value of an Email; none for a
// statement's.
var emailRecord = oneValue(func(em *billingv1.Email) string {
	switch {
	case em.Spec.InvoiceRef != nil:
		return EmailRecordKey(recordkind.Invoice.Name, em.Spec.InvoiceRef.Name)
	case em.Spec.CreditNoteRef != nil:
		return EmailRecordKey(recordkind.CreditNote.Name, em.Spec.CreditNoteRef.Name)
	}
	return ""
})

// Setup registers the indexes with a manager's or cache's field indexer.
func Setup(ctx context.Context, indexer client.FieldIndexer) error {
	if err := indexer.IndexField(ctx, &billingv1.Invoice{}, InvoiceCustomer, invoiceCustomer); err != nil {
		return err
	}
	if err := indexer.IndexField(ctx, &billingv1.Invoice{}, InvoiceSequenceBlock, invoiceSequenceBlock); err != nil {
		return err
	}
	// The records of an invoice's ledger by their invoice; a refund, of a
	// customer's credit, by its customer.
	for _, k := range recordkind.Where(func(k *recordkind.Kind) bool { return k.Ledger != "" }) {
		obj, field, extract := k.New(), RecordInvoice, recordInvoice
		if _, ok := obj.(*billingv1.Refund); ok {
			field, extract = RefundCustomer, refundCustomer
		}
		if err := indexer.IndexField(ctx, obj, field, extract); err != nil {
			return fmt.Errorf("indexing %T by %s: %w", obj, field, err)
		}
	}
	for _, k := range recordkind.Where(func(k *recordkind.Kind) bool { return k.EventBlocks }) {
		if err := indexer.IndexField(ctx, k.New(), EventSequenceBlock, eventSequenceBlocks); err != nil {
			return err
		}
	}
	if err := indexer.IndexField(ctx, &billingv1.Email{}, EmailRecord, emailRecord); err != nil {
		return err
	}
	if err := indexer.IndexField(ctx, &billingv1.Invoice{}, InvoiceKeyBucket, invoiceKeyBucket); err != nil {
		return err
	}
	return indexer.IndexField(ctx, &billingv1.Invoice{}, InvoiceAwaitingIssue, invoiceAwaitingIssue)
}
