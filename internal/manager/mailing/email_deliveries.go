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
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// mirror records em, as it stands, in status.deliveries of what it is
// about: the invoice (invoice, reminder), the credit note or the customer
// (statement). The list is read live and patched with an optimistic lock,
// retried on conflict, because the object's own reconciler writes the
// rest of its status at the same time. A missing object has nothing to
// mirror into.
func (r *EmailReconciler) mirror(ctx context.Context, em *billingv1.Email) error {
	var obj client.Object
	var deliveries func() *[]billingv1.Delivery
	switch spec := &em.Spec; {
	case spec.InvoiceRef != nil:
		inv := &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Namespace: em.Namespace, Name: spec.InvoiceRef.Name}}
		obj, deliveries = inv, func() *[]billingv1.Delivery { return &inv.Status.Deliveries }
	case spec.CreditNoteRef != nil:
		cn := &billingv1.CreditNote{ObjectMeta: metav1.ObjectMeta{Namespace: em.Namespace, Name: spec.CreditNoteRef.Name}}
		obj, deliveries = cn, func() *[]billingv1.Delivery { return &cn.Status.Deliveries }
	case spec.CustomerRef != nil:
		c := &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Namespace: em.Namespace, Name: spec.CustomerRef.Name}}
		obj, deliveries = c, func() *[]billingv1.Delivery { return &c.Status.Deliveries }
	default:
		return nil
	}
	entry := deliveryOf(em)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: em.Namespace, Name: obj.GetName()}, obj); err != nil {
			return client.IgnoreNotFound(err)
		}
		before := obj.DeepCopyObject().(client.Object)
		list := deliveries()
		*list = withDelivery(*list, entry)
		if equality.Semantic.DeepEqual(before, obj) {
			return nil
		}
		return r.Status().Patch(ctx, obj, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
	})
	if err != nil {
		return fmt.Errorf("recording e-mail %s on %s: %w", em.Name, obj.GetName(), err)
	}
	return nil
}

// deliveryOf is em as a delivery.
func deliveryOf(em *billingv1.Email) billingv1.Delivery {
	return billingv1.Delivery{Email: em.Name, Purpose: em.Spec.Purpose, To: em.Status.To,
		MessageID: em.Status.MessageID, SentAt: em.Status.SentAt, Attempts: em.Status.Attempts,
		LastError: em.Status.LastError}
}

// withDelivery is list with d in place of the entry of its Email, or
// after the others, keeping the newest billingv1.MaxDeliveries.
func withDelivery(list []billingv1.Delivery, d billingv1.Delivery) []billingv1.Delivery {
	out := append([]billingv1.Delivery(nil), list...)
	for i := range out {
		if out[i].Email == d.Email {
			out[i] = d
			return out
		}
	}
	out = append(out, d)
	return out[max(0, len(out)-billingv1.MaxDeliveries):]
}
