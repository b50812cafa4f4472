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

package e2e

// What the install deletes (expired Idempotency-Key claims) and what it
// keeps (issued invoices and the customers they reference).

import (
	"context"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// deletesExpiredClaims: deletes expired Idempotency-Key claims.
func (s *installSuite) deletesExpiredClaims() {
	key := manifest(`{"apiVersion": "billing.invoicing.dev/v1", "kind": "IdempotencyKey",
		"metadata": {"name": "idem-expired", "namespace": "team-a"},
		"spec": {"requestHash": "` + strings.Repeat("a", 64) + `", "resource": "invoices",
			"objectName": "inv-gone", "expiresAt": "2026-01-01T00:00:00Z"}}`)
	admin := s.c.adminDyn
	_, err := admin.Resource(idemKeysGVR).Namespace("team-a").Create(context.Background(), key, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	Eventually(func() bool {
		_, err := admin.Resource(idemKeysGVR).Namespace("team-a").Get(context.Background(), "idem-expired", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	}, 30*time.Second).Should(BeTrue())
}

// holdsAReferencedCustomer: holds a customer that issued invoices reference, and releases it only with its namespace.
func (s *installSuite) holdsAReferencedCustomer() {
	admin := s.c.adminDyn
	ctx := context.Background()
	invoices := admin.Resource(invoicesGVR).Namespace("team-a")
	Expect(admin.Resource(customersGVR).Namespace("team-a").Delete(ctx, "initech", metav1.DeleteOptions{})).To(Succeed())
	Eventually(func() (string, error) {
		cus, err := admin.Resource(customersGVR).Namespace("team-a").Get(ctx, "initech", metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		_, reason := readyCondition(cus)
		return reason, nil
	}, 30*time.Second).Should(Equal("DeletionBlocked"))

	By("refusing to delete its issued invoices, one by one (forced too) or as a collection, even to the admin")
	Expect(invoiceState(s.c, "team-a", "gitops-001")()).To(Equal("Issued/Issued"))
	retained := MatchError(ContainSubstring("is issued and is retained as a legal record"))
	err := invoices.Delete(ctx, "gitops-001", metav1.DeleteOptions{})
	Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
	Expect(err).To(retained)
	Expect(invoices.Delete(ctx, "gitops-001", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})).To(retained)
	Expect(invoices.DeleteCollection(ctx, metav1.DeleteOptions{},
		metav1.ListOptions{FieldSelector: "spec.customerRef.name=initech"})).To(retained)
	Consistently(func() (string, error) {
		cus, err := admin.Resource(customersGVR).Namespace("team-a").Get(ctx, "initech", metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		_, reason := readyCondition(cus)
		return reason, nil
	}, 2*time.Second).Should(Equal("DeletionBlocked"), "a customer with issued invoices stays")
	Expect(invoiceState(s.c, "team-a", "gitops-001")()).To(Equal("Issued/Issued"))

	By("deleting an invoice that was never issued")
	applyManifest(s.c.dynamicFor(s.teamA), invoicesGVR, `
apiVersion: billing.invoicing.dev/v1
kind: Invoice
metadata: {name: gitops-typo, namespace: team-a}
spec:
  customerRef: {name: initek}
  items:
  - {description: TPS report review, quantity: 1, amount: 12500}`)
	Eventually(invoiceState(s.c, "team-a", "gitops-typo"), 30*time.Second).Should(Equal("Invalid/CustomerNotFound"))
	Expect(invoices.Delete(ctx, "gitops-typo", metav1.DeleteOptions{})).To(Succeed())

	By("deleting the namespace: once it is terminating, its issued invoices can go, and the customer with them")
	// This control plane runs no namespace controller: the namespace
	// stays Terminating, and the spec deletes its invoices as that
	// controller would (make run's story deletes a whole workspace).
	Expect(s.c.admin.CoreV1().Namespaces().Delete(ctx, "team-a", metav1.DeleteOptions{})).To(Succeed())
	Eventually(func() error {
		return invoices.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
	}, 30*time.Second).Should(Succeed())
	Eventually(func() bool {
		_, err := admin.Resource(customersGVR).Namespace("team-a").Get(ctx, "initech", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	}, 30*time.Second).Should(BeTrue())
}
