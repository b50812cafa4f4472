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
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Transport", func() {
	DescribeTable("refuses a body that is not sent as JSON with 415 unsupported_media_type",
		func(contentType string) {
			resp := send(http.MethodPost, "/v1/customers", withJSON(customerBody()), withContentType(contentType))
			Expect(resp.status).To(Equal(http.StatusUnsupportedMediaType))
			Expect(resp.apiErr().Code).To(Equal(CodeUnsupportedMediaType))
			Expect(resp.apiErr().Type).To(Equal("invalid_request_error"))
		},
		Entry("text/plain", "text/plain"),
		Entry("a form", "application/x-www-form-urlencoded"),
		Entry("a malformed media type", "application/json; ==="),
		Entry("JSON in another charset", "application/json; charset=latin1"),
	)

	It("refuses a POST without a Content-Type with 415", func() {
		resp := send(http.MethodPost, "/v1/customers")
		Expect(resp.status).To(Equal(http.StatusUnsupportedMediaType))
	})

	It("accepts application/json with parameters such as charset", func() {
		resp := send(http.MethodPost, "/v1/customers", withJSON(customerBody()),
			withContentType("Application/JSON; charset=UTF-8"))
		Expect(resp.status).To(Equal(http.StatusCreated))
	})

	It("refuses a body over 1 MiB with 413 body_too_large", func() {
		big := `{"name": "` + strings.Repeat("a", MaxBodyBytes) + `", "email": "ada@example.com"}`
		resp := send(http.MethodPost, "/v1/customers", withBody(big))
		Expect(resp.status).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(resp.apiErr().Code).To(Equal(CodeBodyTooLarge))
	})

	It("accepts a body of exactly 1 MiB", func() {
		// 500 items with long descriptions, padded with white space to 1 MiB.
		items := make([]any, 500)
		for i := range items {
			items[i] = item(strings.Repeat("d", 1000), 1, 1)
		}
		cust := createCustomer()
		b, err := json.Marshal(invoiceBody(cust.ID, set("items", items)))
		Expect(err).NotTo(HaveOccurred())
		body := string(b) + strings.Repeat(" ", MaxBodyBytes-len(b))
		Expect(body).To(HaveLen(MaxBodyBytes))
		resp := send(http.MethodPost, "/v1/invoices", withBody(body))
		Expect(resp.status).To(Equal(http.StatusCreated), "body: %s", resp.body)
	})

	DescribeTable("answers a malformed body with 400 and the parameter",
		func(body, code, param string) {
			resp := send(http.MethodPost, "/v1/customers", withBody(body))
			Expect(resp.status).To(Equal(http.StatusBadRequest), "body: %s", resp.body)
			Expect(resp.apiErr().Code).To(Equal(code))
			Expect(resp.apiErr().Param).To(Equal(param))
		},
		Entry("malformed JSON", `{"name": "Ada",`, CodeBodyInvalid, ""),
		Entry("an empty body", ``, CodeBodyInvalid, ""),
		Entry("trailing data after the object", `{"name": "Ada", "email": "ada@example.com"} {}`, CodeBodyInvalid, ""),
		Entry("an array instead of an object", `[]`, CodeBodyInvalid, ""),
		Entry("invalid UTF-8", "{\"name\": \"\xff\", \"email\": \"ada@example.com\"}", CodeBodyInvalid, ""),
		Entry("a duplicated field", `{"name": "Ada", "name": "Eve", "email": "ada@example.com"}`, CodeBodyInvalid, "name"),
		Entry("an unknown field", `{"name": "Ada", "email": "ada@example.com", "phone": "1"}`, CodeParameterUnknown, "phone"),
		Entry("a name that is a number", `{"name": 3, "email": "ada@example.com"}`, CodeParameterInvalid, "name"),
		Entry("an e-mail that is an object", `{"name": "Ada", "email": {}}`, CodeParameterInvalid, "email"),
	)

	DescribeTable("answers a wrongly typed invoice with 400 and the JSON path",
		func(body, code, param string) {
			resp := send(http.MethodPost, "/v1/invoices", withBody(body))
			Expect(resp.status).To(Equal(http.StatusBadRequest), "body: %s", resp.body)
			Expect(resp.apiErr().Code).To(Equal(code))
			Expect(resp.apiErr().Param).To(Equal(param))
		},
		Entry("a quantity that is a boolean", `{"customer_id": "c", "items": [{"description": "x", "quantity": true, "amount": 1}]}`,
			CodeParameterInvalid, "items[0].quantity"),
		Entry("an amount that is a boolean", `{"customer_id": "c", "items": [{"description": "x", "quantity": 3, "amount": true}]}`,
			CodeParameterInvalid, "items[0].amount"),
		Entry("items that are an object", `{"customer_id": "c", "items": {}}`, CodeParameterInvalid, "items"),
		Entry("an item that is a string", `{"customer_id": "c", "items": [{"description": "x", "quantity": 3, "amount": 1}, "x"]}`,
			CodeParameterInvalid, "items[1]"),
		Entry("an unknown item field", `{"customer_id": "c", "items": [{"description": "x", "quantity": 3, "amount": 1, "vat": 1}]}`,
			CodeParameterUnknown, "items[0].vat"),
		Entry("a tax that is a number", `{"customer_id": "c", "items": [{"description": "x", "quantity": 3, "amount": 1, "tax": 19}]}`,
			CodeParameterInvalid, "items[0].tax"),
		Entry("a currency that is a number", `{"customer_id": "c", "currency": 840, "items": []}`, CodeParameterInvalid, "currency"),
		Entry("a type error after a value error", `{"customer_id": "", "items": [{"description": "x", "quantity": [], "amount": 1}]}`,
			CodeParameterInvalid, "items[0].quantity"),
	)

	It("answers an unknown path with a 404 error body", func() {
		for _, path := range []string{"/", "/v1", "/v1/nothing", "/v2/customers", "/v1/customers/a/b", "/v1/customers/"} {
			resp := send(http.MethodGet, path)
			Expect(resp.status).To(Equal(http.StatusNotFound), path)
			Expect(resp.apiErr().Code).To(Equal(CodePathUnknown), path)
			Expect(resp.apiErr().Type).To(Equal("invalid_request_error"))
		}
	})

	DescribeTable("answers a known path with another method with 405 and Allow",
		func(method, path, allow string) {
			resp := send(method, path)
			Expect(resp.status).To(Equal(http.StatusMethodNotAllowed))
			Expect(resp.header.Get("Allow")).To(Equal(allow))
			Expect(resp.apiErr().Code).To(Equal(CodeMethodNotAllowed))
		},
		Entry("DELETE on a customer", http.MethodDelete, "/v1/customers/cus-1", "GET, HEAD"),
		Entry("PUT on the customers", http.MethodPut, "/v1/customers", "GET, HEAD, POST"),
		Entry("PATCH on an invoice", http.MethodPatch, "/v1/invoices/inv-1", "GET, HEAD"),
		Entry("POST on the document", http.MethodPost, "/v1/openapi.json", "GET, HEAD"),
	)

	It("echoes a sane Request-Id and repeats it in error bodies", func() {
		resp := send(http.MethodGet, "/v1/customers/nope", withHeader(RequestIDHeader, "client-42.a_b:c"))
		Expect(resp.header.Get(RequestIDHeader)).To(Equal("client-42.a_b:c"))
		Expect(resp.apiErr().RequestID).To(Equal("client-42.a_b:c"))
	})

	It("replaces an insane Request-Id with its own", func() {
		for _, id := range []string{"has space", strings.Repeat("a", 201), "<script>"} {
			resp := send(http.MethodGet, "/v1/customers/nope", withHeader(RequestIDHeader, id))
			got := resp.header.Get(RequestIDHeader)
			Expect(got).NotTo(Equal(id))
			Expect(got).To(MatchRegexp(`^req-[0-9a-z]{26}$`))
			Expect(resp.apiErr().RequestID).To(Equal(got))
		}
	})

	It("gives every request its own id", func() {
		a := send(http.MethodGet, "/healthz").header.Get(RequestIDHeader)
		b := send(http.MethodGet, "/healthz").header.Get(RequestIDHeader)
		Expect(a).NotTo(Equal(b))
	})

	It("refuses unknown and repeated query parameters", func() {
		resp := send(http.MethodGet, "/v1/customers?colour=red")
		Expect(resp.status).To(Equal(http.StatusBadRequest))
		Expect(resp.apiErr().Code).To(Equal(CodeParameterUnknown))
		Expect(resp.apiErr().Param).To(Equal("colour"))

		resp = send(http.MethodGet, "/v1/customers?limit=1&limit=2")
		Expect(resp.status).To(Equal(http.StatusBadRequest))
		Expect(resp.apiErr().Param).To(Equal("limit"))

		resp = send(http.MethodGet, "/v1/customers?limit=%zz")
		Expect(resp.status).To(Equal(http.StatusBadRequest))
		Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid))
	})

	It("serves health, readiness and the OpenAPI document without authentication", func() {
		for _, path := range []string{"/healthz", "/readyz"} {
			resp := send(http.MethodGet, path, as(""))
			Expect(resp.status).To(Equal(http.StatusOK), path)
			Expect(resp.json()).To(Equal(map[string]any{"status": "ok"}))
		}
		resp := send(http.MethodGet, "/v1/openapi.json", as(""))
		Expect(resp.status).To(Equal(http.StatusOK))
		doc := resp.json()
		Expect(doc).To(HaveKeyWithValue("openapi", "3.1.0"))
		Expect(doc["paths"]).To(HaveKey("/v1/invoices/{invoice_id}"))
		var served, embedded any
		Expect(json.Unmarshal(resp.body, &served)).To(Succeed())
		Expect(json.Unmarshal(OpenAPIDocument(), &embedded)).To(Succeed())
		Expect(served).To(Equal(embedded))
	})

	It("documents every error code the adapter can answer", func() {
		doc := string(OpenAPIDocument())
		for _, code := range []string{
			CodeBodyInvalid, CodeBodyTooLarge, CodeParameterInvalid, CodeParameterMissing, CodeParameterUnknown,
			CodeUnsupportedMediaType, CodeWorkspaceRequired, CodeResourceMissing, CodePathUnknown,
			CodeMethodNotAllowed, CodeIdempotencyReused, CodeIdempotencyInUse, CodeInvoiceNotIssued, CodeAuthRequired, CodeTokenInvalid,
			CodePermissionDenied, CodeRateLimited, CodeAPIUnavailable, CodeInternal,
		} {
			Expect(doc).To(ContainSubstring(fmt.Sprintf("%q", code)))
		}
	})
})
