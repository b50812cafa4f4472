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
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/mail"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
)

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=emails,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=emails/status,verbs=patch
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices/status;creditnotes/status;customers/status,verbs=patch

// MailOptions is how the Email reconciler reaches SMTP servers.
type MailOptions struct {
	// RootCAs verifies the servers' certificates; nil uses the system's.
	RootCAs *x509.CertPool
	// Timeout bounds one attempt; 0 is mail.DefaultTimeout.
	Timeout time.Duration
	// FirstRetry is the wait after the first failed attempt, doubling
	// after each; 0 is EmailFirstRetrySeconds.
	FirstRetry time.Duration
}

// waitForIssue is how often a message about an invoice or credit note not
// issued yet looks again: issuing takes a moment, so it is a short wait
// rather than a watch on every invoice.
const waitForIssue = 2 * time.Second

// EmailReconciler sends each Email once the SMTP server accepts it: at
// least once, every copy with the same Message-ID, retried with backoff up
// to EmailMaxAttempts, and mirrors it into status.deliveries of what it is
// about. Sending never blocks issuing: it is this reconciler's alone.
type EmailReconciler struct {
	// Client reads Emails and the profile through the cache and writes.
	client.Client
	// APIReader reads what a message is about and the credentials live.
	APIReader client.Reader
	Recorder  events.EventRecorder
	Clock     clock.PassiveClock
	// Events hands a reminder its invoice.reminder_sent.
	Events reconciler.EventNumberer
	// Sealed reads a customer's sealed records for its statement.
	Sealed *sealing.SealedRecords
	Mail   MailOptions
}

// Reconcile makes one attempt at an Email that is due, and records it.
func (r *EmailReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	em := &billingv1.Email{}
	if err := r.Get(ctx, req.NamespacedName, em); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	now := r.Clock.Now()
	if result, handled, err := r.notDue(ctx, em, now); handled {
		return result, err
	}
	// The cache may not have seen the last attempt's status yet: read the
	// Email live before sending, so that a message recorded as sent is
	// never sent again by this manager.
	if err := r.APIReader.Get(ctx, req.NamespacedName, em); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if result, handled, err := r.notDue(ctx, em, now); handled {
		return result, err
	}
	before := em.DeepCopy()
	outcome, err := r.attempt(ctx, em, now)
	if err != nil {
		return ctrl.Result{}, err
	}
	em.Status = emailStatus(em, outcome, now, r.firstRetry())
	if outcome.sent != nil && em.Spec.Purpose == billingv1.EmailPurposeReminder {
		if em.Status.Events, err = r.reminderEvent(ctx, em); err != nil {
			return ctrl.Result{}, err
		}
	}
	if _, err := reconciler.PatchStatus(ctx, r.Client, before, em, client.MergeFromWithOptimisticLock{}); err != nil {
		return ctrl.Result{}, err
	}
	r.record(ctx, before, em)
	if err := r.mirror(ctx, em); err != nil {
		return ctrl.Result{}, err
	}
	switch {
	case em.Status.NextAttemptAt != nil:
		return ctrl.Result{RequeueAfter: em.Status.NextAttemptAt.Sub(now)}, nil
	case outcome.waiting != "":
		return ctrl.Result{RequeueAfter: waitForIssue}, nil
	}
	return ctrl.Result{}, nil
}

// notDue handles an Email that needs no attempt at now: a finished (or
// deleted) one is mirrored onto what it is about, one whose next attempt is
// later waits for it. handled is false when an attempt is due.
func (r *EmailReconciler) notDue(ctx context.Context, em *billingv1.Email, now time.Time) (result ctrl.Result,
	handled bool, err error) {
	if finished(&em.Status) || !em.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, true, r.mirror(ctx, em)
	}
	if next := em.Status.NextAttemptAt; next != nil && now.Before(next.Time) {
		return ctrl.Result{RequeueAfter: next.Sub(now)}, true, nil
	}
	return ctrl.Result{}, false, nil
}

// attempt writes em's message and hands it to the workspace's SMTP server.
// An error is a transient one of the cluster; what the SMTP server or the
// message's subject says is the outcome.
func (r *EmailReconciler) attempt(ctx context.Context, em *billingv1.Email, now time.Time) (emailOutcome, error) {
	profile, err := reconciler.WorkspaceProfile(ctx, r.Client, em.Namespace)
	if err != nil {
		return emailOutcome{}, err
	}
	if profile == nil || profile.Spec.Email == nil {
		return emailOutcome{stalled: billingv1.ReasonNotConfigured, stalledMessage: fmt.Sprintf(
			"The BillingProfile %q of namespace %s has no spec.email.", billingv1.DefaultBillingProfileName,
			em.Namespace)}, nil
	}
	settings := profile.Spec.Email
	msg, note, err := r.compose(ctx, em, profile, now)
	var unsendable *errUnsendable
	if errors.As(err, &unsendable) {
		return unsendable.outcome, nil
	}
	if err != nil {
		return emailOutcome{}, err
	}
	outcome := emailOutcome{to: msg.To, messageID: msg.MessageID, note: note}
	server, problem, err := r.server(ctx, em.Namespace, &settings.SMTP)
	if err != nil {
		return emailOutcome{}, err
	}
	if problem != "" {
		outcome.attemptErr = problem
		return outcome, nil
	}
	if err := mail.Send(ctx, server, msg); err != nil {
		outcome.attemptErr = err.Error()
		logf.FromContext(ctx).Info("Sending an e-mail failed", "attempt", em.Status.Attempts+1, "error", err.Error())
		return outcome, nil
	}
	sent := r.Clock.Now()
	outcome.sent = &sent
	return outcome, nil
}

// server is the SMTP server of settings, with the credentials of its
// Secret; problem says why the Secret cannot be used, without its content.
func (r *EmailReconciler) server(ctx context.Context, ns string, s *billingv1.SMTPServer) (mail.Server,
	string, error) {
	server := mail.Server{Host: s.Host, Port: s.Port, TLS: s.TLS, RootCAs: r.Mail.RootCAs, Timeout: r.Mail.Timeout}
	ref := s.CredentialsSecretRef
	if ref == nil {
		return server, "", nil
	}
	secret := &corev1.Secret{}
	err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: ns, Name: ref.Name}, secret)
	if apierrors.IsNotFound(err) {
		return server, fmt.Sprintf("the credentials Secret %q does not exist in namespace %s", ref.Name, ns), nil
	}
	if err != nil {
		return server, "", fmt.Errorf("getting the SMTP credentials Secret %s: %w", ref.Name, err)
	}
	server.Username, server.Password = string(secret.Data["username"]), string(secret.Data["password"])
	if server.Username == "" || server.Password == "" {
		return server, fmt.Sprintf("the credentials Secret %q lacks the key username or password", ref.Name), nil
	}
	return server, "", nil
}

// reminderEvent gives a sent reminder its invoice.reminder_sent, after its
// invoice's invoice.issued.
func (r *EmailReconciler) reminderEvent(ctx context.Context, em *billingv1.Email) ([]billingv1.RecordedEvent, error) {
	if billingv1.FindEvent(em.Status.Events, billingv1.EventTypeInvoiceReminderSent) != nil {
		return em.Status.Events, nil
	}
	inv := &billingv1.Invoice{}
	if err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: em.Namespace, Name: em.Spec.InvoiceRef.Name},
		inv); err != nil {
		return nil, fmt.Errorf("getting the reminded invoice %s: %w", em.Spec.InvoiceRef.Name, err)
	}
	after := reconciler.EventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)
	return reconciler.RecordFact(ctx, r.Events, em, billingv1.EventTypeInvoiceReminderSent, after, em.Status.Events)
}

// firstRetry is the wait after a first failed attempt.
func (r *EmailReconciler) firstRetry() time.Duration {
	if r.Mail.FirstRetry > 0 {
		return r.Mail.FirstRetry
	}
	return billingv1.EmailFirstRetrySeconds * time.Second
}

// record logs a message's new phase and warns of a failure as a
// Kubernetes Event. Neither carries a credential: lastError is what the
// server or the network said.
func (r *EmailReconciler) record(ctx context.Context, before, after *billingv1.Email) {
	if before.Status.Phase == after.Status.Phase && before.Status.Attempts == after.Status.Attempts {
		return
	}
	logf.FromContext(ctx).Info("E-mail status changed", "phase", after.Status.Phase,
		"attempts", after.Status.Attempts, "messageId", after.Status.MessageID)
	if after.Status.Phase == billingv1.EmailFailed {
		r.Recorder.Eventf(after, nil, corev1.EventTypeWarning, billingv1.ConditionDeliveryFailing, "Send", "%s",
			meta.FindStatusCondition(after.Status.Conditions, billingv1.ConditionDeliveryFailing).Message)
	}
}

var errNoEmailEvents = errors.New("the Email reconciler needs Events")

// SetupWithManager registers the reconciler with mgr.
func (r *EmailReconciler) SetupWithManager(mgr ctrl.Manager, concurrency int) error {
	if err := reconciler.FirstMissing(reconciler.Need(r.Recorder == nil, reconciler.ErrNoRecorder),
		reconciler.Need(r.Clock == nil, reconciler.ErrNoClock),
		reconciler.Need(r.Events == nil, errNoEmailEvents)); err != nil {
		return err
	}
	return reconciler.NewController(mgr, "email", concurrency, &billingv1.Email{}).Complete(reconciler.CountErrors("email", r))
}
