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

package controller

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

var _ = Describe("IdempotencyKey controller", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	It("deletes a key that has expired and keeps one that has not", func() {
		expired := newIdempotencyKey(ns, "expired", time.Now().Add(-time.Minute))
		fresh := newIdempotencyKey(ns, "fresh", time.Now().Add(time.Hour))
		create(fresh, expired)
		expectGone(expired)
		Consistently(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(fresh), &billingv1.IdempotencyKey{})
		}).Should(Succeed())
	})

	It("deletes a key when it expires, without another event", func() {
		// metav1.Time keeps whole seconds; 4s ahead leaves at least 3s.
		key := newIdempotencyKey(ns, "soon", time.Now().Add(4*time.Second))
		create(key)
		Consistently(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(key), &billingv1.IdempotencyKey{})
		}).WithTimeout(time.Second).Should(Succeed())
		expectGone(key)
	})

	It("waits until expiresAt by the injected clock, then deletes the key", func() {
		// An hour ahead, so the manager's reconciler only waits. metav1.Time
		// keeps whole seconds, so the stored expiresAt is exactly this.
		expiresAt := time.Now().Add(time.Hour).Truncate(time.Second)
		key := newIdempotencyKey(ns, "clocked", expiresAt)
		create(key)
		request := reconcile.Request{NamespacedName: client.ObjectKeyFromObject(key)}

		By("reconciling a minute before it expires")
		fakeClock := clocktesting.NewFakePassiveClock(expiresAt.Add(-time.Minute))
		reconciler := &IdempotencyKeyReconciler{Client: k8sClient, Clock: fakeClock}
		result, err := reconciler.Reconcile(ctx, request)
		Expect(err).NotTo(HaveOccurred())
		Expect(result.RequeueAfter).To(Equal(time.Minute))
		Expect(k8sClient.Get(ctx, request.NamespacedName, &billingv1.IdempotencyKey{})).To(Succeed())

		By("reconciling when it expires")
		fakeClock.SetTime(expiresAt)
		result, err = reconciler.Reconcile(ctx, request)
		Expect(err).NotTo(HaveOccurred())
		Expect(result.RequeueAfter).To(BeZero())
		expectGone(key)

		By("reconciling the deleted key")
		_, err = reconciler.Reconcile(ctx, request)
		Expect(err).NotTo(HaveOccurred())
	})

	It("does not delete a key that was claimed again after it was read", func() {
		key := newIdempotencyKey(ns, "reclaimed", time.Now().Add(time.Hour))
		create(key)
		stale := &billingv1.IdempotencyKey{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(key), stale)).To(Succeed())

		By("deleting the key and claiming it again under the same name")
		Expect(k8sClient.Delete(ctx, key)).To(Succeed())
		expectGone(key)
		reclaimed := newIdempotencyKey(ns, "reclaimed", time.Now().Add(time.Hour))
		create(reclaimed)

		By("reconciling with the stale read, as if it had expired")
		reconciler := &IdempotencyKeyReconciler{
			Client: staleReader{Client: k8sClient, stale: stale},
			Clock:  clocktesting.NewFakePassiveClock(time.Now().Add(2 * time.Hour)),
		}
		_, err := reconciler.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(key)})
		// The delete's UID precondition no longer holds: the API server
		// answers 409 Conflict, and the reconcile returns it to retry with a
		// fresh read.
		Expect(apierrors.IsConflict(err)).To(BeTrue(), "want a conflict from the delete's precondition, got %v", err)
		Expect(err).To(MatchError(ContainSubstring("the UID in the precondition")))
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(reclaimed), &billingv1.IdempotencyKey{})).To(Succeed())
	})
})

// staleReader is a client whose Get returns a stale copy of one
// IdempotencyKey, as a lagging cache would.
type staleReader struct {
	client.Client
	stale *billingv1.IdempotencyKey
}

func (s staleReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if out, ok := obj.(*billingv1.IdempotencyKey); ok && key == client.ObjectKeyFromObject(s.stale) {
		s.stale.DeepCopyInto(out)
		return nil
	}
	return s.Client.Get(ctx, key, obj, opts...)
}
