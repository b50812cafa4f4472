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
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// closeRetained is the refusal of the policy for the period close named
// name.
func closeRetained(name string) OmegaMatcher {
	return SatisfyAll(
		WithTransform(apierrors.IsForbidden, BeTrue()),
		MatchError(ContainSubstring("period close "+name+" closes the books of its workspace for good")),
		MatchError(ContainSubstring("docs/ledger.md#closing-the-books")),
	)
}

var _ = Describe("The retention policy of period closes (config/policy/period_close_retention.yaml)", func() {
	It("refuses to delete a period close in any phase, even forced with no grace period", func() {
		ns := newNamespace()
		for name, phase := range map[string]billingv1.PeriodClosePhase{
			"pending": "", "closed": billingv1.PeriodCloseClosed,
			"superseded": billingv1.PeriodCloseSuperseded, "invalid": billingv1.PeriodCloseInvalid,
		} {
			pc := builder.PeriodClose(ns, name, "2026-10")
			Expect(k8s.Create(ctx, pc)).To(Succeed())
			if phase != "" {
				pc.Status.Phase = phase
				Expect(k8s.Status().Update(ctx, pc)).To(Succeed())
			}
			Eventually(func() error { return k8s.Delete(ctx, pc) }).Should(closeRetained(name))
			Expect(k8s.Delete(ctx, pc, client.GracePeriodSeconds(0))).To(closeRetained(name))
			Expect(exists(pc)()).To(Succeed())
		}
	})

	It("lets a workspace being deleted take its period closes", func() {
		ns := newNamespace()
		pc := builder.PeriodClose(ns, "oct", "2026-10")
		Expect(k8s.Create(ctx, pc)).To(Succeed())
		Eventually(func() error { return k8s.Delete(ctx, pc) }).Should(closeRetained("oct"))

		By("deleting the namespace, which stays Terminating without a namespace controller")
		Expect(k8s.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())

		By("deleting the close as the namespace controller would")
		Eventually(func() error { return k8s.Delete(ctx, pc, client.GracePeriodSeconds(0)) }).Should(Succeed())
		Expect(apierrors.IsNotFound(exists(pc)())).To(BeTrue())
	})
})
