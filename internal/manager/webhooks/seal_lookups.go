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

package webhooks

import (
	"context"
	"fmt"
	"strconv"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// What webhook delivery finds beyond the live Invoices, CreditNotes and
// Payments (webhookendpoint_lookups.go), so that an endpoint created after
// sealing that starts from the first event receives every event in order:
// the events of sealed records (SealedRecords knows which seal holds each;
// the seal is read again, whole, from the API server and decoded for the
// object), the period.closed
// events of PeriodCloses and the ledger.sealed events of LedgerSeals.
//
// The objects of these events are rendered by apiobject.EventDataOf, the
// /v1 JSON's one writer: a PeriodClose as a period_close object and a
// LedgerSeal as a seal object (the HTTP adapter's area adds both; until it
// does, their events carry no object).

// sequenceRange returns the first and last sequences of block
// (index.SequenceBlock).
func sequenceRange(block string) (first, last int64, err error) {
	b, err := strconv.ParseInt(block, 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("sequence block %q: %w", block, err)
	}
	return b*index.SequenceBlockSize + 1, (b + 1) * index.SequenceBlockSize, nil
}

// sealedEventBlocks is eventBlocks with the events of sealed records
// (sealed; nil: none), PeriodCloses and LedgerSeals too. The seals it
// decodes are kept for the reconcile (the next blocks are likely in the
// same seal).
func sealedEventBlocks(reader client.Reader, sealed *sealing.SealedRecords, namespace string) *sequenceBlocks[workspaceEvent] {
	memo := &sealMemo{}
	load := func(ctx context.Context, reader client.Reader, namespace, block string) (map[int64]workspaceEvent, error) {
		events, err := loadEventBlock(ctx, reader, namespace, block)
		if err != nil {
			return nil, err
		}
		if err := addClosingEvents(ctx, reader, namespace, block, events); err != nil {
			return nil, err
		}
		if sealed == nil {
			return events, nil
		}
		return events, addSealedEvents(ctx, sealed, memo, namespace, block, events)
	}
	return &sequenceBlocks[workspaceEvent]{reader: reader, namespace: namespace, load: load}
}

// addClosingEvents adds to events (block's, of namespace) the events of
// the workspace's PeriodCloses and LedgerSeals in block, listed from the
// cache without copies (a workspace has few of them).
func addClosingEvents(ctx context.Context, reader client.Reader, namespace, block string,
	events map[int64]workspaceEvent) error {
	in := []client.ListOption{client.InNamespace(namespace), client.UnsafeDisableDeepCopy}
	closes := &billingv1.PeriodCloseList{}
	seals := &billingv1.LedgerSealList{}
	if err := reader.List(ctx, closes, in...); err != nil {
		return fmt.Errorf("listing the period closes of %s: %w", namespace, err)
	}
	if err := reader.List(ctx, seals, in...); err != nil {
		return fmt.Errorf("listing the seals of %s: %w", namespace, err)
	}
	var objs []client.Object
	for i := range closes.Items {
		objs = append(objs, &closes.Items[i])
	}
	for i := range seals.Items {
		objs = append(objs, &seals.Items[i])
	}
	for _, obj := range objs {
		for _, e := range objectEvents(obj) {
			if index.SequenceBlock(e.Sequence) != block {
				continue
			}
			if _, twice := events[e.Sequence]; twice {
				return fmt.Errorf("event %d in %s: %w", e.Sequence, namespace, errSequenceTwice)
			}
			events[e.Sequence] = workspaceEvent{sequence: e.Sequence, typ: e.Type, createdAt: e.CreatedAt.Time, object: obj}
		}
	}
	return nil
}

// sealMemo keeps the records of the last seals one reconcile decoded.
type sealMemo struct {
	names   []string
	records []map[sealing.SealedKey]client.Object
}

// objects returns the records of the seal named name of namespace.
func (m *sealMemo) objects(ctx context.Context, sealed *sealing.SealedRecords, namespace, name string) (
	map[sealing.SealedKey]client.Object, error) {
	for i, n := range m.names {
		if n == name {
			return m.records[i], nil
		}
	}
	objs, err := sealed.Objects(ctx, namespace, name)
	if err != nil {
		return nil, err
	}
	const keep = 2
	if len(m.names) == keep {
		m.names, m.records = m.names[1:], m.records[1:]
	}
	m.names, m.records = append(m.names, name), append(m.records, objs)
	return objs, nil
}

// readSealedInvoice returns the invoice of namespace named name as the seal
// that holds it does (memo keeps the seals decoded), or nil when no seal
// holds it or its seal cannot be read.
func readSealedInvoice(ctx context.Context, sealed *sealing.SealedRecords, memo *sealMemo, namespace, name string) *billingv1.Invoice {
	sealName, _, err := sealed.SealOf(ctx, namespace, seal.KindInvoice, name)
	if err != nil || sealName == "" {
		return nil
	}
	objs, err := memo.objects(ctx, sealed, namespace, sealName)
	if err != nil {
		return nil
	}
	inv, _ := objs[sealing.SealedKey{Kind: seal.KindInvoice, Name: name}].(*billingv1.Invoice)
	return inv
}

// addSealedEvents adds to events (block's, of namespace) the events of the
// workspace's sealed records in block. A record that is both live and
// sealed (an original whose move is not finished) is one record, the
// sealed one: its event replaces the live object's.
func addSealedEvents(ctx context.Context, sealed *sealing.SealedRecords, memo *sealMemo,
	namespace, block string, events map[int64]workspaceEvent) error {
	first, last, err := sequenceRange(block)
	if err != nil {
		return err
	}
	found, err := sealed.EventsIn(ctx, namespace, first, last)
	if err != nil {
		return err
	}
	for seq, e := range found {
		if live, twice := events[seq]; twice && (live.object.GetName() != e.Name || sealing.SealKindOf(live.object) != e.Kind) {
			return fmt.Errorf("event %d in %s: %w", seq, namespace, errSequenceTwice)
		}
		objs, err := memo.objects(ctx, sealed, namespace, e.Seal)
		if err != nil {
			return err
		}
		obj := objs[sealing.SealedKey{Kind: e.Kind, Name: e.Name}]
		if obj == nil {
			return fmt.Errorf("seal %s/%s does not hold %s %s any more", namespace, e.Seal, e.Kind, e.Name)
		}
		var createdAt workspaceEvent
		for _, rec := range objectEvents(obj) {
			if rec.Sequence == seq {
				createdAt = workspaceEvent{sequence: seq, typ: rec.Type, createdAt: rec.CreatedAt.Time, object: obj}
			}
		}
		if inv, ok := obj.(*billingv1.Invoice); ok && createdAt.typ == billingv1.EventTypeInvoiceIssued {
			if inv.Status.Sequence == nil {
				return fmt.Errorf("invoice %s/%s carries invoice.issued without a sequence: %w",
					namespace, inv.Name, errIssuedWithoutSequence)
			}
			createdAt.invoiceSequence = *inv.Status.Sequence
		}
		events[seq] = createdAt
	}
	return nil
}

// sealedInvoiceBlocks is invoiceBlocks with the sealed invoices too
// (sealed; nil: none), each as an Invoice that carries only its name, its
// sequence and its invoice.issued event: what the invoice watermark reads.
func sealedInvoiceBlocks(reader client.Reader, sealed *sealing.SealedRecords, namespace string) *sequenceBlocks[[]*billingv1.Invoice] {
	load := func(ctx context.Context, reader client.Reader, namespace, block string) (map[int64][]*billingv1.Invoice, error) {
		invoices, err := loadInvoiceBlock(ctx, reader, namespace, block)
		if err != nil || sealed == nil {
			return invoices, err
		}
		first, last, err := sequenceRange(block)
		if err != nil {
			return nil, err
		}
		found, err := sealed.InvoicesIn(ctx, namespace, first, last)
		if err != nil {
			return nil, err
		}
		for seq, s := range found {
			if live := invoices[seq]; len(live) == 1 && live[0].Name == s.Name {
				continue // the original of an unfinished move: one invoice
			}
			inv := &billingv1.Invoice{}
			inv.Namespace, inv.Name = namespace, s.Name
			inv.Status.Sequence = &seq
			if s.Issued > 0 {
				inv.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypeInvoiceIssued, Sequence: s.Issued}}
			}
			invoices[seq] = append(invoices[seq], inv)
		}
		return invoices, nil
	}
	return &sequenceBlocks[[]*billingv1.Invoice]{reader: reader, namespace: namespace, load: load}
}
