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

package mailing

import (
	"testing"
	"time"

	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestEmailStatus(t *testing.T) {
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	sent := at.Add(time.Second)
	pending := func(attempts int32) *billingv1.Email {
		return &billingv1.Email{ObjectMeta: metav1.ObjectMeta{Generation: 1},
			Status: billingv1.EmailStatus{Phase: billingv1.EmailPending, Attempts: attempts}}
	}
	type want struct {
		phase                   billingv1.EmailPhase
		attempts                int32
		ready, failing, stalled metav1.ConditionStatus
		reason                  string
		nextAttempt             time.Duration
		lastError               string
	}
	for _, tc := range []struct {
		name    string
		email   *billingv1.Email
		outcome emailOutcome
		want    want
	}{
		{"a message the server accepted is sent, at its first attempt", pending(0),
			emailOutcome{sent: &sent, to: []string{"ap@example.com"}, messageID: "<u@example.com>"},
			want{billingv1.EmailSent, 1, metav1.ConditionTrue, metav1.ConditionFalse, "", billingv1.ReasonSent, 0, ""}},
		{"a first failure waits the first retry", pending(0), emailOutcome{attemptErr: "connection refused"},
			want{billingv1.EmailPending, 1, metav1.ConditionFalse, metav1.ConditionTrue, "", billingv1.ReasonSMTPError,
				30 * time.Second, "connection refused"}},
		{"a third failure waits four times as long", pending(2), emailOutcome{attemptErr: "421 busy"},
			want{billingv1.EmailPending, 3, metav1.ConditionFalse, metav1.ConditionTrue, "", billingv1.ReasonSMTPError,
				120 * time.Second, "421 busy"}},
		{"the last failure gives up", pending(billingv1.EmailMaxAttempts - 1), emailOutcome{attemptErr: "timeout"},
			want{billingv1.EmailFailed, billingv1.EmailMaxAttempts, metav1.ConditionFalse, metav1.ConditionTrue,
				metav1.ConditionTrue, billingv1.ReasonAttemptsExhausted, 0, "timeout"}},
		{"a message without settings fails at once, without an attempt", pending(0),
			emailOutcome{stalled: billingv1.ReasonNotConfigured, stalledMessage: "no spec.email"},
			want{billingv1.EmailFailed, 0, metav1.ConditionFalse, metav1.ConditionTrue, metav1.ConditionTrue,
				billingv1.ReasonNotConfigured, 0, ""}},
		{"a reminder of a settled invoice is skipped, without an attempt", pending(0),
			emailOutcome{settled: "paid"},
			want{billingv1.EmailSkipped, 0, metav1.ConditionTrue, metav1.ConditionFalse, "", billingv1.ReasonSettled, 0, ""}},
		{"a message about an invoice not issued yet waits, without an attempt", pending(0),
			emailOutcome{waiting: "not issued"},
			want{billingv1.EmailPending, 0, metav1.ConditionFalse, "", "", billingv1.ReasonWaitingForIssue, 0, ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			st := emailStatus(tc.email, tc.outcome, at, billingv1.EmailFirstRetrySeconds*time.Second)
			g.Expect(st.Phase).To(Equal(tc.want.phase))
			g.Expect(st.Attempts).To(Equal(tc.want.attempts))
			g.Expect(st.LastError).To(Equal(tc.want.lastError))
			g.Expect(st.ObservedGeneration).To(Equal(int64(1)))
			for _, c := range []struct {
				t    string
				want metav1.ConditionStatus
			}{{billingv1.ConditionReady, tc.want.ready}, {billingv1.ConditionDeliveryFailing, tc.want.failing},
				{billingv1.ConditionStalled, tc.want.stalled}} {
				got := meta.FindStatusCondition(st.Conditions, c.t)
				if c.want == "" {
					g.Expect(got).To(BeNil(), c.t)
					continue
				}
				g.Expect(got).NotTo(BeNil(), c.t)
				g.Expect(got.Status).To(Equal(c.want), c.t)
			}
			g.Expect(meta.FindStatusCondition(st.Conditions, billingv1.ConditionReady).Reason).To(Equal(tc.want.reason))
			if tc.want.nextAttempt == 0 {
				g.Expect(st.NextAttemptAt).To(BeNil())
			} else {
				g.Expect(st.NextAttemptAt.Time).To(Equal(at.Add(tc.want.nextAttempt)))
			}
			if tc.outcome.sent != nil {
				g.Expect(st.SentAt.Time).To(Equal(sent))
				g.Expect(st.To).To(Equal(tc.outcome.to))
				g.Expect(st.MessageID).To(Equal(tc.outcome.messageID))
			}
		})
	}
}

func TestEmailRetryWaitsDoubleUpToAnHour(t *testing.T) {
	g := NewWithT(t)
	first := 30 * time.Second
	var waits []time.Duration
	for attempts := int32(1); attempts < billingv1.EmailMaxAttempts; attempts++ {
		waits = append(waits, emailRetryWait(attempts, first))
	}
	g.Expect(waits).To(Equal([]time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute,
		8 * time.Minute, 16 * time.Minute, 32 * time.Minute}))
	g.Expect(emailRetryWait(20, first)).To(Equal(time.Hour))
}

func TestRemindersAt(t *testing.T) {
	issued := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	due := issued.Add(30 * 24 * time.Hour)
	inv := &billingv1.Invoice{Status: billingv1.InvoiceStatus{IssuedAt: &metav1.Time{Time: issued},
		DueAt: &metav1.Time{Time: due}}}
	reminders := []billingv1.Reminder{{Days: 7}, {Days: -3}, {Days: 0}, {Days: -45}}
	day := 24 * time.Hour
	for _, tc := range []struct {
		name     string
		now      time.Time
		wantDue  []int32
		wantNext time.Time
	}{
		{"none is due right after issue, and the first waits for three days before the due date",
			issued.Add(time.Hour), nil, due.Add(-3 * day)},
		{"the reminder before the due date is due at its moment", due.Add(-3 * day), []int32{-3}, due},
		{"two reminders are due on the due date, in order", due, []int32{-3, 0}, due.Add(7 * day)},
		{"a week after the due date the earlier ones are too late", due.Add(7 * day), []int32{7}, time.Time{}},
		{"a month after, every reminder is too late and none is left", due.Add(30 * day), nil, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			gotDue, next := remindersAt(inv, reminders, tc.now)
			g.Expect(gotDue).To(Equal(tc.wantDue))
			g.Expect(next).To(Equal(tc.wantNext))
		})
	}
}

func TestWithDelivery(t *testing.T) {
	g := NewWithT(t)
	var list []billingv1.Delivery
	for i := range billingv1.MaxDeliveries + 3 {
		list = withDelivery(list, billingv1.Delivery{Email: string(rune('a' + i))})
	}
	g.Expect(list).To(HaveLen(billingv1.MaxDeliveries))
	g.Expect(list[0].Email).To(Equal("d"), "the oldest three were dropped")
	list = withDelivery(list, billingv1.Delivery{Email: "e", Attempts: 2})
	g.Expect(list).To(HaveLen(billingv1.MaxDeliveries))
	g.Expect(list[1]).To(Equal(billingv1.Delivery{Email: "e", Attempts: 2}), "an Email's entry is updated in place")
}

func TestDerivedNameFitsAName(t *testing.T) {
	g := NewWithT(t)
	g.Expect(DerivedName("acme-001", reminderSuffix+"7")).To(Equal("acme-001-email-reminder-7"))
	long := string(make([]byte, 250))
	a, b := DerivedName(long+"a", OnIssueEmailSuffix), DerivedName(long+"b", OnIssueEmailSuffix)
	g.Expect(len(a)).To(BeNumerically("<=", 253))
	g.Expect(a).NotTo(Equal(b))
}
