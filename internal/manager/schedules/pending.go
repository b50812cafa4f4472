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

package schedules

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

// How a schedule's invoice takes its pending items, exactly once. The
// invoice of a period is created with every item of the schedule that no
// invoice has taken, read live just before, as lines after the
// template's, and their names in its AnnotationPendingItems: the create
// is the one act that decides which invoice takes an item. Then each
// item's status is given the invoice's name (take), before the schedule's
// status moves past the period. After a crash, or with two managers, the
// next attempt at the period finds its invoice (AlreadyExists), reads the
// names it was created with (not the items it has just read) and
// finishes take before it reads the items for the next period, so an item
// named by an invoice is never offered to a later one. An item created after an invoice's list was read is not on it, and
// waits for the next.

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=pendingitems,verbs=get;list
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=pendingitems/status,verbs=patch

// maxInvoiceItems is the Invoice CRD's bound on spec.items: an invoice
// takes as many pending items as fit beside the template's lines, the
// oldest first, and the rest wait for the next.
const maxInvoiceItems = 500

// pendingScheduleField is the PendingItem's selectable field that names
// its schedule.
const pendingScheduleField = "spec.scheduleRef.name"

// pendingItems returns the items of s that no invoice has taken, oldest
// first, at most room of them, read live. An item that cannot be invoiced
// with s's template is marked Invalid and left out.
func (r *InvoiceScheduleReconciler) pendingItems(ctx context.Context, s *billingv1.InvoiceSchedule,
	profile *billingv1.BillingProfile, room int) ([]billingv1.PendingItem, error) {
	list := &billingv1.PendingItemList{}
	if err := r.APIReader.List(ctx, list, client.InNamespace(s.Namespace),
		client.MatchingFields{pendingScheduleField: s.Name}); err != nil {
		return nil, fmt.Errorf("listing the pending items of schedule %s: %w", s.Name, err)
	}
	slices.SortFunc(list.Items, func(a, b billingv1.PendingItem) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	var out []billingv1.PendingItem
	for i := range list.Items {
		item := &list.Items[i]
		if item.Status.Invoice != "" || item.Status.Phase == billingv1.PendingItemInvalid || !item.DeletionTimestamp.IsZero() {
			continue
		}
		if fault := pendingItemFault(s, profile, &item.Spec.Item); fault != "" {
			if err := r.setItemStatus(ctx, item, invalidItem(item, "It cannot be invoiced with the schedule's template: "+fault,
				r.Clock.Now())); err != nil {
				return nil, err
			}
			continue
		}
		if len(out) == room {
			break
		}
		out = append(out, *item)
	}
	return out, nil
}

// withPendingItems adds items to inv, a period's invoice about to be
// created: their lines after the template's, and their names.
func withPendingItems(inv *billingv1.Invoice, items []billingv1.PendingItem) {
	if len(items) == 0 {
		return
	}
	names := make([]string, len(items))
	for i := range items {
		inv.Spec.Items = append(inv.Spec.Items, items[i].Spec.Item)
		names[i] = items[i].Name
	}
	if inv.Annotations == nil {
		inv.Annotations = map[string]string{}
	}
	inv.Annotations[billingv1.AnnotationPendingItems] = strings.Join(names, ",")
}

// take writes inv's name in the status of each pending item inv was created
// with. An item deleted meanwhile is skipped; one that names another
// invoice is left as it is and logged: it cannot happen, as only the
// invoice whose create named an item takes it.
func (r *InvoiceScheduleReconciler) take(ctx context.Context, inv *billingv1.Invoice) error {
	for name := range strings.SplitSeq(inv.Annotations[billingv1.AnnotationPendingItems], ",") {
		if name == "" {
			continue
		}
		item := &billingv1.PendingItem{}
		err := r.APIReader.Get(ctx, client.ObjectKey{Namespace: inv.Namespace, Name: name}, item)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("getting pending item %s of invoice %s: %w", name, inv.Name, err)
		}
		switch item.Status.Invoice {
		case inv.Name:
			continue
		case "":
		default:
			logf.FromContext(ctx).Error(nil, "A pending item names another invoice than the one created with it",
				"pendingItem", name, "invoice", inv.Name, "named", item.Status.Invoice)
			continue
		}
		if err := r.setItemStatus(ctx, item, takenItem(item, inv, r.Clock.Now())); err != nil {
			return err
		}
	}
	return nil
}

// takenItem is the status of item once inv took it.
func takenItem(item *billingv1.PendingItem, inv *billingv1.Invoice, now time.Time) billingv1.PendingItemStatus {
	st := billingv1.PendingItemStatus{Phase: billingv1.PendingItemTaken, Invoice: inv.Name,
		TakenAt: inv.CreationTimestamp.DeepCopy(), ObservedGeneration: item.Generation}
	reconciler.Conditions{List: &st.Conditions, Generation: item.Generation, Now: now}.Ready(billingv1.ReasonTaken,
		fmt.Sprintf("Taken by invoice %s", inv.Name))
	return st
}

// invalidItem is the status of item that cannot be invoiced, why.
func invalidItem(item *billingv1.PendingItem, why string, now time.Time) billingv1.PendingItemStatus {
	st := billingv1.PendingItemStatus{Phase: billingv1.PendingItemInvalid, Message: why, ObservedGeneration: item.Generation}
	reconciler.Conditions{List: &st.Conditions, Generation: item.Generation, Now: now}.NotReady(
		billingv1.ReasonInvalidPendingItem, why, billingv1.ConditionStalled)
	return st
}

// setItemStatus patches item's status to status, with an optimistic lock:
// a conflict is retried by the next reconcile, which reads it again.
func (r *InvoiceScheduleReconciler) setItemStatus(ctx context.Context, item *billingv1.PendingItem,
	status billingv1.PendingItemStatus) error {
	before := item.DeepCopy()
	item.Status = status
	if _, err := reconciler.PatchStatus(ctx, r.Client, before, item, client.MergeFromWithOptimisticLock{}); err != nil {
		return fmt.Errorf("writing the status of pending item %s: %w", item.Name, err)
	}
	return nil
}
