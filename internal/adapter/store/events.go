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

package store

import (
	"context"
	"fmt"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// Events are not stored anywhere of their own: each event's sequence is
// recorded in status.events of the invoice, credit note, payment, period
// close, ledger seal, credit application, refund or write-off it is about,
// or of the reminder's Email for invoice.reminder_sent (docs/events.md);
// those of a sealed
// record come with it from its seal (sealed.go). eventIndex keeps, per workspace, which object
// carries each event sequence, as the informers deliver them, and the
// highest sequence it has seen; Events walks it as Feed walks the invoice
// sequences.
type eventIndex struct {
	bySequence[eventRef]
}

// eventRef names the object an event is about: its name, and the event
// type, which tells the kind.
type eventRef struct {
	name string
	typ  billingv1.EventType
}

func newEventIndex() *eventIndex {
	return &eventIndex{newBySequence[eventRef]()}
}

// recordedEvents returns the namespace, name and status.events
// (billing.RecordedEvents) of an informer's object, or of the last known
// state of a deleted one (DeletedFinalStateUnknown).
func recordedEvents(obj any) (ns, name string, events []billingv1.RecordedEvent) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	return billing.RecordedEvents(obj)
}

func (x *eventIndex) put(obj any) {
	ns, name, events := recordedEvents(obj)
	if len(events) == 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	ws := x.workspace(ns)
	added := false
	for _, e := range events {
		if ws.set(e.Sequence, eventRef{name: name, typ: e.Type}) {
			added = true
		}
	}
	if added {
		ws.added()
	}
}

// drop forgets the events of an object that was deleted (only with its
// workspace, for issued invoices). The highest sequence stays. An original
// deleted once it was moved into a seal (labelled with the seal's name)
// keeps its events: the seal serves them (sealed.go).
func (x *eventIndex) drop(obj any) {
	if o, ok := eventObject(obj); ok && sealedIn(o) != "" {
		return
	}
	ns, name, events := recordedEvents(obj)
	x.mu.Lock()
	defer x.mu.Unlock()
	ws, ok := x.workspaces[ns]
	if !ok {
		return
	}
	for _, e := range events {
		if ref := ws.values[e.Sequence]; ref.name == name && ref.typ == e.Type {
			delete(ws.values, e.Sequence)
		}
	}
}

// handler keeps the index in step with the Invoice, CreditNote, Payment,
// PeriodClose, LedgerSeal, CreditApplication, Refund, WriteOff and Email
// informers. An event never changes once recorded (the API server refuses
// it), so an update only ever adds events.
func (x *eventIndex) handler() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc:    x.put,
		UpdateFunc: func(_, newObj any) { x.put(newObj) },
		DeleteFunc: x.drop,
	}
}

// Event is one event of a workspace's event sequence, derived from the
// object it is about.
type Event struct {
	Sequence  int64
	Type      billingv1.EventType
	CreatedAt time.Time
	// Object is the billingv1.EventCarrier the event is about (live or
	// sealed, with the label billingv1.LabelSealedIn), of the kind whose
	// row of internal/recordkind lists the event's type, shared with the
	// cache: read it, never change it.
	Object client.Object
}

// maxEventScan bounds how many sequences one page of Events walks when
// most of them are filtered out.
const maxEventScan = 1000

// Events reads the events of workspace ns whose sequences follow after, in
// sequence order, those of the types wanted (all when wanted is empty): at
// most limit, walking at most maxEventScan sequences, and stopping before
// the first sequence this replica has not seen yet (recorded but not yet
// delivered by an informer, or reserved but not yet written), so that a
// consumer that resumes after the last sequence it walked never skips one.
// last is the last sequence walked (after, when none was); more says
// whether this replica has seen a higher one.
func (s *Store) Events(ctx context.Context, ns string, after int64, limit int,
	wanted map[billingv1.EventType]bool) (page []Event, last int64, more bool, err error) {
	if err := s.awaitSync(ctx); err != nil {
		return nil, after, false, err
	}
	refs, highest := s.events.run(ns, after+1, maxEventScan)
	last = after
	for i, ref := range refs {
		if len(page) == limit {
			break
		}
		seq := after + 1 + int64(i)
		if len(wanted) > 0 && !wanted[ref.typ] {
			last = seq
			continue
		}
		e, ok, err := s.event(ctx, ns, ref, seq)
		if err != nil {
			return nil, after, false, err
		}
		if !ok {
			break // its object was deleted with its workspace: the walk ends there
		}
		page = append(page, e)
		last = seq
	}
	return page, last, highest > last, nil
}

// EventsChanged returns a channel that is closed once another event of
// workspace ns is seen, for streams that wait for the next one.
func (s *Store) EventsChanged(ns string) <-chan struct{} { return s.events.changed(ns) }

// event reads the object of ref from the sealed records or the cache and
// returns its event of sequence seq; ok is false when neither holds it.
func (s *Store) event(ctx context.Context, ns string, ref eventRef, seq int64) (Event, bool, error) {
	obj := objectFor(ref.typ)
	if obj == nil {
		return Event{}, false, nil
	}
	if sealed, ok := s.served(s.kinds[reflect.TypeOf(obj)], ns, ref.name); ok {
		obj = sealed
	} else {
		err := s.cache.Get(ctx, types.NamespacedName{Namespace: ns, Name: ref.name}, obj, client.UnsafeDisableDeepCopy)
		if apierrors.IsNotFound(err) {
			return Event{}, false, nil
		}
		if err != nil {
			return Event{}, false, fmt.Errorf("reading from the cache: %w", err)
		}
	}
	_, _, events := recordedEvents(obj)
	recorded := billingv1.FindEvent(events, ref.typ)
	if recorded == nil || recorded.Sequence != seq {
		return Event{}, false, nil
	}
	return Event{Sequence: seq, Type: ref.typ, CreatedAt: recorded.CreatedAt.Time, Object: obj}, true, nil
}

// objectFor returns an empty object of the kind an event of type t is
// about (recordkind.OfEvent); nil for an unknown type.
func objectFor(t billingv1.EventType) client.Object {
	k := recordkind.OfEvent(t)
	if k == nil {
		return nil
	}
	return k.New()
}
