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

package seal

import (
	"encoding/json"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// A sealed record is indexed from the few fields the indexes read, not
// from the whole object: a restart takes a million sealed records in, and
// decoding each into its API type (its items, taxes, parties, conditions
// and ledger) was a third of the adapter's restart's CPU and half of the
// manager's (docs/performance.md). The fields are scanned out of the line
// (scan.go). Indexed makes an object of the record's type that holds only
// those fields, and the indexes (the adapter's store, the manager's
// SealedRecords) read it with the functions they read live objects with,
// so that what they make of it is what they would make of the full
// record. It is never served: a page or a get decodes the full record.

// indexedMeta is the metadata the indexes read.
type indexedMeta struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace"`
	UID       types.UID         `json:"uid"`
	Labels    map[string]string `json:"labels"`
}

func (m indexedMeta) objectMeta() metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, Labels: m.Labels}
}

// invoiceFields is what the indexes read of an invoice: its customer,
// schedule label, phase, total and balance (its sets), its sequence and
// its events.
type invoiceFields struct {
	Metadata indexedMeta `json:"metadata"`
	Spec     struct {
		CustomerRef billingv1.CustomerReference `json:"customerRef"`
	} `json:"spec"`
	Status struct {
		Phase    billingv1.InvoicePhase    `json:"phase"`
		Total    *int64                    `json:"total"`
		Sequence *int64                    `json:"sequence"`
		Balance  *billingv1.InvoiceBalance `json:"balance"`
		Events   indexedEvents             `json:"events"`
	} `json:"status"`
}

// indexedEvents are the events of a record as the event index reads them:
// each one's type and sequence (their times are left out: parsing them
// is most of what decoding events costs).
type indexedEvents []indexedEvent

type indexedEvent struct {
	Type     billingv1.EventType `json:"type"`
	Sequence int64               `json:"sequence"`
}

// recorded returns the events as a record's status holds them, without
// their times.
func (events indexedEvents) recorded() []billingv1.RecordedEvent {
	if events == nil {
		return nil
	}
	out := make([]billingv1.RecordedEvent, len(events))
	for i, e := range events {
		out[i] = billingv1.RecordedEvent{Type: e.Type, Sequence: e.Sequence}
	}
	return out
}

func (f *invoiceFields) object() client.Object {
	inv := &billingv1.Invoice{ObjectMeta: f.Metadata.objectMeta()}
	inv.Spec.CustomerRef = f.Spec.CustomerRef
	inv.Status.Phase = f.Status.Phase
	inv.Status.Total = f.Status.Total
	inv.Status.Sequence = f.Status.Sequence
	inv.Status.Balance = f.Status.Balance
	inv.Status.Events = f.Status.Events.recorded()
	return inv
}

// recordFields is what the indexes read of a credit note, payment,
// credit application, refund, write-off or e-mail: its invoice and
// customer, its phase and its events. Each field has the same JSON shape
// in every one of those kinds that has it.
type recordFields struct {
	Metadata indexedMeta `json:"metadata"`
	Spec     struct {
		InvoiceRef  billingv1.InvoiceReference  `json:"invoiceRef"`
		CustomerRef billingv1.CustomerReference `json:"customerRef"`
	} `json:"spec"`
	Status struct {
		Phase        string        `json:"phase"`
		CustomerName string        `json:"customerName"`
		Events       indexedEvents `json:"events"`
	} `json:"status"`
}

// recordFieldKinds are the kinds recordFields reads.
var recordFieldKinds = []*recordkind.Kind{&recordkind.CreditNote, &recordkind.Payment,
	&recordkind.CreditApplication, &recordkind.Refund, &recordkind.WriteOff, &recordkind.Email}

// object returns an object of kind k (one of recordFieldKinds) that
// holds f's fields. Credit notes and payments, sealed by the hundred
// thousand beside their invoices, are filled in field by field; the
// kinds sealed by the few go through a JSON document of just these
// fields (viaJSON), so that this file names no other record type and a
// kind added to the table needs no change here.
func (f *recordFields) object(k *recordkind.Kind) (client.Object, error) {
	meta := f.Metadata.objectMeta()
	switch k {
	case &recordkind.CreditNote:
		cn := &billingv1.CreditNote{ObjectMeta: meta}
		cn.Spec.InvoiceRef = f.Spec.InvoiceRef
		cn.Status.Phase = billingv1.CreditNotePhase(f.Status.Phase)
		cn.Status.CustomerName = f.Status.CustomerName
		cn.Status.Events = f.Status.Events.recorded()
		return cn, nil
	case &recordkind.Payment:
		p := &billingv1.Payment{ObjectMeta: meta}
		p.Spec.InvoiceRef = f.Spec.InvoiceRef
		p.Status.CustomerName = f.Status.CustomerName
		p.Status.Events = f.Status.Events.recorded()
		return p, nil
	}
	return f.viaJSON(k)
}

// viaJSON returns an object of kind k decoded from a JSON document of f's
// fields alone: some 300 bytes, not the record's line.
func (f *recordFields) viaJSON(k *recordkind.Kind) (client.Object, error) {
	var doc struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
		Spec     struct {
			InvoiceRef  *billingv1.InvoiceReference  `json:"invoiceRef,omitempty"`
			CustomerRef *billingv1.CustomerReference `json:"customerRef,omitempty"`
		} `json:"spec"`
		Status struct {
			Phase        string                    `json:"phase,omitempty"`
			CustomerName string                    `json:"customerName,omitempty"`
			Events       []billingv1.RecordedEvent `json:"events,omitempty"`
		} `json:"status"`
	}
	doc.Metadata = f.Metadata.objectMeta()
	if f.Spec.InvoiceRef.Name != "" {
		doc.Spec.InvoiceRef = &f.Spec.InvoiceRef
	}
	if f.Spec.CustomerRef.Name != "" {
		doc.Spec.CustomerRef = &f.Spec.CustomerRef
	}
	doc.Status.Phase, doc.Status.CustomerName = f.Status.Phase, f.Status.CustomerName
	doc.Status.Events = f.Status.Events.recorded()
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	obj := k.New()
	if err := json.Unmarshal(data, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// Indexed decodes of line, a sealed record of kind k (a RawRecord), the
// fields the indexes read (its name, namespace, uid and labels, its
// references, phase, amounts, sequence and events' types and sequences)
// into an object of k's type; a kind this file does not know is decoded
// whole, so that a kind sealed later is indexed correctly, if slowly.
func Indexed(k *recordkind.Kind, line []byte) (client.Object, error) {
	if k == &recordkind.Invoice {
		var f invoiceFields
		if err := f.scan(line); err != nil {
			return nil, fmt.Errorf("reading a sealed %s: %w", k.Name, err)
		}
		return f.object(), nil
	}
	if slices.Contains(recordFieldKinds, k) {
		var f recordFields
		if err := f.scan(line); err != nil {
			return nil, fmt.Errorf("reading a sealed %s: %w", k.Name, err)
		}
		obj, err := f.object(k)
		if err != nil {
			return nil, fmt.Errorf("reading a sealed %s: %w", k.Name, err)
		}
		return obj, nil
	}
	obj := k.New()
	if err := json.Unmarshal(line, obj); err != nil {
		return nil, fmt.Errorf("reading a sealed %s: %w", k.Name, err)
	}
	return obj, nil
}
