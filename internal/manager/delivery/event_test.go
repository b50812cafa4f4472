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

package delivery_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

func issued(sequence int64) *billingv1.Invoice {
	at := metav1.NewTime(time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC))
	return &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Namespace: "acme", Name: "inv-1", CreationTimestamp: at},
		Spec: billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: "cus-1"},
			Items:       []billingv1.LineItem{{Description: "Consulting", Quantity: billingv1.Units(2), Amount: 5000}},
		},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Sequence: &sequence, IssuedAt: &at, Number: "INV-000007"},
	}
}

func TestAnIssuedInvoiceBecomesTheEventOfTheEventsList(t *testing.T) {
	at := time.Date(2026, 11, 23, 9, 30, 5, 0, time.UTC)
	noInvoice := func(string) *billingv1.Invoice { return nil }
	body, err := delivery.EventBody("acme", 12, billingv1.EventTypeInvoiceIssued, at, issued(7), noInvoice)
	if err != nil {
		t.Fatal(err)
	}
	var event map[string]any
	if err := json.Unmarshal(body, &event); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(event))
	for k := range event {
		keys = append(keys, k)
	}
	if want := []string{"created_at", "data", "id", "object", "sequence", "type"}; !sameSet(keys, want) {
		t.Fatalf("the event has keys %v, want %v", keys, want)
	}
	if event["id"] != "evt-acme-12" || event["object"] != "event" || event["sequence"] != 12.0 ||
		event["type"] != "invoice.issued" || event["created_at"] != "2026-11-23T09:30:05Z" {
		t.Fatalf("event = %v, want the id and sequence of the event, not of the invoice", event)
	}
	object := event["data"].(map[string]any)["object"].(map[string]any)
	if object["object"] != "invoice" || object["number"] != "INV-000007" || object["sequence"] != 7.0 || object["total"] != 10000.0 {
		t.Fatalf("data.object = %v, want the invoice as the API answers it", object)
	}
	again, _ := delivery.EventBody("acme", 12, billingv1.EventTypeInvoiceIssued, at, issued(7), noInvoice)
	if string(again) != string(body) {
		t.Fatal("two bodies of the same event and object differ; a retry must send the same bytes")
	}
}

func TestAPaymentEventCarriesThePaymentReadingItsInvoiceOnlyWhenNeeded(t *testing.T) {
	at := metav1.NewTime(time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC))
	payment := &billingv1.Payment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "acme", Name: "pay-1", CreationTimestamp: at},
		Spec:       billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Amount: 4000},
	}
	var asked []string
	reader := func(name string) *billingv1.Invoice { asked = append(asked, name); return issued(7) }
	body, err := delivery.EventBody("acme", 3, billingv1.EventTypePaymentRecorded, at.Time, payment, reader)
	if err != nil {
		t.Fatal(err)
	}
	var event struct {
		Type string `json:"type"`
		Data struct {
			Object struct {
				Object     string `json:"object"`
				ID         string `json:"id"`
				CustomerID string `json:"customer_id"`
			} `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &event); err != nil {
		t.Fatal(err)
	}
	if o := event.Data.Object; event.Type != "payment.recorded" || o.Object != "payment" || o.ID != "pay-1" || o.CustomerID != "cus-1" {
		t.Fatalf("event = %+v, want payment pay-1 of customer cus-1 (read from its invoice)", event)
	}
	if len(asked) != 1 || asked[0] != "inv-1" {
		t.Fatalf("the invoice reader was asked for %v, want [inv-1]", asked)
	}
	payment.Status.CustomerName = "cus-1"
	asked = nil
	if _, err := delivery.EventBody("acme", 3, billingv1.EventTypePaymentRecorded, at.Time, payment, reader); err != nil || len(asked) != 0 {
		t.Fatalf("a recorded payment's event asked for its invoice %v (err %v); its status says enough", asked, err)
	}
}

func sameSet(a, b []string) bool {
	set := func(s []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range s {
			m[x] = true
		}
		return m
	}
	return reflect.DeepEqual(set(a), set(b))
}
