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
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// maxEmailRetryWait is the longest wait between two attempts.
const maxEmailRetryWait = time.Hour

// emailOutcome is what one pass of the Email reconciler found or did.
type emailOutcome struct {
	// sent is the time the SMTP server accepted the message.
	sent *time.Time
	// attemptErr is a failed attempt's error, already free of secrets.
	attemptErr string
	// stalled is a reason the message can never be sent as asked, with
	// its message.
	stalled, stalledMessage string
	// settled is a reminder whose invoice was settled before it went out.
	settled string
	// waiting is a message whose invoice or credit note is not issued yet.
	waiting string
	// to are the recipients, fixed at the first attempt.
	to []string
	// messageID is the message's Message-ID.
	messageID string
	// note says what was left out of the message.
	note string
}

// emailStatus is an Email's status after outcome at now: the attempts
// counted, the phase and the conditions, the next attempt after a failure
// (waits doubling from firstRetry up to an hour, EmailMaxAttempts in all).
func emailStatus(em *billingv1.Email, o emailOutcome, now time.Time, firstRetry time.Duration) billingv1.EmailStatus {
	st := *em.Status.DeepCopy()
	st.ObservedGeneration = em.Generation
	if o.messageID != "" {
		st.MessageID = o.messageID
	}
	if len(o.to) > 0 {
		st.To = o.to
	}
	if o.note != "" {
		st.Note = o.note
	}
	c := emailConditions{reconciler.Conditions{List: &st.Conditions, Generation: em.Generation, Now: now}}
	switch {
	case o.sent != nil:
		st.Attempts++
		st.Phase, st.SentAt, st.NextAttemptAt, st.LastError = billingv1.EmailSent, &metav1.Time{Time: *o.sent}, nil, ""
		c.done(billingv1.ReasonSent, "The SMTP server accepted the message.")
	case o.settled != "":
		st.Phase, st.NextAttemptAt = billingv1.EmailSkipped, nil
		c.done(billingv1.ReasonSettled, o.settled)
	case o.stalled != "":
		st.Phase, st.NextAttemptAt = billingv1.EmailFailed, nil
		c.failed(o.stalled, o.stalledMessage)
	case o.attemptErr != "":
		st.Attempts++
		st.LastError = reconciler.Truncate(o.attemptErr, 1024)
		if st.Attempts >= billingv1.EmailMaxAttempts {
			st.Phase, st.NextAttemptAt = billingv1.EmailFailed, nil
			c.failed(billingv1.ReasonAttemptsExhausted, "Gave up after the attempts ran out: "+st.LastError)
			break
		}
		st.Phase = billingv1.EmailPending
		st.NextAttemptAt = &metav1.Time{Time: now.Add(emailRetryWait(st.Attempts, firstRetry)).Truncate(time.Second)}
		c.retrying(st.LastError)
	case o.waiting != "":
		st.Phase = billingv1.EmailPending
		c.waiting(o.waiting)
	}
	return st
}

// emailRetryWait is the wait after the attempts-th failed attempt: firstRetry,
// doubling, at most an hour.
func emailRetryWait(attempts int32, firstRetry time.Duration) time.Duration {
	wait := firstRetry
	for i := int32(1); i < attempts && wait < maxEmailRetryWait; i++ {
		wait *= 2
	}
	return min(wait, maxEmailRetryWait)
}

// emailConditions sets an Email's conditions, with the shared steps of
// ledgerConditions.
type emailConditions struct{ reconciler.Conditions }

// done is a message that needs nothing more: sent, or skipped.
func (c emailConditions) done(reason, message string) {
	c.Set(billingv1.ConditionReady, metav1.ConditionTrue, reason, message)
	c.Set(billingv1.ConditionDeliveryFailing, metav1.ConditionFalse, reason, message)
	meta.RemoveStatusCondition(c.List, billingv1.ConditionReconciling)
	meta.RemoveStatusCondition(c.List, billingv1.ConditionStalled)
}

// failed is a message given up on.
func (c emailConditions) failed(reason, message string) {
	c.NotReady(reason, message, billingv1.ConditionStalled)
	c.Set(billingv1.ConditionDeliveryFailing, metav1.ConditionTrue, reason, message)
}

// retrying is a failed attempt with another to come.
func (c emailConditions) retrying(lastError string) {
	c.Set(billingv1.ConditionReady, metav1.ConditionFalse, billingv1.ReasonSMTPError, "The last attempt failed: "+lastError)
	c.Set(billingv1.ConditionDeliveryFailing, metav1.ConditionTrue, billingv1.ReasonSMTPError, lastError)
	c.Set(billingv1.ConditionReconciling, metav1.ConditionTrue, billingv1.ReasonSMTPError, "Waiting for the next attempt.")
}

// waiting is a message whose subject is not issued yet.
func (c emailConditions) waiting(message string) {
	c.NotReady(billingv1.ReasonWaitingForIssue, message, billingv1.ConditionReconciling)
}

// finished reports whether the Email needs no more attempts.
func finished(st *billingv1.EmailStatus) bool {
	return st.Phase == billingv1.EmailSent || st.Phase == billingv1.EmailFailed || st.Phase == billingv1.EmailSkipped
}
