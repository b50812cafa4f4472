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

package apiobject

import (
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// PendingItem is the /v1 representation of a PendingItem: its line, as an
// invoice's items answer one, its schedule, and which invoice took it.
type PendingItem struct {
	ID         string `json:"id"`
	Object     string `json:"object"`
	Workspace  string `json:"workspace"`
	ScheduleID string `json:"schedule_id"`
	Item
	// Status is "pending" until an invoice takes it ("taken"), or
	// "invalid" when it cannot be invoiced with its schedule's template
	// (StatusReason says why).
	Status       string  `json:"status"`
	StatusReason *string `json:"status_reason"`
	InvoiceID    *string `json:"invoice_id"`
	TakenAt      *string `json:"taken_at"`
	CreatedAt    string  `json:"created_at"`
}

// PendingItemOf is the /v1 representation of p.
func PendingItemOf(p *billingv1.PendingItem) PendingItem {
	line := InvoiceOf(&billingv1.Invoice{Spec: billingv1.InvoiceSpec{Items: []billingv1.LineItem{p.Spec.Item},
		DefaultTaxFrom: billingv1.DefaultTaxNone}}).Items[0]
	out := PendingItem{ID: p.Name, Object: "pending_item", Workspace: p.Namespace, ScheduleID: p.Spec.ScheduleRef.Name,
		Item: line, Status: "pending", InvoiceID: optional(p.Status.Invoice), TakenAt: optionalTimestamp(p.Status.TakenAt),
		CreatedAt: timestamp(p.CreationTimestamp.Time)}
	if p.Status.Phase != "" {
		out.Status = strings.ToLower(string(p.Status.Phase))
	}
	if p.Status.Phase == billingv1.PendingItemInvalid {
		out.StatusReason = optional(p.Status.Message)
	}
	return out
}
