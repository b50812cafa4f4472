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

// CreditApplicationParams is a validated POST /v1/credit_applications
// body. Its JSON is the request's fingerprint.
type CreditApplicationParams struct {
	InvoiceID string `json:"invoice_id"`
	Amount    int64  `json:"amount"`
}

// invoiceID is the invoice p names (invoiceRecordParams).
func (p *CreditApplicationParams) invoiceID() string { return p.InvoiceID }

// DecodeCreditApplication parses and validates a POST
// /v1/credit_applications body, with the same guarantees as DecodeInvoice:
// invoice_id is required, amount a whole number from 1 to 2^53-1. Whether
// the customer's credit and the invoice take that much is the handler's to
// check.
func DecodeCreditApplication(body []byte) (*CreditApplicationParams, *Error) {
	fields, e := bodyFields(body, map[string]kind{fieldInvoiceID: kindString, fieldAmount: kindNumber})
	if e != nil {
		return nil, e
	}
	p := &CreditApplicationParams{}
	if p.InvoiceID, p.Amount, e = invoiceAndAmount(fields); e != nil {
		return nil, e
	}
	return p, nil
}
