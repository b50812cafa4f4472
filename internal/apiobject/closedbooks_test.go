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

package apiobject_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// sealed is obj with the sealed-in label of seal name, as the store
// serves a record of a seal.
func sealed[O client.Object](obj O, name string) O {
	obj.SetLabels(map[string]string{"team": "a", billingv1.LabelSealedIn: name})
	return obj
}

func TestEveryRecordSaysWhichSealHoldsIt(t *testing.T) {
	payment := func() *billingv1.Payment {
		return &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay-a", Namespace: "ws"},
			Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-a"}, Amount: 1, Currency: "EUR"}}
	}
	note := func() *billingv1.CreditNote {
		return &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Name: "cn-a", Namespace: "ws"}}
	}
	cases := []struct {
		name string
		json any
		want string
	}{
		{"a live invoice has a null seal", apiobject.InvoiceOf(issuedInvoice(0)), `"seal":null`},
		{"a sealed invoice names its seal", apiobject.InvoiceOf(sealed(issuedInvoice(0), "seal-000001")),
			`"seal":"seal-000001"`},
		{"a live credit note has a null seal", apiobject.CreditNoteOf(note(), nil), `"seal":null`},
		{"a sealed credit note names its seal", apiobject.CreditNoteOf(sealed(note(), "seal-000002"), nil),
			`"seal":"seal-000002"`},
		{"a live payment has a null seal", apiobject.PaymentOf(payment(), nil), `"seal":null`},
		{"a sealed payment names its seal", apiobject.PaymentOf(sealed(payment(), "seal-000003"), nil),
			`"seal":"seal-000003"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.json)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("%s does not hold %s", b, tc.want)
			}
		})
	}
}

func TestARecordAlreadySealedSaysSo(t *testing.T) {
	invalid := []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse,
		Reason: billingv1.ReasonAlreadySealed}}
	inv := issuedInvoice(0)
	inv.Status = billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid, Conditions: invalid}
	if got := apiobject.InvoiceOf(inv); got.Status != "invalid" || ptr.Deref(got.StatusReason, "") != "already_sealed" {
		t.Errorf("invoice: %s %v", got.Status, got.StatusReason)
	}
	cn := &billingv1.CreditNote{Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteInvalid, Conditions: invalid}}
	if got := apiobject.CreditNoteOf(cn, nil); got.Status != "invalid" || ptr.Deref(got.StatusReason, "") != "already_sealed" {
		t.Errorf("credit note: %s %v", got.Status, got.StatusReason)
	}
}

func TestAPeriodCloseShowsItsOwnAndTheWorkspacesClosedThrough(t *testing.T) {
	oct := time.Date(2026, 10, 31, 22, 59, 59, 0, time.UTC)
	nov := time.Date(2026, 11, 30, 22, 59, 59, 0, time.UTC)
	ready := func(reason string) []metav1.Condition {
		return []metav1.Condition{{Type: billingv1.ConditionReady, Status: metav1.ConditionFalse, Reason: reason}}
	}
	pc := func(phase billingv1.PeriodClosePhase, through *time.Time, conds []metav1.Condition) *billingv1.PeriodClose {
		out := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Name: "pclose-a", Namespace: "ws"},
			Spec:   billingv1.PeriodCloseSpec{Through: "2026-10"},
			Status: billingv1.PeriodCloseStatus{Phase: phase, Conditions: conds}}
		if through != nil {
			out.Status.ClosedThrough = &metav1.Time{Time: *through}
		}
		return out
	}
	cases := []struct {
		name                                  string
		close                                 *billingv1.PeriodClose
		workspace                             *time.Time
		status, reason, closed, workspaceWant string
	}{
		{name: "a new close is pending, in a workspace not closed", close: pc("", nil, nil), status: "pending"},
		{name: "a close whose month has not ended says so", close: pc(billingv1.PeriodClosePending, &oct,
			ready(billingv1.ReasonPeriodNotEnded)), status: "pending", reason: "period_not_ended",
			closed: "2026-10-31T22:59:59Z"},
		{name: "a closed close shows the workspace's later closed_through", workspace: &nov,
			close: pc(billingv1.PeriodCloseClosed, &oct, nil), status: "closed", closed: "2026-10-31T22:59:59Z",
			workspaceWant: "2026-11-30T22:59:59Z"},
		{name: "a superseded close says why", workspace: &nov, close: pc(billingv1.PeriodCloseSuperseded, &oct,
			ready(billingv1.ReasonAlreadyClosed)), status: "superseded", reason: "already_closed",
			closed: "2026-10-31T22:59:59Z", workspaceWant: "2026-11-30T22:59:59Z"},
		{name: "an invalid close says why", close: pc(billingv1.PeriodCloseInvalid, nil,
			ready(billingv1.ReasonInvalidThrough)), status: "invalid", reason: "invalid_through"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := apiobject.PeriodCloseOf(tc.close, tc.workspace)
			if got.ID != "pclose-a" || got.Object != "period_close" || got.Workspace != "ws" || got.Through != "2026-10" ||
				got.Status != tc.status || ptr.Deref(got.StatusReason, "") != tc.reason ||
				ptr.Deref(got.ClosedThrough, "") != tc.closed || ptr.Deref(got.WorkspaceClosedThrough, "") != tc.workspaceWant {
				t.Errorf("got %+v", got)
			}
		})
	}
}

func TestTheEventsOfClosedBooksCarryTheirObjects(t *testing.T) {
	oct := time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)
	pc := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Name: "pclose-a", Namespace: "ws"},
		Spec: billingv1.PeriodCloseSpec{Through: "2026-10"},
		Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed,
			ClosedThrough: &metav1.Time{Time: oct}}}
	closed, ok := apiobject.EventDataOf(pc, nil).Object.(apiobject.PeriodClose)
	if !ok || ptr.Deref(closed.ClosedThrough, "") != "2026-10-31T23:59:59Z" ||
		ptr.Deref(closed.WorkspaceClosedThrough, "") != "2026-10-31T23:59:59Z" {
		t.Errorf("period.closed carries %+v, want the close through 2026-10-31T23:59:59Z", closed)
	}
	s := &billingv1.LedgerSeal{ObjectMeta: metav1.ObjectMeta{Name: "seal-000007", Namespace: "ws"},
		Spec: billingv1.LedgerSealSpec{Sequence: 7, Hash: strings.Repeat("a", 64), PreviousHash: strings.Repeat("b", 64),
			PayloadSHA256: strings.Repeat("c", 64), Payload: "H4sI", Counts: billingv1.SealCounts{Invoices: 2, Payments: 1},
			ClosedThrough: metav1.NewTime(oct)}}
	got, ok := apiobject.EventDataOf(s, nil).Object.(apiobject.Seal)
	if !ok || got.ID != "seal-000007" || got.Sequence != 7 || got.Hash != s.Spec.Hash || got.Counts.Invoices != 2 {
		t.Errorf("ledger.sealed carries %+v", got)
	}
	b, _ := json.Marshal(got)
	if strings.Contains(string(b), "H4sI") || strings.Contains(string(b), "payload\"") {
		t.Errorf("a seal's JSON holds its payload: %s", b)
	}
}
