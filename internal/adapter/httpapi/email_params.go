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
	"net/http"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// maxRecipients bounds the addresses of a send, as the Email CRD does.
const maxRecipients = 10

// SendParams is a validated body of POST /v1/invoices/{id}/send, POST
// /v1/credit_notes/{id}/send and POST /v1/customers/{id}/statement/send:
// the recipients, none for the customer's e-mail. A statement's from and
// to are its query's, as sent ("" for the default), so that its
// Idempotency-Key is bound to them too. Its JSON is the request's
// fingerprint.
type SendParams struct {
	To            []string `json:"to"`
	StatementFrom string   `json:"statement_from,omitempty"`
	StatementTo   string   `json:"statement_to,omitempty"`
}

// DecodeSend parses and validates the body of a send, with the same
// guarantees as DecodeInvoice: {} (or an empty body) or {"to": [...]}, up
// to 10 plain e-mail addresses (billing.ValidEmail), each once. An address
// that is not one, one too many or one repeated is 422 parameter_invalid
// on to; to of the wrong JSON type, or an element that is no string, is
// 400 parameter_invalid on to. An empty list is none.
func DecodeSend(body []byte) (*SendParams, *Error) {
	fields, e := bodyFields(body, map[string]kind{queryTo: kindArray})
	if e != nil {
		return nil, e
	}
	p := &SendParams{}
	to := fields[queryTo]
	if to == nil {
		return p, nil
	}
	for i, el := range to.elems {
		if el.kind != kindString {
			return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, queryTo,
				"%s must be a string, not %s.", elem(queryTo, i), el.kind)
		}
	}
	if len(to.elems) > maxRecipients {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, queryTo,
			"to may name at most %d addresses, not %d.", maxRecipients, len(to.elems))
	}
	seen := make(map[string]bool, len(to.elems))
	for i, el := range to.elems {
		if !billing.ValidEmail(el.s) {
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, queryTo,
				"%s must be a plain e-mail address such as ada@example.com, of at most %d characters.",
				elem(queryTo, i), billing.MaxEmailLength)
		}
		if seen[el.s] {
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, queryTo,
				"%s repeats the address %s.", elem(queryTo, i), el.s)
		}
		seen[el.s] = true
		p.To = append(p.To, el.s)
	}
	return p, nil
}
