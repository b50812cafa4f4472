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

package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// request is one HTTP request of a spec, built by option functions.
type request struct {
	base        string
	method      string
	path        string
	token       string
	header      http.Header
	body        []byte
	contentType string
}

type reqOpt func(*request)

// as sends the request with a bearer token ("" sends none).
func as(token string) reqOpt { return func(r *request) { r.token = token } }

func inWorkspace(ns string) reqOpt { return withHeader(WorkspaceHeader, ns) }

func withIdempotencyKey(k string) reqOpt { return withHeader(IdempotencyKeyHeader, k) }

func withHeader(k, v string) reqOpt { return func(r *request) { r.header.Add(k, v) } }

func withContentType(ct string) reqOpt { return func(r *request) { r.contentType = ct } }

// withJSON sends v, marshalled, as the body.
func withJSON(v any) reqOpt {
	return func(r *request) {
		b, err := json.Marshal(v)
		Expect(err).NotTo(HaveOccurred())
		r.body = b
	}
}

// withBody sends raw as the body.
func withBody(raw string) reqOpt { return func(r *request) { r.body = []byte(raw) } }

// on sends the request to another adapter.
func on(base string) reqOpt { return func(r *request) { r.base = base } }

// response is what came back; the transport has validated it against the
// OpenAPI document already.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json() map[string]any {
	var m map[string]any
	ExpectWithOffset(1, json.Unmarshal(r.body, &m)).To(Succeed(), "body: %s", r.body)
	return m
}

// apiErr is the "error" object of an error body.
func (r response) apiErr() errorFields {
	var b errorBody
	ExpectWithOffset(1, json.Unmarshal(r.body, &b)).To(Succeed(), "body: %s", r.body)
	return b.Error
}

func (r response) customer() Customer {
	var c Customer
	ExpectWithOffset(1, json.Unmarshal(r.body, &c)).To(Succeed(), "body: %s", r.body)
	return c
}

func (r response) invoice() Invoice {
	var i Invoice
	ExpectWithOffset(1, json.Unmarshal(r.body, &i)).To(Succeed(), "body: %s", r.body)
	return i
}

func (r response) invoices() List[Invoice] {
	var l List[Invoice]
	ExpectWithOffset(1, json.Unmarshal(r.body, &l)).To(Succeed(), "body: %s", r.body)
	return l
}

func (r response) customers() List[Customer] {
	var l List[Customer]
	ExpectWithOffset(1, json.Unmarshal(r.body, &l)).To(Succeed(), "body: %s", r.body)
	return l
}

// send sends a request to the main adapter (by default as the writer, in
// its own workspace) and returns the response. It fails the spec when the
// request cannot be sent or the response does not match openapi.json.
func send(method, path string, opts ...reqOpt) response {
	resp, err := try(method, path, opts...)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return resp
}

// try is send for goroutines: it returns the error instead of failing.
func try(method, path string, opts ...reqOpt) (response, error) {
	r := &request{base: mainURL, method: method, path: path, token: writerToken, header: http.Header{}}
	for _, o := range opts {
		o(r)
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
		if r.contentType == "" {
			r.contentType = "application/json"
		}
	}
	req, err := http.NewRequestWithContext(context.Background(), r.method, r.base+r.path, body)
	if err != nil {
		return response{}, err
	}
	req.Header = r.header
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	resp, err := httpClient().Do(req)
	if err != nil {
		return response{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: b}, err
}

// Bodies, built by option functions.

type bodyOpt func(map[string]any)

func set(k string, v any) bodyOpt { return func(m map[string]any) { m[k] = v } }

func without(k string) bodyOpt { return func(m map[string]any) { delete(m, k) } }

func customerBody(opts ...bodyOpt) map[string]any {
	m := map[string]any{"name": "Ada Lovelace", "email": "ada@example.com"}
	for _, o := range opts {
		o(m)
	}
	return m
}

func item(description string, quantity, amount any) map[string]any {
	return map[string]any{"description": description, "quantity": quantity, "amount": amount}
}

func invoiceBody(customerID string, opts ...bodyOpt) map[string]any {
	m := map[string]any{"customer_id": customerID, "items": []any{item("Consulting", 3, 15000)}}
	for _, o := range opts {
		o(m)
	}
	return m
}

// createCustomer creates a customer over HTTP as the writer and returns it.
func createCustomer(opts ...reqOpt) Customer {
	resp := send(http.MethodPost, "/v1/customers", append([]reqOpt{withJSON(customerBody())}, opts...)...)
	ExpectWithOffset(1, resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
	return resp.customer()
}

// Kubernetes objects, built by option functions.

func newCustomer(ns, name string) *billingv1.Customer {
	return &billingv1.Customer{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       billingv1.CustomerSpec{Name: "Grace Hopper", Email: "grace@example.com"},
	}
}

type invoiceOpt func(*billingv1.Invoice)

func withItems(items ...billingv1.LineItem) invoiceOpt {
	return func(i *billingv1.Invoice) { i.Spec.Items = items }
}

func newInvoice(ns, name, customer string, opts ...invoiceOpt) *billingv1.Invoice {
	inv := &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: billingv1.InvoiceSpec{
			CustomerRef: billingv1.CustomerReference{Name: customer},
			Currency:    "EUR",
			Items:       []billingv1.LineItem{{Description: "Audit", Quantity: 2, Amount: 500}},
		},
	}
	for _, o := range opts {
		o(inv)
	}
	return inv
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
