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
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// withEvents returns a copy of inv carrying events.
func withEvents(inv *billingv1.Invoice, events ...billingv1.RecordedEvent) *billingv1.Invoice {
	inv = inv.DeepCopy()
	inv.Status.Events = events
	return inv
}

func recorded(t billingv1.EventType, sequence int64) billingv1.RecordedEvent {
	return billingv1.RecordedEvent{Type: t, Sequence: sequence, CreatedAt: metav1.Unix(1_800_000_000+sequence, 0)}
}

// eventsOf spells a page of events "sequence:type:name,...".
func eventsOf(page []Event) string {
	out := make([]string, len(page))
	for i, e := range page {
		out[i] = fmt.Sprintf("%d:%s:%s", e.Sequence, e.Type, e.Object.GetName())
	}
	return strings.Join(out, ",")
}

func TestEventsWalkTheSequenceAcrossKindsAndStopBeforeAnUnseenSequence(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	f.cached(t, withEvents(invoice("inv-a", "acme"),
		recorded(billingv1.EventTypeInvoiceIssued, 1), recorded(billingv1.EventTypeInvoicePaid, 3)))
	payment := &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Namespace: "ws", Name: "pay-a"}}
	payment.Status.Events = []billingv1.RecordedEvent{recorded(billingv1.EventTypePaymentRecorded, 2)}
	f.cached(t, payment)
	// 4 is not seen yet; 5 is.
	f.cached(t, withEvents(invoice("inv-c", "acme"), recorded(billingv1.EventTypeInvoiceIssued, 5)))

	page, last, more, err := f.store.Events(t.Context(), "ws", 0, 2, nil)
	if err != nil || eventsOf(page) != "1:invoice.issued:inv-a,2:payment.recorded:pay-a" || last != 2 || !more {
		t.Fatalf("first page = %s, last %d, %v, %v", eventsOf(page), last, more, err)
	}
	if !page[0].CreatedAt.Equal(metav1.Unix(1_800_000_001, 0).Time) {
		t.Errorf("created_at = %v, want the recorded time", page[0].CreatedAt)
	}
	page, last, more, err = f.store.Events(t.Context(), "ws", 2, 10, nil)
	if err != nil || eventsOf(page) != "3:invoice.paid:inv-a" || last != 3 || !more {
		t.Fatalf("the page before the gap = %s, last %d, %v, %v; want 3 and more (5 was seen)", eventsOf(page), last, more, err)
	}
	page, last, more, err = f.store.Events(t.Context(), "ws", 3, 10, nil)
	if err != nil || len(page) != 0 || last != 3 || !more {
		t.Fatalf("at the gap = %s, last %d, %v, %v; want an empty page at 3 and more", eventsOf(page), last, more, err)
	}
	f.cached(t, withEvents(invoice("inv-b", "acme"), recorded(billingv1.EventTypeInvoiceIssued, 4)))
	page, last, more, err = f.store.Events(t.Context(), "ws", 3, 10, nil)
	if err != nil || eventsOf(page) != "4:invoice.issued:inv-b,5:invoice.issued:inv-c" || last != 5 || more {
		t.Fatalf("once 4 is seen = %s, last %d, %v, %v", eventsOf(page), last, more, err)
	}
	page, _, _, err = f.store.Events(t.Context(), "other", 0, 10, nil)
	if err != nil || len(page) != 0 {
		t.Fatalf("another workspace = %s, %v; want nothing", eventsOf(page), err)
	}
}

func TestEventsOfSomeTypesWalkPastTheOthers(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	f.cached(t, withEvents(invoice("inv-a", "acme"),
		recorded(billingv1.EventTypeInvoiceIssued, 1), recorded(billingv1.EventTypeInvoiceOverdue, 2),
		recorded(billingv1.EventTypeInvoicePaid, 4)))
	f.cached(t, withEvents(invoice("inv-b", "acme"), recorded(billingv1.EventTypeInvoiceIssued, 3)))
	paid := map[billingv1.EventType]bool{billingv1.EventTypeInvoicePaid: true}
	page, last, more, err := f.store.Events(t.Context(), "ws", 0, 10, paid)
	if err != nil || eventsOf(page) != "4:invoice.paid:inv-a" || last != 4 || more {
		t.Fatalf("paid = %s, last %d, %v, %v", eventsOf(page), last, more, err)
	}
	overdue := map[billingv1.EventType]bool{billingv1.EventTypeInvoiceOverdue: true}
	page, last, more, err = f.store.Events(t.Context(), "ws", 0, 10, overdue)
	if err != nil || eventsOf(page) != "2:invoice.overdue:inv-a" || last != 4 || more {
		t.Fatalf("overdue = %s, last %d, %v, %v; want 2 and the walk to reach 4", eventsOf(page), last, more, err)
	}
}

func TestAnEventsConsumerIsWokenWhenAnEventIsSeenAndOnlyThen(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	changed := f.store.EventsChanged("ws")
	other := f.store.EventsChanged("other")
	issued := withEvents(invoice("inv-a", "acme"), recorded(billingv1.EventTypeInvoiceIssued, 1))
	f.cached(t, issued)
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the consumer of ws was not woken")
	}
	select {
	case <-other:
		t.Fatal("the consumer of another workspace was woken")
	default:
	}
	next := f.store.EventsChanged("ws")
	f.informer(t, issued).Update(issued, issued.DeepCopy())
	select {
	case <-next:
		t.Fatal("an update that adds no event woke the consumer")
	default:
	}
	paid := withEvents(issued, recorded(billingv1.EventTypeInvoiceIssued, 1), recorded(billingv1.EventTypeInvoicePaid, 2))
	f.informer(t, issued).Update(issued, paid)
	select {
	case <-next:
	case <-time.After(5 * time.Second):
		t.Fatal("the consumer was not woken by the next event")
	}
}

func TestTheEventsOfMoneyOnAccountAreWalkedWithTheirRecords(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	meta := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: "ws", Name: name} }
	f.cached(t, withEvents(invoice("inv-a", "acme"), recorded(billingv1.EventTypeInvoiceIssued, 1)))
	app := &billingv1.CreditApplication{ObjectMeta: meta("capp-a")}
	app.Status.Events = []billingv1.RecordedEvent{recorded(billingv1.EventTypeCreditApplied, 2)}
	f.cached(t, app)
	refund := &billingv1.Refund{ObjectMeta: meta("rf-a")}
	refund.Status.Events = []billingv1.RecordedEvent{recorded(billingv1.EventTypeRefundRecorded, 3)}
	f.cached(t, refund)
	writeOff := &billingv1.WriteOff{ObjectMeta: meta("wo-a")}
	writeOff.Status.Events = []billingv1.RecordedEvent{recorded(billingv1.EventTypeInvoiceMarkedUncollectible, 4)}
	f.cached(t, writeOff)

	page, last, more, err := f.store.Events(t.Context(), "ws", 0, 10, nil)
	want := "1:invoice.issued:inv-a,2:credit.applied:capp-a,3:refund.recorded:rf-a,4:invoice.marked_uncollectible:wo-a"
	if err != nil || eventsOf(page) != want || last != 4 || more {
		t.Fatalf("events = %s, last %d, %v, %v; want %s", eventsOf(page), last, more, err, want)
	}
	if _, ok := page[3].Object.(*billingv1.WriteOff); !ok {
		t.Errorf("invoice.marked_uncollectible is about a %T, want its write-off", page[3].Object)
	}
}

func TestTheEventOfAReminderIsWalkedWithItsEmail(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	meta := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: "ws", Name: name} }
	f.cached(t, withEvents(invoice("inv-a", "acme"), recorded(billingv1.EventTypeInvoiceIssued, 1),
		recorded(billingv1.EventTypeInvoicePaid, 3)))
	// A message without an event (the invoice itself, sent) takes no
	// sequence.
	f.cached(t, &billingv1.Email{ObjectMeta: meta("em-sent"), Spec: billingv1.EmailSpec{
		Purpose: billingv1.EmailPurposeInvoice, InvoiceRef: &billingv1.InvoiceReference{Name: "inv-a"}}})
	days := int32(-3)
	reminder := &billingv1.Email{ObjectMeta: meta("em-reminder"), Spec: billingv1.EmailSpec{
		Purpose: billingv1.EmailPurposeReminder, InvoiceRef: &billingv1.InvoiceReference{Name: "inv-a"},
		ReminderDays: &days}}
	f.cached(t, reminder)

	page, last, more, err := f.store.Events(t.Context(), "ws", 0, 10, nil)
	if err != nil || eventsOf(page) != "1:invoice.issued:inv-a" || last != 1 || !more {
		t.Fatalf("before the reminder is sent = %s, last %d, %v, %v; want a stop before 2", eventsOf(page), last, more, err)
	}
	sent := &billingv1.Email{}
	if err := f.cache.objects.Get(t.Context(), client.ObjectKeyFromObject(reminder), sent); err != nil {
		t.Fatal(err)
	}
	sent.Status.Events = []billingv1.RecordedEvent{recorded(billingv1.EventTypeInvoiceReminderSent, 2)}
	if err := f.cache.objects.Update(t.Context(), sent.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	f.informer(t, reminder).Update(reminder, sent)

	page, last, more, err = f.store.Events(t.Context(), "ws", 0, 10, nil)
	want := "1:invoice.issued:inv-a,2:invoice.reminder_sent:em-reminder,3:invoice.paid:inv-a"
	if err != nil || eventsOf(page) != want || last != 3 || more {
		t.Fatalf("events = %s, last %d, %v, %v; want %s", eventsOf(page), last, more, err, want)
	}
	if e, ok := page[1].Object.(*billingv1.Email); !ok || e.Spec.InvoiceRef.Name != "inv-a" {
		t.Errorf("invoice.reminder_sent is about %T %v, want the reminder's Email", page[1].Object, page[1].Object)
	}
	reminders := map[billingv1.EventType]bool{billingv1.EventTypeInvoiceReminderSent: true}
	page, last, _, err = f.store.Events(t.Context(), "ws", 0, 10, reminders)
	if err != nil || eventsOf(page) != "2:invoice.reminder_sent:em-reminder" || last != 3 {
		t.Fatalf("reminders = %s, last %d, %v", eventsOf(page), last, err)
	}
}
