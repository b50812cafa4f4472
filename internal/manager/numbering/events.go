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
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// FactLookup tells the allocator of a workspace's event sequence what an
// object carries for one of its facts: its UID and the sequence of that
// fact's event (0 while none is written). The allocator treats each
// (object, fact) as the invoice series treats an invoice.
type FactLookup interface {
	LookupFact(ctx context.Context, key types.NamespacedName, fact billingv1.EventType) (state InvoiceState, found bool, err error)
}

// errNoFactLookup is the lookup error of a journal entry that names a fact
// when the allocator's lookup does not know facts; the entry stays pending.
var errNoFactLookup = errors.New("numbering: the lookup does not tell facts")

// lookup asks l about the object of a journal entry: about its fact when
// the entry names one, else about the invoice.
func lookup(ctx context.Context, l InvoiceLookup, key types.NamespacedName, fact billingv1.EventType) (InvoiceState, bool, error) {
	if fact == "" {
		return l.LookupInvoice(ctx, key)
	}
	facts, ok := l.(FactLookup)
	if !ok {
		return InvoiceState{}, false, errNoFactLookup
	}
	return facts.LookupFact(ctx, key, fact)
}

// EventReader is the lookup of a workspace's event sequence (Options.Cached
// with the manager's cache, Options.Live with its API reader): the object a
// fact is about is the invoice, credit note, payment or period close its
// type names, and what it carries is the sequence in its status.events.
func EventReader(reader client.Reader) InvoiceLookup {
	return eventReader{reader: reader}
}

type eventReader struct {
	reader client.Reader
}

// LookupInvoice answers for entries without a fact, which the event
// sequence never holds.
func (r eventReader) LookupInvoice(context.Context, types.NamespacedName) (InvoiceState, bool, error) {
	return InvoiceState{}, false, errNoFactLookup
}

// LookupFact returns the UID of the object fact is about, named key, and
// the sequence of its event of that type (0: none yet).
func (r eventReader) LookupFact(ctx context.Context, key types.NamespacedName, fact billingv1.EventType) (InvoiceState, bool, error) {
	obj, events, err := objectOf(fact)
	if err != nil {
		return InvoiceState{}, false, err
	}
	if err := r.reader.Get(ctx, key, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return InvoiceState{}, false, nil
		}
		return InvoiceState{}, false, err
	}
	var sequence int64
	if e := billingv1.FindEvent(events(), fact); e != nil {
		sequence = e.Sequence
	} else if neverRecorded(obj, fact) {
		sequence = neverSequence
	}
	return InvoiceState{UID: obj.GetUID(), Sequence: sequence}, true, nil
}

// neverSequence is the sequence LookupFact reports for an object that
// carries no event of the fact and never will: no entry has it, so the
// entry's fate is gone and its sequence is freed for the next fact.
const neverSequence = -1

// neverRecorded reports whether obj is final without the event of fact: a
// PeriodClose Superseded or Invalid never changes again, and never carries
// period.closed, even if it was given a sequence before a crash while it
// was about to close; an Email Failed or Skipped never carries
// invoice.reminder_sent, even if its reminder was accepted by the SMTP
// server and given a sequence just before a crash, and failed afterwards;
// an invoice whose ledger has moved past void or overdue (a payment
// entered after invoice.voided was reserved, the last of it paid after
// invoice.overdue was) never carries that fact (billing.FactUnreachable).
func neverRecorded(obj client.Object, fact billingv1.EventType) bool {
	switch o := obj.(type) {
	case *billingv1.Invoice:
		return billing.FactUnreachable(o, fact)
	case *billingv1.PeriodClose:
		return o.Status.Phase == billingv1.PeriodCloseSuperseded || o.Status.Phase == billingv1.PeriodCloseInvalid
	case *billingv1.Email:
		return o.Status.Phase == billingv1.EmailFailed || o.Status.Phase == billingv1.EmailSkipped
	}
	return false
}

// objectOf returns an empty object of the kind fact is about (its row of
// internal/recordkind), and a function that returns its status.events
// once it is read.
func objectOf(fact billingv1.EventType) (client.Object, func() []billingv1.RecordedEvent, error) {
	k := recordkind.OfEvent(fact)
	if k == nil {
		return nil, nil, fmt.Errorf("numbering: unknown event type %q", fact)
	}
	obj, ok := k.New().(billingv1.EventCarrier)
	if !ok {
		return nil, nil, fmt.Errorf("numbering: %s carries no events", k.Name)
	}
	return obj, obj.RecordedEvents, nil
}
