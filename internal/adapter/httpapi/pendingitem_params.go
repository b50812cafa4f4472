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

// DecodePendingItem parses and validates a POST
// /v1/invoice_schedules/{id}/pending_items body: one line, with the fields
// and rules of an item of POST /v1/invoices (description, quantity,
// unit_code, amount, discount, tax), its params named without "items[i]":
// all 400s (structure and JSON types) before any 422 (values).
func DecodePendingItem(body []byte) (*ItemParams, *Error) {
	fields, e := bodyFields(body, itemFields)
	if e != nil {
		return nil, e
	}
	nodes, e := checkItem(fields, "")
	if e != nil {
		return nil, e
	}
	item, e := decodeItem(nodes, "")
	if e != nil {
		return nil, e
	}
	return &item, nil
}
