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
	"cmp"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// PeriodClose is the /v1 representation of a PeriodClose.
//
// ClosedThrough is this close's own moment (status.closedThrough: its
// through resolved in the workspace's time zone), null until the
// controller resolved it. WorkspaceClosedThrough is how far the
// workspace's books are closed (billing.ClosedThrough over its closes in
// phase Closed) when the answer was made, null while none is: every answer
// of /v1/period_closes carries it. In a period.closed event it is the
// moment the event closed the workspace through, the close's own
// ClosedThrough.
type PeriodClose struct {
	ID                     string  `json:"id"`
	Object                 string  `json:"object"`
	Workspace              string  `json:"workspace"`
	Through                string  `json:"through"`
	ClosedThrough          *string `json:"closed_through"`
	WorkspaceClosedThrough *string `json:"workspace_closed_through"`
	// Status is pending, closed, superseded or invalid.
	Status string `json:"status"`
	// StatusReason says why a close is not closed: period_not_ended
	// (pending until its moment has passed), already_closed (superseded)
	// or invalid_through (invalid); null otherwise.
	StatusReason *string `json:"status_reason"`
	CreatedAt    string  `json:"created_at"`
}

// periodCloseReasons are the values of a period close's status_reason, by
// its Ready condition's reason.
var periodCloseReasons = map[string]string{
	billingv1.ReasonPeriodNotEnded: "period_not_ended",
	billingv1.ReasonAlreadyClosed:  "already_closed",
	billingv1.ReasonInvalidThrough: "invalid_through",
}

// PeriodCloseOf is the /v1 representation of pc, in a workspace closed
// through workspaceClosedThrough (nil: not closed at all).
func PeriodCloseOf(pc *billingv1.PeriodClose, workspaceClosedThrough *time.Time) PeriodClose {
	phase := cmp.Or(pc.Status.Phase, billingv1.PeriodClosePending)
	out := PeriodClose{
		ID: pc.Name, Object: "period_close", Workspace: pc.Namespace, Through: pc.Spec.Through,
		ClosedThrough: optionalTimestamp(pc.Status.ClosedThrough), Status: strings.ToLower(string(phase)),
		CreatedAt: timestamp(pc.CreationTimestamp.Time),
	}
	if workspaceClosedThrough != nil {
		s := timestamp(*workspaceClosedThrough)
		out.WorkspaceClosedThrough = &s
	}
	if phase != billingv1.PeriodCloseClosed {
		if ready := meta.FindStatusCondition(pc.Status.Conditions, billingv1.ConditionReady); ready != nil {
			if reason, ok := periodCloseReasons[ready.Reason]; ok {
				out.StatusReason = &reason
			}
		}
	}
	return out
}

// PeriodCloseList is a page of period closes, with the workspace's
// closed_through (null while its books are not closed).
type PeriodCloseList struct {
	Object        string        `json:"object"`
	Data          []PeriodClose `json:"data"`
	HasMore       bool          `json:"has_more"`
	NextCursor    *string       `json:"next_cursor"`
	ClosedThrough *string       `json:"closed_through"`
}

// PeriodCloseListOf is the page of period closes page, whose workspace is
// closed through closedThrough (nil: not closed); more and next are the
// list's has_more and next_cursor.
func PeriodCloseListOf(page []*billingv1.PeriodClose, closedThrough *time.Time, more bool, next *string) PeriodCloseList {
	out := PeriodCloseList{Object: "list", Data: make([]PeriodClose, len(page)), HasMore: more, NextCursor: next}
	for i, pc := range page {
		out.Data[i] = PeriodCloseOf(pc, closedThrough)
	}
	if closedThrough != nil {
		s := timestamp(*closedThrough)
		out.ClosedThrough = &s
	}
	return out
}

// Seal is the /v1 representation of a LedgerSeal: its metadata and
// hashes, never its payload (GET /v1/seals/{name}/payload serves that).
type Seal struct {
	ID                 string     `json:"id"`
	Object             string     `json:"object"`
	Workspace          string     `json:"workspace"`
	Sequence           int64      `json:"sequence"`
	Hash               string     `json:"hash"`
	PreviousHash       string     `json:"previous_hash"`
	PayloadSHA256      string     `json:"payload_sha256"`
	Counts             SealCounts `json:"counts"`
	ClosedThrough      string     `json:"closed_through"`
	FirstInvoiceNumber string     `json:"first_invoice_number"`
	LastInvoiceNumber  string     `json:"last_invoice_number"`
	CreatedAt          string     `json:"created_at"`
}

// SealCounts is how many records of each kind a seal holds.
type SealCounts struct {
	Invoices           int32 `json:"invoices"`
	CreditNotes        int32 `json:"credit_notes"`
	Payments           int32 `json:"payments"`
	CreditApplications int32 `json:"credit_applications"`
	WriteOffs          int32 `json:"write_offs"`
	Refunds            int32 `json:"refunds"`
	Emails             int32 `json:"emails"`
}

// SealOf is the /v1 representation of s.
func SealOf(s *billingv1.LedgerSeal) Seal {
	sp := &s.Spec
	return Seal{
		ID: s.Name, Object: "seal", Workspace: s.Namespace, Sequence: sp.Sequence, Hash: sp.Hash,
		PreviousHash: sp.PreviousHash, PayloadSHA256: sp.PayloadSHA256,
		Counts: SealCounts{Invoices: sp.Counts.Invoices, CreditNotes: sp.Counts.CreditNotes, Payments: sp.Counts.Payments,
			CreditApplications: sp.Counts.CreditApplications, WriteOffs: sp.Counts.WriteOffs, Refunds: sp.Counts.Refunds,
			Emails: sp.Counts.Emails},
		ClosedThrough: timestamp(sp.ClosedThrough.Time), FirstInvoiceNumber: sp.FirstInvoiceNumber,
		LastInvoiceNumber: sp.LastInvoiceNumber, CreatedAt: timestamp(s.CreationTimestamp.Time),
	}
}

// SealVerification is the answer of GET /v1/seals/verify: Verified with
// the chain's Head (the last seal's hash, 64 zeros without seals), or not,
// with the first Broken link.
type SealVerification struct {
	Verified bool        `json:"verified"`
	Seals    int         `json:"seals"`
	Head     *string     `json:"head,omitempty"`
	Broken   *BrokenLink `json:"broken,omitempty"`
}

// BrokenLink names the seal whose check failed, and why.
type BrokenLink struct {
	Seal     string `json:"seal"`
	Sequence int64  `json:"sequence"`
	Reason   string `json:"reason"`
}

// closedThroughOfEvent is the workspace's closed_through that a
// period.closed event about pc set: the close's own.
func closedThroughOfEvent(pc *billingv1.PeriodClose) *time.Time {
	if pc.Status.ClosedThrough == nil {
		return nil
	}
	t := pc.Status.ClosedThrough.Time
	return &t
}
