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

// maxWriteOffReason bounds a write-off's reason, as the WriteOff CRD does.
const maxWriteOffReason = 500

// WriteOffParams is a validated POST /v1/write_offs body. Its JSON is the
// request's fingerprint.
type WriteOffParams struct {
	InvoiceID string `json:"invoice_id"`
	Reason    string `json:"reason"`
}

// invoiceID is the invoice p names (invoiceRecordParams).
func (p *WriteOffParams) invoiceID() string { return p.InvoiceID }

// DecodeWriteOff parses and validates a POST /v1/write_offs body, with the
// same guarantees as DecodeInvoice: invoice_id and reason (1 to 500
// characters) are required. Whether anything remains of the invoice to
// write off is the handler's to check.
func DecodeWriteOff(body []byte) (*WriteOffParams, *Error) {
	fields, e := bodyFields(body, map[string]kind{fieldInvoiceID: kindString, "reason": kindString})
	if e != nil {
		return nil, e
	}
	p := &WriteOffParams{}
	if p.InvoiceID, e = requiredString(fields, "", fieldInvoiceID, maxObjectNameLength); e != nil {
		return nil, e
	}
	if p.Reason, e = requiredString(fields, "", "reason", maxWriteOffReason); e != nil {
		return nil, e
	}
	return p, nil
}
