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

package numbering

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// A period close given its period.closed sequence before a crash, and found
// Superseded or Invalid after it, never writes it: its journal entry is
// gone, and the sequence is freed for the next fact. A close that may
// still close keeps its entry.
func TestAPeriodCloseThatEndsWithoutClosingFreesItsEventSequence(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := billingv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	entry := billingv1.SequenceReservation{Sequence: 4, Invoice: "pc", UID: "uid-pc", Fact: billingv1.EventTypePeriodClosed}
	for phase, want := range map[billingv1.PeriodClosePhase]fate{
		billingv1.PeriodClosePending:    pending,
		billingv1.PeriodCloseSuperseded: gone,
		billingv1.PeriodCloseInvalid:    gone,
	} {
		pc := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pc", UID: "uid-pc"},
			Status: billingv1.PeriodCloseStatus{Phase: phase}}
		reader := EventReader(fake.NewClientBuilder().WithScheme(scheme).WithObjects(pc).Build())
		state, found, err := lookup(context.Background(), reader, types.NamespacedName{Namespace: "ns", Name: "pc"},
			billingv1.EventTypePeriodClosed)
		if err != nil {
			t.Fatalf("%s: %v", phase, err)
		}
		if got := fateOf(entry, state, found, true); got != want {
			t.Errorf("a %s close's entry has fate %v, want %v", phase, got, want)
		}
	}
	closed := &billingv1.PeriodClose{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pc", UID: "uid-pc"},
		Status: billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, Events: []billingv1.RecordedEvent{
			{Type: billingv1.EventTypePeriodClosed, Sequence: 4}}}}
	reader := EventReader(fake.NewClientBuilder().WithScheme(scheme).WithObjects(closed).Build())
	state, found, err := lookup(context.Background(), reader, types.NamespacedName{Namespace: "ns", Name: "pc"},
		billingv1.EventTypePeriodClosed)
	if err != nil || fateOf(entry, state, found, true) != written {
		t.Errorf("a Closed close with its event: state %+v, found %v, err %v; want its entry written", state, found, err)
	}
}
