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
	"encoding/base64"
	"encoding/json"
	"net/http"

	. "github.com/onsi/gomega"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// request is one HTTP request of a spec, built by option functions: the
// adapter it goes to, its body, and the v1client options of its headers.
type request struct {
	base string
	body []byte
	opts []v1client.Option
}

type reqOpt func(*request)

func header(o v1client.Option) reqOpt { return func(r *request) { r.opts = append(r.opts, o) } }

// as sends the request with a bearer token ("" sends none).
func as(token string) reqOpt { return header(v1client.Token(token)) }

func inWorkspace(ns string) reqOpt { return withHeader(WorkspaceHeader, ns) }

func withIdempotencyKey(k string) reqOpt { return withHeader(IdempotencyKeyHeader, k) }

func withHeader(k, v string) reqOpt { return header(v1client.Header(k, v)) }

func withContentType(ct string) reqOpt { return header(v1client.ContentType(ct)) }

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

func (r response) customer() apiobject.Customer {
	var c apiobject.Customer
	ExpectWithOffset(1, json.Unmarshal(r.body, &c)).To(Succeed(), "body: %s", r.body)
	return c
}

func (r response) invoice() apiobject.Invoice {
	var i apiobject.Invoice
	ExpectWithOffset(1, json.Unmarshal(r.body, &i)).To(Succeed(), "body: %s", r.body)
	return i
}

func (r response) invoices() apiobject.List[apiobject.Invoice] {
	var l apiobject.List[apiobject.Invoice]
	ExpectWithOffset(1, json.Unmarshal(r.body, &l)).To(Succeed(), "body: %s", r.body)
	return l
}

func (r response) customers() apiobject.List[apiobject.Customer] {
	var l apiobject.List[apiobject.Customer]
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
	r := &request{base: mainURL, opts: []v1client.Option{v1client.Token(writerToken)}}
	for _, o := range opts {
		o(r)
	}
	resp, err := apiClient(r.base).Do(context.Background(), method, path, r.body, r.opts...)
	if err != nil {
		return response{}, err
	}
	return response{status: resp.Status, header: resp.Header, body: resp.Body}, nil
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

// createCustomer creates a customer over HTTP as the writer, in the
// writer's own workspace unless opts say otherwise, and returns it.
func createCustomer(opts ...v1client.Option) apiobject.Customer {
	_, resp, err := apiClient(mainURL).With(v1client.Token(writerToken)).CreateCustomer(context.Background(),
		v1client.CustomerParams{Name: "Ada Lovelace", Email: "ada@example.com"}, opts...)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	ExpectWithOffset(1, resp.Status).To(Equal(http.StatusCreated), "body: %s", resp.Body)
	return response{body: resp.Body}.customer()
}

// The Kubernetes objects specs create through the API server, as kubectl
// would, are internal/test/builder's with what the specs read back.

// graceHopper is the name and email of the specs' customers.
func graceHopper() []builder.CustomerOption {
	return []builder.CustomerOption{builder.WithDisplayName("Grace Hopper"), builder.WithEmail("grace@example.com")}
}

// inEUR bills customer in EUR for items, by default two audits of 500.
func inEUR(customer string, items ...billingv1.LineItem) []builder.InvoiceOption {
	if len(items) == 0 {
		items = []billingv1.LineItem{{Description: "Audit", Quantity: billingv1.Units(2), Amount: 500}}
	}
	return []builder.InvoiceOption{builder.WithCustomer(customer), builder.WithCurrency("EUR"), builder.WithItems(items...)}
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
