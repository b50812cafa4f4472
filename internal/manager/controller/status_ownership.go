/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package controller

// Dropping the field ownership of the status of invoices, credit notes and
// payments after the manager patched it.
//
// The API server records, in metadata.managedFields, which fields each
// writer set. The status patch that issues an invoice sets every status
// field, so its entry lists them all: 911 of an issued invoice's 2,698
// bytes of JSON, kept in etcd, in every copy of the API server's watch
// cache (as maps, where it costs far more than its bytes) and encoded
// again for every list and watch, the informers' lists at a restart
// included (docs/performance.md, "Status ownership"). Only the manager
// writes these statuses and nothing reads who owns their fields, so right
// after a status patch the manager writes the object's managedFields back
// without the status subresource's entries. The entries of the object's
// own writers (kubectl, Argo CD, Flux, the adapter) stay as they are, so
// server-side apply keeps working for them. The status itself, the spec
// and every other field are untouched; the write changes only
// managedFields and the resourceVersion.

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices;creditnotes;payments,verbs=patch

// statusOwnershipDropping wraps a client so that a successful status patch
// of an Invoice, CreditNote or Payment is followed by dropStatusOwnership.
// Everything else passes through.
type statusOwnershipDropping struct {
	client.Client
}

// Status returns the wrapped client's status writer, whose Patch drops the
// status ownership afterwards.
func (c statusOwnershipDropping) Status() client.SubResourceWriter {
	return ownershipDroppingStatusWriter{SubResourceWriter: c.Client.Status(), client: c.Client}
}

// ownershipDroppingStatusWriter is statusOwnershipDropping's status writer.
type ownershipDroppingStatusWriter struct {
	client.SubResourceWriter
	client client.Client
}

// Patch patches obj's status, then drops its status ownership when obj is
// an Invoice, CreditNote or Payment. Only the status patch's error is
// returned: the status is written when Patch returns nil.
func (w ownershipDroppingStatusWriter) Patch(ctx context.Context, obj client.Object, patch client.Patch,
	opts ...client.SubResourcePatchOption) error {
	if err := w.SubResourceWriter.Patch(ctx, obj, patch, opts...); err != nil {
		return err
	}
	switch obj.(type) {
	case *billingv1.Invoice, *billingv1.CreditNote, *billingv1.Payment:
		dropStatusOwnership(ctx, w.client, obj)
	}
	return nil
}

// dropStatusOwnership writes obj's managedFields, as the API server
// answered its status patch, back without the entries of the status
// subresource. The write carries obj's resourceVersion: when the object
// changed since, it is refused (409) and left as it is, since the
// managedFields sent could miss a newer writer's entry; the next status
// patch drops the status entries then. A failure is logged and not
// returned: it leaves a larger object, never a wrong one.
func dropStatusOwnership(ctx context.Context, c client.Client, obj client.Object) {
	kept, found := withoutStatusEntries(obj.GetManagedFields())
	if !found {
		return
	}
	log := logf.FromContext(ctx)
	data, err := managedFieldsPatch(kept, obj.GetResourceVersion())
	if err != nil {
		log.Error(err, "Could not build the patch dropping the status's field ownership")
		return
	}
	target, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return
	}
	switch err := c.Patch(ctx, target, client.RawPatch(types.MergePatchType, data)); {
	case err == nil:
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		log.V(1).Info("Left the status's field ownership; the object changed", "reason", err.Error())
	default:
		log.Info("Could not drop the status's field ownership", "error", err.Error())
	}
}

// changedBeyondBookkeeping passes an update event of an object unless the
// object only got a new resourceVersion (and managedFields, which the
// cache strips): the update dropStatusOwnership makes, which no reconcile
// needs to see. A resync (the same resourceVersion) passes.
var changedBeyondBookkeeping = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		if e.ObjectOld == nil || e.ObjectNew == nil ||
			e.ObjectOld.GetResourceVersion() == e.ObjectNew.GetResourceVersion() {
			return true
		}
		return !onlyBookkeepingDiffers(e.ObjectOld, e.ObjectNew)
	},
}

// onlyBookkeepingDiffers reports whether old and new are equal but for
// their resourceVersion and managedFields.
func onlyBookkeepingDiffers(old, new client.Object) bool {
	o, okOld := old.DeepCopyObject().(client.Object)
	n, okNew := new.DeepCopyObject().(client.Object)
	if !okOld || !okNew {
		return false
	}
	for _, obj := range []client.Object{o, n} {
		obj.SetResourceVersion("")
		obj.SetManagedFields(nil)
	}
	return equality.Semantic.DeepEqual(o, n)
}

// withoutStatusEntries returns entries without those of the status
// subresource, and whether there were any.
func withoutStatusEntries(entries []metav1.ManagedFieldsEntry) ([]metav1.ManagedFieldsEntry, bool) {
	kept := make([]metav1.ManagedFieldsEntry, 0, len(entries))
	for _, e := range entries {
		if e.Subresource != "status" {
			kept = append(kept, e)
		}
	}
	return kept, len(kept) < len(entries)
}

// managedFieldsPatch is the JSON merge patch that sets managedFields to
// entries, with resourceVersion as an optimistic lock. No entries at all is
// sent as one empty entry, the API server's way of clearing managedFields
// (an empty list leaves them as they are).
func managedFieldsPatch(entries []metav1.ManagedFieldsEntry, resourceVersion string) ([]byte, error) {
	if len(entries) == 0 {
		entries = []metav1.ManagedFieldsEntry{{}}
	}
	data, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"managedFields":   entries,
		"resourceVersion": resourceVersion,
	}})
	if err != nil {
		return nil, fmt.Errorf("encoding managedFields: %w", err)
	}
	return data, nil
}
