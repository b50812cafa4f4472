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
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// The create and get handlers of customers and invoices, driven with
// httptest over a fake store and fake claims (fakes_test.go): no control
// plane.

func acmeCustomer() *billingv1.Customer {
	return &billingv1.Customer{
		ObjectMeta: metav1.ObjectMeta{Name: "cus-acme", Namespace: fakeWorkspace,
			CreationTimestamp: metav1.NewTime(time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC))},
		Spec: billingv1.CustomerSpec{Name: "Acme", Email: "billing@acme.example"},
	}
}

func pendingInvoice() *billingv1.Invoice {
	return &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: "inv-1", Namespace: fakeWorkspace,
			CreationTimestamp: metav1.NewTime(time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC))},
		Spec: billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: "cus-acme"},
			Currency:    "EUR",
			Items:       []billingv1.LineItem{{Description: "Support", Quantity: billingv1.Units(2), Amount: 1500}},
		},
	}
}

// wantError checks that w is the error answer status code with param.
func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, code, param string) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d, want %d: %s", w.Code, status, w.Body)
	}
	var body errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("the answer is not an error body: %v: %s", err, w.Body)
	}
	if body.Error.Code != code || body.Error.Param != param {
		t.Errorf("code %q param %q, want %q %q: %s", body.Error.Code, body.Error.Param, code, param, w.Body)
	}
}

// decodeAs decodes w's body into a new T, after checking its status.
func decodeAs[T any](t *testing.T, w *httptest.ResponseRecorder, status int) T {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d, want %d: %s", w.Code, status, w.Body)
	}
	var v T
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("decoding %s: %v", w.Body, err)
	}
	return v
}

func TestCreateCustomer(t *testing.T) {
	t.Run("a create answers 201 with the customer and its location, and the store sees it at once", func(t *testing.T) {
		s, c := newFakeStore(), &fakeClaims{}
		w := serve(fakeAdapter(t, s, c), http.MethodPost, "/v1/customers",
			`{"name":"Ada","email":"ada@example.com","tax_id":"DE123"}`)
		got := decodeAs[apiobject.Customer](t, w, http.StatusCreated)
		if got.Object != "customer" || got.Name != "Ada" || got.Email != "ada@example.com" ||
			got.Workspace != fakeWorkspace || got.TaxID == nil || *got.TaxID != "DE123" {
			t.Errorf("unexpected customer %+v", got)
		}
		if loc := w.Header().Get("Location"); loc != "/v1/customers/"+got.ID {
			t.Errorf("Location %q, want /v1/customers/%s", loc, got.ID)
		}
		if found, _ := s.Get(t.Context(), fakeWorkspace, got.ID, &billingv1.Customer{}); !found {
			t.Error("the store was not told of the created customer")
		}
		if len(c.requests) != 1 || c.requests[0].Namespace != fakeWorkspace || c.requests[0].Resource != resourceCustomers {
			t.Errorf("unexpected claims %+v", c.requests)
		}
	})
	t.Run("a create with a bad email answers 422 parameter_invalid with param email", func(t *testing.T) {
		c := &fakeClaims{}
		w := serve(fakeAdapter(t, newFakeStore(), c), http.MethodPost, "/v1/customers", `{"name":"Ada","email":"not-an-address"}`)
		wantError(t, w, http.StatusUnprocessableEntity, CodeParameterInvalid, "email")
		if len(c.requests) != 0 {
			t.Error("an invalid customer was created")
		}
	})
	t.Run("a create without a name answers 422 parameter_missing with param name", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(), &fakeClaims{}), http.MethodPost, "/v1/customers", `{"email":"ada@example.com"}`)
		wantError(t, w, http.StatusUnprocessableEntity, CodeParameterMissing, "name")
	})
	t.Run("a create with an unknown field answers 400 parameter_unknown with param phone", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(), &fakeClaims{}), http.MethodPost, "/v1/customers",
			`{"name":"Ada","email":"ada@example.com","phone":"1"}`)
		wantError(t, w, http.StatusBadRequest, CodeParameterUnknown, "phone")
	})
	t.Run("a create whose body is not JSON answers 415 without a JSON content type", func(t *testing.T) {
		h := fakeAdapter(t, newFakeStore(), &fakeClaims{})
		r := httptest.NewRequest(http.MethodPost, "/v1/customers", nil)
		r.Header.Set("Authorization", "Bearer "+fakeToken)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		wantError(t, w, http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "Content-Type")
	})
	t.Run("a create whose key is used by a request in flight answers 409 idempotency_key_in_use", func(t *testing.T) {
		c := &fakeClaims{err: idempotency.ErrInUse}
		w := serve(fakeAdapter(t, newFakeStore(), c), http.MethodPost, "/v1/customers", `{"name":"Ada","email":"ada@example.com"}`)
		wantError(t, w, http.StatusConflict, CodeIdempotencyInUse, IdempotencyKeyHeader)
	})
	t.Run("a create the API server does not answer in time answers 503 api_unavailable", func(t *testing.T) {
		c := &fakeClaims{err: context.DeadlineExceeded}
		w := serve(fakeAdapter(t, newFakeStore(), c), http.MethodPost, "/v1/customers", `{"name":"Ada","email":"ada@example.com"}`)
		wantError(t, w, http.StatusServiceUnavailable, CodeAPIUnavailable, "")
	})
}

func TestGetCustomer(t *testing.T) {
	t.Run("a get of a customer answers 200 with it", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(acmeCustomer()), &fakeClaims{}), http.MethodGet, "/v1/customers/cus-acme", "")
		got := decodeAs[apiobject.Customer](t, w, http.StatusOK)
		if got.ID != "cus-acme" || got.Name != "Acme" || got.CreatedAt != "2026-11-01T08:00:00Z" {
			t.Errorf("unexpected customer %+v", got)
		}
	})
	t.Run("a get of an unknown customer answers 404 resource_missing", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(), &fakeClaims{}), http.MethodGet, "/v1/customers/cus-nobody", "")
		wantError(t, w, http.StatusNotFound, CodeResourceMissing, "customer_id")
	})
	t.Run("a get without a token answers 401 authentication_required", func(t *testing.T) {
		h := fakeAdapter(t, newFakeStore(acmeCustomer()), &fakeClaims{})
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/v1/customers/cus-acme", nil))
		wantError(t, w, http.StatusUnauthorized, CodeAuthRequired, "")
	})
}

func TestCreateInvoice(t *testing.T) {
	const body = `{"customer_id":"cus-acme","currency":"eur","items":[{"description":"Support","quantity":2,"amount":1500}]}`
	t.Run("a create answers 201 with the pending invoice and its total", func(t *testing.T) {
		s := newFakeStore(acmeCustomer())
		w := serve(fakeAdapter(t, s, &fakeClaims{}), http.MethodPost, "/v1/invoices", body)
		got := decodeAs[apiobject.Invoice](t, w, http.StatusCreated)
		if got.Object != "invoice" || got.CustomerID != "cus-acme" || got.Status != "pending" ||
			got.Total == nil || *got.Total != 3000 || len(got.Items) != 1 {
			t.Errorf("unexpected invoice %+v", got)
		}
		if loc := w.Header().Get("Location"); loc != "/v1/invoices/"+got.ID {
			t.Errorf("Location %q, want /v1/invoices/%s", loc, got.ID)
		}
		if found, _ := s.Get(t.Context(), fakeWorkspace, got.ID, &billingv1.Invoice{}); !found {
			t.Error("the store was not told of the created invoice")
		}
	})
	t.Run("a create for an unknown customer answers 422 resource_missing with param customer_id", func(t *testing.T) {
		c := &fakeClaims{}
		w := serve(fakeAdapter(t, newFakeStore(), c), http.MethodPost, "/v1/invoices", body)
		wantError(t, w, http.StatusUnprocessableEntity, CodeResourceMissing, "customer_id")
		if len(c.requests) != 0 {
			t.Error("an invoice for an unknown customer was created")
		}
	})
	t.Run("a create with an unknown currency answers 422 parameter_invalid with param currency", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(acmeCustomer()), &fakeClaims{}), http.MethodPost, "/v1/invoices",
			`{"customer_id":"cus-acme","currency":"XYZ","items":[{"description":"Support","quantity":1,"amount":1}]}`)
		wantError(t, w, http.StatusUnprocessableEntity, CodeParameterInvalid, "currency")
	})
	t.Run("a create when the store cannot read the customer answers 503 api_unavailable", func(t *testing.T) {
		s := newFakeStore(acmeCustomer())
		s.err = context.DeadlineExceeded
		w := serve(fakeAdapter(t, s, &fakeClaims{}), http.MethodPost, "/v1/invoices", body)
		wantError(t, w, http.StatusServiceUnavailable, CodeAPIUnavailable, "")
	})
}

func TestGetInvoice(t *testing.T) {
	t.Run("a get of an invoice answers 200 with it", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(pendingInvoice()), &fakeClaims{}), http.MethodGet, "/v1/invoices/inv-1", "")
		got := decodeAs[apiobject.Invoice](t, w, http.StatusOK)
		if got.ID != "inv-1" || got.Status != "pending" || got.Currency != "EUR" || got.Total == nil || *got.Total != 3000 {
			t.Errorf("unexpected invoice %+v", got)
		}
	})
	t.Run("a get of an unknown invoice answers 404 resource_missing", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(), &fakeClaims{}), http.MethodGet, "/v1/invoices/inv-nothing", "")
		wantError(t, w, http.StatusNotFound, CodeResourceMissing, "invoice_id")
	})
	t.Run("a get of a pending invoice's document answers 409 invoice_not_issued", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(pendingInvoice()), &fakeClaims{}), http.MethodGet, "/v1/invoices/inv-1/document", "")
		wantError(t, w, http.StatusConflict, CodeInvoiceNotIssued, "invoice_id")
	})
	t.Run("a get of a document with as_issued other than true or false answers 422 parameter_invalid", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(issuedFakeInvoice(nil, 0)), &fakeClaims{}), http.MethodGet,
			"/v1/invoices/inv-1/document?as_issued=yes", "")
		wantError(t, w, http.StatusUnprocessableEntity, CodeParameterInvalid, "as_issued")
	})
	t.Run("a credit note's document has no as_issued", func(t *testing.T) {
		w := serve(fakeAdapter(t, newFakeStore(), &fakeClaims{}), http.MethodGet,
			"/v1/credit_notes/cn-1/document?as_issued=true", "")
		wantError(t, w, http.StatusBadRequest, CodeParameterUnknown, "as_issued")
	})
}
