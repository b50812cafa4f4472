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
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The Emails the controller queues itself: on issue (sendOnIssue) and the
// reminders. Each has a name derived from what it is about, so that
// queueing it again (a retry, a second reconcile, a restart) finds it and
// sends nothing twice.

// Suffixes of the Emails the controller queues.
const (
	OnIssueEmailSuffix = "-email-issued"
	reminderSuffix     = "-email-reminder-"
)

// SendsOnIssue reports whether profile sends every invoice and credit note
// when it is issued.
func SendsOnIssue(profile *billingv1.BillingProfile) bool {
	return profile != nil && profile.Spec.Email != nil && profile.Spec.Email.SendOnIssue
}

// QueueEmail creates em unless an Email of its name exists already.
func QueueEmail(ctx context.Context, c client.Client, em *billingv1.Email) error {
	if err := c.Create(ctx, em); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("queueing e-mail %s: %w", em.Name, err)
	}
	logf.FromContext(ctx).V(1).Info("Queued an e-mail", "email", em.Name, "purpose", em.Spec.Purpose)
	return nil
}

// OnIssueEmail is the Email that sends an invoice (invoice set) or a
// credit note (note set) when it is issued.
func OnIssueEmail(ns, name, customer string, invoice bool) *billingv1.Email {
	em := &billingv1.Email{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: DerivedName(name, OnIssueEmailSuffix)},
		Spec:       billingv1.EmailSpec{Purpose: billingv1.EmailPurposeCreditNote},
	}
	if customer != "" {
		em.Spec.CustomerRef = &billingv1.CustomerReference{Name: customer}
	}
	if invoice {
		em.Spec.Purpose, em.Spec.InvoiceRef = billingv1.EmailPurposeInvoice, &billingv1.InvoiceReference{Name: name}
	} else {
		em.Spec.CreditNoteRef = &billingv1.CreditNoteReference{Name: name}
	}
	return em
}

// ReminderEmail is the Email of the reminder at days of invoice inv.
func ReminderEmail(inv *billingv1.Invoice, days int32) *billingv1.Email {
	label := strconv.Itoa(int(days))
	if days < 0 {
		label = "m" + strconv.Itoa(int(-days))
	}
	return &billingv1.Email{
		ObjectMeta: metav1.ObjectMeta{Namespace: inv.Namespace, Name: DerivedName(inv.Name, reminderSuffix+label)},
		Spec: billingv1.EmailSpec{Purpose: billingv1.EmailPurposeReminder,
			InvoiceRef:   &billingv1.InvoiceReference{Name: inv.Name},
			CustomerRef:  &billingv1.CustomerReference{Name: inv.Spec.CustomerRef.Name},
			ReminderDays: &days},
	}
}

// DerivedName is name with suffix, within the 253 characters of a name: a
// name too long keeps its start and a hash of the whole, so two names
// never derive the same one.
func DerivedName(name, suffix string) string {
	const maxName = 253
	if len(name)+len(suffix) <= maxName {
		return name + suffix
	}
	sum := sha256.Sum256([]byte(name))
	hash := hex.EncodeToString(sum[:])[:16]
	return name[:maxName-len(suffix)-len(hash)-1] + "-" + hash + suffix
}
