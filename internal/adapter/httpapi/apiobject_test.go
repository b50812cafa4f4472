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
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// The /v1 JSON of invoices as the handlers answer it, and the typed test
// client's reading of every field.

func TestInvoiceJSONReadsTheStatus(t *testing.T) {
	issuedAt := metav1.NewTime(time.Date(2026, 11, 21, 7, 0, 0, 0, time.FixedZone("CET", 3600)))
	dueAt := metav1.NewTime(issuedAt.Add(30 * 24 * time.Hour))
	ready := func(reason string) []metav1.Condition {
		return []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse, Reason: reason}}
	}
	cases := []struct {
		name   string
		status billingv1.InvoiceStatus
		want   string // the new fields, as JSON
	}{
		{"a pending invoice has none", billingv1.InvoiceStatus{},
			`"status":"pending","status_reason":null,"number":null,"sequence":null,"issued_at":null,"due_at":null,"bill_to":null,"issuer":null`},
		{"an invoice whose customer is missing", billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid,
			Conditions: ready(billingv1.ReasonCustomerNotFound)},
			`"status":"invalid","status_reason":"customer_not_found","number":null,"sequence":null,"issued_at":null,"due_at":null,"bill_to":null,"issuer":null`},
		{"an invoice whose total is too large", billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid,
			Conditions: ready(billingv1.ReasonTotalTooLarge)},
			`"status":"invalid","status_reason":"total_too_large","number":null,"sequence":null,"issued_at":null,"due_at":null,"bill_to":null,"issuer":null`},
		{"an invalid invoice of an unknown reason", billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid,
			Conditions: ready("SomethingNew")},
			`"status":"invalid","status_reason":null,"number":null,"sequence":null,"issued_at":null,"due_at":null,"bill_to":null,"issuer":null`},
		{"an issued invoice without issuer", billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued,
			Number: "INV-000042", Sequence: ptr.To[int64](42), IssuedAt: &issuedAt, DueAt: &dueAt,
			BillTo: &billingv1.BillTo{Name: "Ada", Email: "ada@example.com"}},
			`"status":"issued","status_reason":null,"number":"INV-000042","sequence":42,"issued_at":"2026-11-21T06:00:00Z",` +
				`"due_at":"2026-12-21T06:00:00Z","bill_to":{"name":"Ada","email":"ada@example.com","address":null,` +
				`"tax_id":null,"electronic_address":null},"issuer":null,"payment_account":null,"payment_reference":null`},
		{"an issued invoice with every field", billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued,
			Number: "2026/000001", Sequence: ptr.To[int64](1), IssuedAt: &issuedAt, DueAt: &issuedAt,
			BillTo: &billingv1.BillTo{Name: "Ada", Email: "ada@example.com", TaxID: "GB1",
				Address:           &billingv1.Address{City: "London", Country: "GB"},
				ElectronicAddress: &billingv1.ElectronicAddress{Scheme: "9932", Value: "GB1"}},
			Issuer: &billingv1.Issuer{Name: "Example GmbH", LegalRegistrationID: "HRB 1",
				Contact:           &billingv1.Contact{Name: "AR", Phone: "+49 30 1"},
				ElectronicAddress: &billingv1.ElectronicAddress{Scheme: "0088", Value: "4035811991021"}},
			PaymentAccount:   &billingv1.PaymentAccount{IBAN: "DE02120300000000202051", BIC: "BYLADEM1001"},
			PaymentReference: "RF18539007547034"},
			`"status":"issued","status_reason":null,"number":"2026/000001","sequence":1,"issued_at":"2026-11-21T06:00:00Z",` +
				`"due_at":"2026-11-21T06:00:00Z","bill_to":{"name":"Ada","email":"ada@example.com","address":{"line1":null,` +
				`"line2":null,"city":"London","postal_code":null,"state":null,"country":"GB"},"tax_id":"GB1",` +
				`"electronic_address":{"scheme":"9932","value":"GB1"}},` +
				`"issuer":{"name":"Example GmbH","email":null,"address":null,"tax_id":null,"legal_registration_id":"HRB 1",` +
				`"contact":{"name":"AR","phone":"+49 30 1","email":null},` +
				`"electronic_address":{"scheme":"0088","value":"4035811991021"}},` +
				`"payment_account":{"iban":"DE02120300000000202051","bic":"BYLADEM1001","account_name":null},` +
				`"payment_reference":"RF18539007547034"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inv := &billingv1.Invoice{Status: tc.status}
			b, err := json.Marshal(apiobject.InvoiceOf(inv))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("got %s\nwant it to hold %s", b, tc.want)
			}
		})
	}
}

// The test client's objects are the adapter's, field for field: the
// fields of an embedded struct stand where encoding/json writes them, at
// its place.
func TestTheTestClientDecodesEveryField(t *testing.T) {
	var shape func(t reflect.Type) string
	var fields func(t reflect.Type) []string
	fields = func(t reflect.Type) []string {
		var out []string
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous && f.Tag.Get("json") == "" && f.Type.Kind() == reflect.Struct {
				out = append(out, fields(f.Type)...)
				continue
			}
			out = append(out, f.Tag.Get("json")+":"+shape(f.Type))
		}
		return out
	}
	shape = func(t reflect.Type) string {
		switch t.Kind() {
		case reflect.Pointer:
			return "*" + shape(t.Elem())
		case reflect.Slice:
			return "[]" + shape(t.Elem())
		case reflect.Struct:
			return "{" + strings.Join(fields(t), ",") + "}"
		default:
			return t.Kind().String()
		}
	}
	for _, pair := range [][2]any{
		{apiobject.Customer{}, v1client.Customer{}}, {apiobject.Invoice{}, v1client.Invoice{}},
		{apiobject.List[apiobject.Invoice]{}, v1client.List[v1client.Invoice]{}},
		{apiobject.CreditNote{}, v1client.CreditNote{}}, {apiobject.Payment{}, v1client.Payment{}},
		{apiobject.PeriodClose{}, v1client.PeriodClose{}}, {apiobject.PeriodCloseList{}, v1client.PeriodCloseList{}},
		{apiobject.Seal{}, v1client.Seal{}}, {apiobject.SealVerification{}, v1client.SealVerification{}},
		{apiobject.CreditApplication{}, v1client.CreditApplication{}}, {apiobject.Refund{}, v1client.Refund{}},
		{apiobject.WriteOff{}, v1client.WriteOff{}}, {apiobject.Delivery{}, v1client.Delivery{}},
		{apiobject.QueuedDelivery{}, v1client.QueuedDelivery{}},
	} {
		server, client := shape(reflect.TypeOf(pair[0])), shape(reflect.TypeOf(pair[1]))
		if server != client {
			t.Errorf("the adapter's %T is\n%s\nthe client's is\n%s", pair[0], server, client)
		}
	}
}
