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

package httpapi

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

// Every invoice.* event carries the invoice as data.object, as Stripe's
// do, whichever object records it: the invoice itself, a reminder's Email
// or a WriteOff. An event type added to the API with the invoice. prefix
// fails here until it has a case.
func TestEveryInvoiceEventCarriesTheInvoice(t *testing.T) {
	c, err := unitContract()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	inv := issuedFakeInvoice(&billingv1.InvoiceBalance{AmountRemaining: 3570,
		PaymentStatus: billingv1.InvoicePaymentOpen, Overdue: true}, 0)
	reminder := &billingv1.Email{ObjectMeta: metav1.ObjectMeta{Name: "em-1", Namespace: fakeWorkspace},
		Spec: billingv1.EmailSpec{Purpose: billingv1.EmailPurposeReminder, InvoiceRef: &billingv1.InvoiceReference{Name: "inv-1"},
			CustomerRef: &billingv1.CustomerReference{Name: "cus-acme"}, ReminderDays: ptr.To[int32](7)},
		Status: billingv1.EmailStatus{Phase: billingv1.EmailSent, MessageID: "<r1@example.com>"}}
	cases := []struct {
		name string
		typ  billingv1.EventType
		obj  any
		// beside is the other member of data, next to the invoice.
		beside string
	}{
		{name: "invoice.issued is recorded on the invoice", typ: billingv1.EventTypeInvoiceIssued, obj: inv},
		{name: "invoice.paid is recorded on the invoice", typ: billingv1.EventTypeInvoicePaid, obj: inv},
		{name: "invoice.voided is recorded on the invoice", typ: billingv1.EventTypeInvoiceVoided, obj: inv},
		{name: "invoice.overdue is recorded on the invoice", typ: billingv1.EventTypeInvoiceOverdue, obj: inv},
		{name: "invoice.marked_uncollectible is recorded on the write-off, which comes beside the invoice",
			typ: billingv1.EventTypeInvoiceMarkedUncollectible, obj: newMoneyFixtures().recordedOff, beside: "write_off"},
		{name: "invoice.reminder_sent is recorded on the reminder's Email; the reminder comes beside the invoice",
			typ: billingv1.EventTypeInvoiceReminderSent, obj: reminder, beside: "reminder"},
	}
	var covered, want []billingv1.EventType
	for _, typ := range eventTypes {
		if strings.HasPrefix(string(typ), "invoice.") {
			want = append(want, typ)
		}
	}
	for _, tc := range cases {
		covered = append(covered, tc.typ)
		t.Run(tc.name, func(t *testing.T) {
			body := webhookBody(t, c, tc.typ, at, tc.obj, inv)
			var ev struct {
				Data map[string]json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(body, &ev); err != nil {
				t.Fatal(err)
			}
			var object struct{ ID, Object string }
			if err := json.Unmarshal(ev.Data["object"], &object); err != nil || object.ID != "inv-1" || object.Object != "invoice" {
				t.Errorf("data.object is %s, want the invoice inv-1", ev.Data["object"])
			}
			members := []string{"object"}
			if tc.beside != "" {
				members = append(members, tc.beside)
			}
			got := slices.Sorted(maps.Keys(ev.Data))
			slices.Sort(members)
			if !slices.Equal(got, members) {
				t.Errorf("data has %v, want %v", got, members)
			}
		})
	}
	slices.Sort(covered)
	slices.Sort(want)
	if !slices.Equal(slices.Compact(covered), want) {
		t.Errorf("the cases cover %v, want every invoice.* event type %v", covered, want)
	}
}

// webhookBody is the body of a webhook of the event of type typ at at,
// sequence 7, about obj, as the manager makes it (delivery.EventBody),
// which can read one invoice, inv (inv-1). It fails t unless the body
// matches the document's Event.
func webhookBody(t *testing.T, c *contract, typ billingv1.EventType, at time.Time, obj any, inv *billingv1.Invoice) []byte {
	t.Helper()
	body, err := delivery.EventBody(fakeWorkspace, 7, typ, at, obj, func(name string) *billingv1.Invoice {
		if name != "inv-1" {
			return nil
		}
		return inv
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.checkWebhookEvent(body); err != nil {
		t.Fatalf("the webhook event does not match openapi.json: %v\n%s", err, body)
	}
	return body
}
