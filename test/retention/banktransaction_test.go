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
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// bankTransaction is an imported line of workspace ns, in phase (none:
// not looked at yet).
func bankTransaction(ns, name string, phase billingv1.BankTransactionPhase) *billingv1.BankTransaction {
	t := &billingv1.BankTransaction{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: billingv1.BankTransactionSpec{Entry: billingv1.BankEntry{Account: "DE89370400440532013000",
			StatementSHA256: "3b5d5c3712955042212316173ccf37be80000000000000000000000000000000",
			BookingDate:     "2026-11-20", Amount: 11900, Currency: "EUR", CreditDebit: billingv1.Credit}},
	}
	ExpectWithOffset(1, k8s.Create(ctx, t)).To(Succeed())
	if phase != "" {
		t.Status.Phase = phase
		if phase == billingv1.BankTransactionMatched {
			t.Status.Invoice, t.Status.Payment = "acme-2026-002", name
		}
		ExpectWithOffset(1, k8s.Status().Update(ctx, t)).To(Succeed())
	}
	return t
}

var _ = Describe("The retention policy of bank transactions (config/policy/bank_transaction_retention.yaml)", func() {
	It("refuses to delete a matched bank transaction, even forced with no grace period, and says why", func() {
		ns := newNamespace()
		t := bankTransaction(ns, "btx-matched", billingv1.BankTransactionMatched)
		retained := SatisfyAll(WithTransform(apierrors.IsForbidden, BeTrue()),
			MatchError(ContainSubstring("bank transaction btx-matched is matched: its payment btx-matched is in the ledger of invoice acme-2026-002")))
		Eventually(func() error { return k8s.Delete(ctx, t) }).Should(retained)
		Expect(k8s.Delete(ctx, t, client.GracePeriodSeconds(0))).To(retained)
		Expect(exists(t)()).To(Succeed())
	})

	It("deletes bank transactions not matched: pending, unmatched and ignored", func() {
		ns := newNamespace()
		for name, phase := range map[string]billingv1.BankTransactionPhase{"btx-pending": "",
			"btx-unmatched": billingv1.BankTransactionUnmatched, "btx-ignored": billingv1.BankTransactionIgnored} {
			t := bankTransaction(ns, name, phase)
			Expect(k8s.Delete(ctx, t)).To(Succeed(), name)
			Eventually(exists(t)).Should(WithTransform(apierrors.IsNotFound, BeTrue()), name)
		}
	})

	It("lets a workspace being deleted take its matched bank transactions", func() {
		ns := newNamespace()
		t := bankTransaction(ns, "btx-kept", billingv1.BankTransactionMatched)
		Eventually(func() error { return k8s.Delete(ctx, t) }).Should(WithTransform(apierrors.IsForbidden, BeTrue()))

		By("deleting the namespace, which stays Terminating without a namespace controller")
		Expect(k8s.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())

		By("deleting its bank transactions as the namespace controller would: a collection, whatever their state")
		Eventually(func() error {
			return k8s.DeleteAllOf(ctx, &billingv1.BankTransaction{}, client.InNamespace(ns), client.GracePeriodSeconds(0))
		}).Should(Succeed())
		Expect(apierrors.IsNotFound(exists(t)())).To(BeTrue(), "btx-kept is gone")
	})
})
