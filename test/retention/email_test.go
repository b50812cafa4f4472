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

package retention

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// remindedInvoice is the invoice that the reminders of the specs are
// about: the policy does not read it, nor does the API server.
const remindedInvoice = "inv-overdue"

// createReminder creates an Email reminding of remindedInvoice and, unless
// phase is empty (not touched by the controller), writes that phase to its
// status subresource as the controller would, with the reminder's event
// invoice.reminder_sent when withEvent is set.
func createReminder(namespace, name string, phase billingv1.EmailPhase, withEvent bool) *billingv1.Email {
	GinkgoHelper()
	email := builder.Email(namespace, name, builder.WithPurpose(billingv1.EmailPurposeReminder),
		builder.WithInvoiceRef(remindedInvoice), builder.WithCustomerRef("acme"), builder.WithReminderDays(7))
	Expect(k8s.Create(ctx, email)).To(Succeed())
	if phase != "" {
		email.Status.Phase = phase
		email.Status.MessageID = "<" + string(email.UID) + "@example.com>"
		email.Status.To = []string{"ap@acme.example"}
		email.Status.Attempts = 1
		if withEvent {
			email.Status.SentAt = &metav1.Time{Time: metav1.Now().Rfc3339Copy().Time}
			email.Status.Events = []billingv1.RecordedEvent{{
				Type: billingv1.EventTypeInvoiceReminderSent, Sequence: 42, CreatedAt: *email.Status.SentAt,
			}}
		}
		Expect(k8s.Status().Update(ctx, email)).To(Succeed(), name)
	}
	return email
}

// createInvoiceEmail creates an Email sending remindedInvoice and, unless
// phase is empty, writes that phase to its status subresource as the
// controller would. A sent invoice carries no event: issuing is the
// invoice's.
func createInvoiceEmail(namespace, name string, phase billingv1.EmailPhase) *billingv1.Email {
	GinkgoHelper()
	email := builder.Email(namespace, name, builder.WithPurpose(billingv1.EmailPurposeInvoice),
		builder.WithInvoiceRef(remindedInvoice))
	Expect(k8s.Create(ctx, email)).To(Succeed())
	if phase != "" {
		email.Status.Phase = phase
		email.Status.Attempts = 1
		Expect(k8s.Status().Update(ctx, email)).To(Succeed(), name)
	}
	return email
}

// reminderRetained is the refusal of the policy for a sent reminder named
// name.
func reminderRetained(name string) OmegaMatcher {
	return SatisfyAll(
		WithTransform(apierrors.IsForbidden, BeTrue()),
		MatchError(ContainSubstring("email "+name+" carries event invoice.reminder_sent of the event feed")),
		MatchError(ContainSubstring("docs/design.md#retention-of-issued-invoices")),
	)
}

// teamMember returns a client of user, a member of a team bound in
// namespace to the ClusterRole of config/rbac/file (created once under
// its own name, as config/default creates it with a prefix).
func teamMember(namespace, user, file string) client.Client {
	GinkgoHelper()
	data, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "config", "rbac", file))
	Expect(err).NotTo(HaveOccurred())
	role := &rbacv1.ClusterRole{}
	Expect(yaml.UnmarshalStrict(data, role)).To(Succeed(), file)
	if err := k8s.Create(ctx, role); !apierrors.IsAlreadyExists(err) {
		Expect(err).NotTo(HaveOccurred(), file)
	}
	Expect(k8s.Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: user},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: user}},
	})).To(Succeed())
	cfg := rest.CopyConfig(testEnvConfig)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: []string{"system:authenticated"}}
	c, err := client.New(cfg, client.Options{Scheme: k8s.Scheme()})
	Expect(err).NotTo(HaveOccurred())
	return c
}

var _ = Describe("The retention of sent reminders (config/policy)", func() {
	It("refuses to delete an Email that carries an event, even forced with no grace period, "+
		"even by the manager", func() {
		ns := newNamespace()
		sent := createReminder(ns, "reminder-sent", billingv1.EmailSent, true)

		Eventually(func() error { return k8s.Delete(ctx, sent) }).Should(reminderRetained("reminder-sent"))
		Expect(k8s.Delete(ctx, sent, client.GracePeriodSeconds(0))).To(reminderRetained("reminder-sent"),
			"kubectl delete --force --grace-period=0")
		Expect(k8s.DeleteAllOf(ctx, &billingv1.Email{}, client.InNamespace(ns))).To(reminderRetained("reminder-sent"))
		Expect(manager.Delete(ctx, sent)).To(reminderRetained("reminder-sent"), "no exception for the manager")
		Expect(exists(sent)()).To(Succeed())
		Expect(sent.GetDeletionTimestamp()).To(BeNil(), "not even marked for deletion")
	})

	It("deletes every other Email: queued, pending, failed, or sent without an event", func() {
		ns := newNamespace()
		probe := createReminder(ns, "probe", billingv1.EmailSent, true)
		Eventually(func() error { return k8s.Delete(ctx, probe) }).Should(reminderRetained("probe"),
			"the policy is in effect in this namespace")

		for _, obj := range []client.Object{
			createReminder(ns, "reminder-new", "", false),
			createReminder(ns, "reminder-pending", billingv1.EmailPending, false),
			createReminder(ns, "reminder-failed", billingv1.EmailFailed, false),
			createInvoiceEmail(ns, "invoice-new", ""),
			createInvoiceEmail(ns, "invoice-pending", billingv1.EmailPending),
			createInvoiceEmail(ns, "invoice-sent", billingv1.EmailSent),
			createInvoiceEmail(ns, "invoice-failed", billingv1.EmailFailed),
		} {
			Expect(k8s.Delete(ctx, obj)).To(Succeed(), obj.GetName())
			Expect(apierrors.IsNotFound(exists(obj)())).To(BeTrue(), "%s is gone", obj.GetName())
		}
	})

	It("lets a team with the editor role send an invoice by creating an Email, and delete one "+
		"but a sent reminder; a viewer reads them and sends nothing", func() {
		ns := newNamespace()
		editor := teamMember(ns, "team-ci", "invoicing_editor_role.yaml")
		viewer := teamMember(ns, "team-auditor", "invoicing_viewer_role.yaml")

		By("sending invoice " + remindedInvoice + " as kubectl create does, with a generated name")
		send := builder.Email(ns, "", builder.WithPurpose(billingv1.EmailPurposeInvoice),
			builder.WithInvoiceRef(remindedInvoice))
		send.GenerateName = remindedInvoice + "-send-"
		Eventually(func() error { return editor.Create(ctx, send) }).Should(Succeed(), "RBAC reaches the binding")
		Expect(viewer.Get(ctx, client.ObjectKeyFromObject(send), &billingv1.Email{})).To(Succeed())
		Expect(viewer.List(ctx, &billingv1.EmailList{}, client.InNamespace(ns))).To(Succeed())
		err := viewer.Create(ctx, builder.Email(ns, "by-viewer", builder.WithPurpose(billingv1.EmailPurposeInvoice),
			builder.WithInvoiceRef(remindedInvoice)))
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "a viewer sends nothing: %v", err)
		Expect(apierrors.IsForbidden(viewer.Delete(ctx, send))).To(BeTrue(), "a viewer deletes nothing")

		By("labelling it, as kubectl apply and GitOps controllers patch what they apply")
		labelled := send.DeepCopy()
		labelled.Labels = map[string]string{"team": "finance"}
		Expect(editor.Patch(ctx, labelled, client.MergeFrom(send))).To(Succeed())
		status := labelled.DeepCopy()
		status.Status.Phase = billingv1.EmailSent
		Expect(apierrors.IsForbidden(editor.Status().Update(ctx, status))).To(BeTrue(),
			"only the manager writes an Email's status")

		By("deleting it, and not a sent reminder")
		sent := createReminder(ns, "reminder-sent", billingv1.EmailSent, true)
		Eventually(func() error { return editor.Delete(ctx, sent) }).Should(reminderRetained("reminder-sent"))
		Expect(editor.Delete(ctx, labelled)).To(Succeed())
		Expect(apierrors.IsNotFound(exists(labelled)())).To(BeTrue())
	})

	It("lets a workspace being deleted take its sent reminders", func() {
		ns := newNamespace()
		kept := createReminder(ns, "kept", billingv1.EmailSent, true)
		Eventually(func() error { return k8s.Delete(ctx, kept) }).Should(reminderRetained("kept"))

		By("deleting the namespace, which stays Terminating without a namespace controller")
		Expect(k8s.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())

		By("deleting its contents as the namespace controller would: collections, whatever their state")
		Eventually(func() error {
			return k8s.DeleteAllOf(ctx, &billingv1.Email{}, client.InNamespace(ns), client.GracePeriodSeconds(0))
		}).Should(Succeed())
		Expect(apierrors.IsNotFound(exists(kept)())).To(BeTrue(), "the sent reminder is gone with its workspace")
	})
})
