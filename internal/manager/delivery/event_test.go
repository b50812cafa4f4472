/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

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
			Items:       []billingv1.LineItem{{Description: "Consulting", Quantity: 2, Amount: 5000}},
		},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Sequence: &sequence, IssuedAt: &at, Number: "INV-000007"},
	}
}

func TestAnIssuedInvoiceBecomesTheDocumentedEvent(t *testing.T) {
	body, err := delivery.IssuedEvent(issued(7))
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
	if want := []string{"created_at", "data", "id", "type"}; !sameSet(keys, want) {
		t.Fatalf("the event has keys %v, want %v", keys, want)
	}
	if event["id"] != "evt-acme-7" || event["type"] != "invoice.issued" || event["created_at"] != "2026-11-23T09:30:00Z" {
		t.Fatalf("event = %v", event)
	}
	object := event["data"].(map[string]any)["object"].(map[string]any)
	if object["object"] != "invoice" || object["number"] != "INV-000007" || object["sequence"] != 7.0 || object["total"] != 10000.0 {
		t.Fatalf("data.object = %v, want the invoice as the API answers it", object)
	}
	again, _ := delivery.IssuedEvent(issued(7))
	if string(again) != string(body) {
		t.Fatal("two events of the same invoice differ; a retry must send the same bytes")
	}
}

func TestAnInvoiceWithoutSequenceMakesNoEvent(t *testing.T) {
	inv := issued(1)
	inv.Status.Sequence = nil
	if _, err := delivery.IssuedEvent(inv); err == nil {
		t.Fatal("IssuedEvent() of an invoice without a sequence succeeded")
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
