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

package sealing

import (
	"errors"
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

func TestPeriodCloseStatus(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	closed := func(name string, through time.Time) billingv1.PeriodClose {
		return *builder.ClosedPeriodClose("ns", name, metav1.NewTime(through))
	}
	octEndUTC := time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)
	tests := []struct {
		name          string
		through       string
		in            periodCloseInput
		wantPhase     billingv1.PeriodClosePhase
		wantReason    string
		wantCondition string
		wantThrough   time.Time
		wantWait      time.Duration
		wantMessage   string
	}{
		{name: "a month past in UTC closes through its last second",
			through: "2026-10", in: periodCloseInput{zone: time.UTC, now: at},
			wantPhase: billingv1.PeriodCloseClosed, wantReason: billingv1.ReasonClosed,
			wantCondition: billingv1.ConditionReady, wantThrough: octEndUTC},
		{name: "a day past in the workspace's zone closes through its end there",
			through: "2026-11-19", in: periodCloseInput{zone: berlin, now: at},
			wantPhase: billingv1.PeriodCloseClosed, wantReason: billingv1.ReasonClosed,
			wantCondition: billingv1.ConditionReady, wantThrough: time.Date(2026, 11, 19, 22, 59, 59, 0, time.UTC)},
		{name: "an instant a second ago closes through it",
			through: "2026-11-20T09:59:59Z", in: periodCloseInput{zone: time.UTC, now: at},
			wantPhase: billingv1.PeriodCloseClosed, wantReason: billingv1.ReasonClosed,
			wantCondition: billingv1.ConditionReady, wantThrough: at.Add(-time.Second)},
		{name: "the moment itself has not ended: it waits one second",
			through: "2026-11-20T10:00:00Z", in: periodCloseInput{zone: time.UTC, now: at},
			wantPhase: billingv1.PeriodClosePending, wantReason: billingv1.ReasonPeriodNotEnded,
			wantCondition: billingv1.ConditionReconciling, wantWait: time.Second},
		{name: "the current month waits until it ends",
			through: "2026-11", in: periodCloseInput{zone: time.UTC, now: at},
			wantPhase: billingv1.PeriodClosePending, wantReason: billingv1.ReasonPeriodNotEnded,
			wantCondition: billingv1.ConditionReconciling,
			wantWait:      time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Sub(at)},
		{name: "a workspace closed later by another close supersedes it",
			through: "2026-09", in: periodCloseInput{zone: time.UTC, now: at,
				closes: []billingv1.PeriodClose{closed("oct", octEndUTC)}},
			wantPhase: billingv1.PeriodCloseSuperseded, wantReason: billingv1.ReasonAlreadyClosed,
			wantCondition: billingv1.ConditionStalled, wantMessage: `PeriodClose "oct"`},
		{name: "a workspace closed through the same moment supersedes it",
			through: "2026-10", in: periodCloseInput{zone: time.UTC, now: at,
				closes: []billingv1.PeriodClose{closed("oct", octEndUTC)}},
			wantPhase: billingv1.PeriodCloseSuperseded, wantReason: billingv1.ReasonAlreadyClosed,
			wantCondition: billingv1.ConditionStalled},
		{name: "a workspace closed earlier moves forward",
			through: "2026-10", in: periodCloseInput{zone: time.UTC, now: at,
				closes: []billingv1.PeriodClose{closed("sep", time.Date(2026, 9, 30, 23, 59, 59, 0, time.UTC))}},
			wantPhase: billingv1.PeriodCloseClosed, wantReason: billingv1.ReasonClosed,
			wantCondition: billingv1.ConditionReady, wantThrough: octEndUTC},
		{name: "a close is not superseded by itself",
			through: "2026-10", in: periodCloseInput{zone: time.UTC, now: at,
				closes: []billingv1.PeriodClose{closed("pc", octEndUTC)}},
			wantPhase: billingv1.PeriodCloseClosed, wantReason: billingv1.ReasonClosed,
			wantCondition: billingv1.ConditionReady, wantThrough: octEndUTC},
		{name: "pending closes of others supersede nothing",
			through: "2026-10", in: periodCloseInput{zone: time.UTC, now: at,
				closes: []billingv1.PeriodClose{*builder.PeriodClose("ns", "nov", "2026-11")}},
			wantPhase: billingv1.PeriodCloseClosed, wantReason: billingv1.ReasonClosed,
			wantCondition: billingv1.ConditionReady, wantThrough: octEndUTC},
		{name: "a month that does not exist is invalid",
			through: "2026-13", in: periodCloseInput{zone: time.UTC, now: at},
			wantPhase: billingv1.PeriodCloseInvalid, wantReason: billingv1.ReasonInvalidThrough,
			wantCondition: billingv1.ConditionStalled},
		{name: "an unknown time zone is invalid",
			through: "2026-10", in: periodCloseInput{zoneErr: errors.New(`the time zone "Mars/Olympus" is not an IANA time zone name`), now: at},
			wantPhase: billingv1.PeriodCloseInvalid, wantReason: billingv1.ReasonInvalidThrough,
			wantCondition: billingv1.ConditionStalled, wantMessage: "Mars/Olympus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewWithT(t)
			pc := builder.PeriodClose("ns", "pc", tt.through)
			pc.Generation = 1
			status, wait := periodCloseStatus(pc, tt.in)
			g.Expect(status.Phase).To(Equal(tt.wantPhase))
			g.Expect(wait).To(Equal(tt.wantWait))
			g.Expect(status.ObservedGeneration).To(Equal(int64(1)))
			g.Expect(status.Conditions).To(ContainElement(And(
				HaveField("Type", tt.wantCondition), HaveField("Status", metav1.ConditionTrue),
				HaveField("Reason", tt.wantReason), HaveField("Message", ContainSubstring(tt.wantMessage)))))
			if tt.wantCondition != billingv1.ConditionReady {
				g.Expect(status.Conditions).To(ContainElement(And(HaveField("Type", billingv1.ConditionReady),
					HaveField("Status", metav1.ConditionFalse), HaveField("Reason", tt.wantReason))))
			}
			if tt.wantPhase != billingv1.PeriodCloseClosed {
				g.Expect(status.ClosedThrough).To(BeNil())
				return
			}
			g.Expect(status.ClosedThrough.Time).To(BeTemporally("==", tt.wantThrough))
			g.Expect(status.ClosedAt.Time).To(BeTemporally("==", at))
			g.Expect(status.Events).To(BeEmpty(), "the reconciler adds the event")
		})
	}
}

func TestOnlyAClosedCloseWithItsEventOrARejectedOneIsFinal(t *testing.T) {
	g := NewWithT(t)
	for phase, final := range map[billingv1.PeriodClosePhase]bool{
		"": false, billingv1.PeriodClosePending: false, billingv1.PeriodCloseClosed: false,
		billingv1.PeriodCloseSuperseded: true, billingv1.PeriodCloseInvalid: true,
	} {
		pc := builder.PeriodClose("ns", "pc", "2026-10")
		pc.Status.Phase = phase
		g.Expect(periodCloseFinal(pc)).To(Equal(final), string(phase))
	}
	pc := builder.PeriodClose("ns", "pc", "2026-10")
	pc.Status.Phase = billingv1.PeriodCloseClosed
	pc.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypePeriodClosed, Sequence: 3}}
	g.Expect(periodCloseFinal(pc)).To(BeTrue())
}
