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

package reconciler

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// invoiceAt is an invoice in ns created at created, in phase (empty: not
// yet seen by the controller) with the Ready reason reason.
func invoiceAt(ns string, created time.Time, phase billingv1.InvoicePhase, reason string) billingv1.Invoice {
	inv := billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, CreationTimestamp: metav1.NewTime(created)}}
	inv.Status.Phase = phase
	if reason != "" {
		inv.Status.Conditions = []metav1.Condition{{Type: billingv1.ConditionReady, Reason: reason}}
	}
	return inv
}

func TestCountInvoices(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	issued := func(ns string) billingv1.Invoice {
		return invoiceAt(ns, now.Add(-time.Hour), billingv1.InvoiceIssued, billingv1.ReasonIssued)
	}
	invalid := func(ns string, age time.Duration) billingv1.Invoice {
		return invoiceAt(ns, now.Add(-age), billingv1.InvoiceInvalid, billingv1.ReasonCustomerNotFound)
	}
	tests := []struct {
		name          string
		invoices      []billingv1.Invoice
		top           int
		wantPhase     map[phaseReason]int
		wantWorkspace map[workspacePhase]int
		wantOldest    map[string]time.Duration
	}{{
		name:          "no invoices export no series",
		top:           2,
		wantPhase:     map[phaseReason]int{},
		wantWorkspace: map[workspacePhase]int{},
		wantOldest:    map[string]time.Duration{},
	}, {
		name:     "an invoice without a phase counts as Pending, and its age as the oldest Pending",
		invoices: []billingv1.Invoice{invoiceAt("a", now.Add(-3*time.Second), "", ""), issued("a")},
		top:      2,
		wantPhase: map[phaseReason]int{
			{"Pending", ""}: 1, {"Issued", billingv1.ReasonIssued}: 1,
		},
		wantWorkspace: map[workspacePhase]int{{"a", "Pending"}: 1, {"a", "Issued"}: 1},
		wantOldest:    map[string]time.Duration{"Pending": 3 * time.Second},
	}, {
		name: "workspaces beyond the top are summed under _other, the largest named first",
		invoices: []billingv1.Invoice{
			issued("small"), issued("big"), issued("big"), issued("big"), issued("mid"), issued("mid"),
			invalid("small", time.Minute), invalid("tiny", 2*time.Hour), invalid("big", 10*time.Minute),
		},
		top: 2,
		wantPhase: map[phaseReason]int{
			{"Issued", billingv1.ReasonIssued}: 6, {"Invalid", billingv1.ReasonCustomerNotFound}: 3,
		},
		wantWorkspace: map[workspacePhase]int{
			{"big", "Issued"}: 3, {"big", "Invalid"}: 1,
			{"mid", "Issued"}:    2, // ties with small (2 invoices): by name
			{"_other", "Issued"}: 1, {"_other", "Invalid"}: 2,
		},
		wantOldest: map[string]time.Duration{"Invalid": 2 * time.Hour},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := countInvoices(tt.invoices, now, tt.top)
			if fmt.Sprint(got.byPhase) != fmt.Sprint(tt.wantPhase) {
				t.Errorf("by phase = %v, want %v", got.byPhase, tt.wantPhase)
			}
			if fmt.Sprint(got.byWorkspace) != fmt.Sprint(tt.wantWorkspace) {
				t.Errorf("by workspace = %v, want %v", got.byWorkspace, tt.wantWorkspace)
			}
			if fmt.Sprint(got.oldest) != fmt.Sprint(tt.wantOldest) {
				t.Errorf("oldest = %v, want %v", got.oldest, tt.wantOldest)
			}
		})
	}
}

func TestCountInvoicesLabelsAtMostTopPlusOneWorkspaces(t *testing.T) {
	var invoices []billingv1.Invoice
	for i := range 1000 {
		invoices = append(invoices, invoiceAt(fmt.Sprintf("team-%d", i), time.Now(), billingv1.InvoiceIssued, billingv1.ReasonIssued))
	}
	got := countInvoices(invoices, time.Now(), TopWorkspaces)
	workspaces := map[string]bool{}
	total := 0
	for k, n := range got.byWorkspace {
		workspaces[k.workspace] = true
		total += n
	}
	if len(workspaces) != TopWorkspaces+1 || !workspaces[otherWorkspaces] {
		t.Errorf("workspace labels = %d (%v), want %d including %s", len(workspaces), workspaces, TopWorkspaces+1, otherWorkspaces)
	}
	if total != 1000 {
		t.Errorf("invoices counted by workspace = %d, want 1000", total)
	}
}

func TestErrorReason(t *testing.T) {
	gr := schema.GroupResource{Group: billingv1.GroupVersion.Group, Resource: "invoices"}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"an API conflict is Conflict", fmt.Errorf("patching: %w", apierrors.NewConflict(gr, "a", errors.New("stale"))), "Conflict"},
		{"an API timeout is Timeout", apierrors.NewTimeoutError("slow", 1), "Timeout"},
		{"a canceled context is Canceled", fmt.Errorf("get: %w", context.Canceled), "Canceled"},
		{"a deadline is DeadlineExceeded", context.DeadlineExceeded, "DeadlineExceeded"},
		{"anything else is Unknown", errors.New("connection refused"), "Unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errorReason(tt.err); got != tt.want {
				t.Errorf("errorReason(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
}

func TestCountErrorsCountsEachErrorByControllerAndReason(t *testing.T) {
	gr := schema.GroupResource{Group: billingv1.GroupVersion.Group, Resource: "customers"}
	conflict := apierrors.NewConflict(gr, "a", errors.New("stale"))
	timeout := apierrors.NewTimeoutError("slow", 1)
	tests := []struct {
		name      string
		err       error
		reason    string
		passes    bool // the error reaches controller-runtime (and its log)
		requeued  bool // a requeue without an error
		wantCount float64
	}{
		{name: "a reconcile without an error counts nothing", reason: "Conflict"},
		{name: "a timeout is counted under Timeout and passed on",
			err: timeout, reason: "Timeout", passes: true, wantCount: 1},
		{name: "a conflict is counted under Conflict and retried without an error",
			err: conflict, reason: "Conflict", requeued: true, wantCount: 1},
		{name: "a wrapped conflict is counted and retried the same",
			err: fmt.Errorf("patching the status: %w", conflict), reason: "Conflict", requeued: true, wantCount: 1},
		{name: "a terminal conflict is counted and passed on, as it is not retried",
			err: reconcile.TerminalError(conflict), reason: "Conflict", passes: true, wantCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CountErrors("test-counting", reconcile.Func(func(context.Context, ctrl.Request) (ctrl.Result, error) {
				return ctrl.Result{}, tt.err
			}))
			counter := reconcileErrors.WithLabelValues("test-counting", tt.reason)
			before := testutil.ToFloat64(counter)
			res, err := r.Reconcile(context.Background(), ctrl.Request{})
			if tt.passes != (err != nil) || (tt.passes && !errors.Is(err, tt.err)) {
				t.Errorf("returned error %v, want it passed on: %v", err, tt.passes)
			}
			if got := res.Requeue; got != tt.requeued { //nolint:staticcheck // what controller-runtime reads
				t.Errorf("requeued %v, want %v", got, tt.requeued)
			}
			if got := testutil.ToFloat64(counter) - before; got != tt.wantCount {
				t.Errorf("counted %v errors, want %v", got, tt.wantCount)
			}
		})
	}
}

func TestRegisterMetricsTwiceIsFine(t *testing.T) {
	reg := prometheus.NewRegistry()
	for range 2 {
		if err := RegisterMetrics(reg, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestObserveEventsCountsOnlyTheEventsAPatchAdded(t *testing.T) {
	issued := billingv1.RecordedEvent{Type: billingv1.EventTypeInvoiceIssued, Sequence: 1}
	paid := billingv1.RecordedEvent{Type: billingv1.EventTypeInvoicePaid, Sequence: 7}
	overdue := billingv1.RecordedEvent{Type: billingv1.EventTypeInvoiceOverdue, Sequence: 5}
	tests := []struct {
		name          string
		before, after []billingv1.RecordedEvent
		want          map[billingv1.EventType]float64
	}{
		{name: "an invoice issued counts invoice.issued once",
			after: []billingv1.RecordedEvent{issued},
			want:  map[billingv1.EventType]float64{billingv1.EventTypeInvoiceIssued: 1}},
		{name: "a status patch that rewrites the events it had counts nothing",
			before: []billingv1.RecordedEvent{issued}, after: []billingv1.RecordedEvent{issued},
			want: map[billingv1.EventType]float64{billingv1.EventTypeInvoiceIssued: 0}},
		{name: "two facts observed in one patch count one each",
			before: []billingv1.RecordedEvent{issued}, after: []billingv1.RecordedEvent{issued, overdue, paid},
			want: map[billingv1.EventType]float64{billingv1.EventTypeInvoiceIssued: 0,
				billingv1.EventTypeInvoiceOverdue: 1, billingv1.EventTypeInvoicePaid: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := map[billingv1.EventType]float64{}
			for typ := range tc.want {
				before[typ] = testutil.ToFloat64(eventsRecorded.WithLabelValues(string(typ)))
			}
			ObserveEvents(tc.before, tc.after)
			for typ, want := range tc.want {
				if got := testutil.ToFloat64(eventsRecorded.WithLabelValues(string(typ))) - before[typ]; got != want {
					t.Errorf("%s counted %v, want %v", typ, got, want)
				}
			}
		})
	}
}
