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

package trim

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
// writes these statuses and nothing reads who owns their fields, so after
// a status patch the manager writes the object's managedFields back
// without the status subresource's entries: queued, at a bounded rate
// (--managed-fields-drop-rate), so that the extra write slows a burst of
// issuing little and catches up after it. The entries of the object's
// own writers (kubectl, Argo CD, Flux, the adapter) stay as they are, so
// server-side apply keeps working for them. The status itself, the spec
// and every other field are untouched; the write changes only
// managedFields and the resourceVersion.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// The RBAC marker of the patch that drops the ownership (patch of
// invoices, credit notes and payments) is in internal/manager/controller's
// setup.go, whose markers controller-gen reads.

// DropStatusOwnership returns c wrapped so that each status patch of an
// Invoice, CreditNote or Payment through it has the status's field
// ownership dropped afterwards, at most perSecond objects a second while
// status patches are being made (0 or less: DefaultManagedFieldsDropRate).
// The queue that drops it runs on mgr's leader.
func DropStatusOwnership(mgr manager.Manager, c client.Client, perSecond float64) (client.Client, error) {
	if perSecond <= 0 {
		perSecond = DefaultManagedFieldsDropRate
	}
	queue := newOwnershipQueue(c, perSecond, ownershipQueueCapacity)
	if err := mgr.Add(queue); err != nil {
		return nil, fmt.Errorf("adding the status ownership queue: %w", err)
	}
	return statusOwnershipDropping{Client: c, queue: queue}, nil
}

// statusOwnershipDropping wraps a client so that a successful status patch
// of an Invoice, CreditNote or Payment queues the object for
// dropStatusOwnership (ownershipQueue), off the reconciler's path.
// Everything else passes through.
type statusOwnershipDropping struct {
	client.Client
	queue *ownershipQueue
}

// Status returns the wrapped client's status writer, whose Patch queues
// the object afterwards.
func (c statusOwnershipDropping) Status() client.SubResourceWriter {
	return ownershipDroppingStatusWriter{SubResourceWriter: c.Client.Status(), queue: c.queue}
}

// ownershipDroppingStatusWriter is statusOwnershipDropping's status writer.
type ownershipDroppingStatusWriter struct {
	client.SubResourceWriter
	queue *ownershipQueue
}

// Patch patches obj's status, then queues obj when it is an Invoice,
// CreditNote or Payment. Only the status patch's error is returned: the
// status is written when Patch returns nil.
func (w ownershipDroppingStatusWriter) Patch(ctx context.Context, obj client.Object, patch client.Patch,
	opts ...client.SubResourcePatchOption) error {
	if err := w.SubResourceWriter.Patch(ctx, obj, patch, opts...); err != nil {
		return err
	}
	if ownershipDropped(obj) {
		if !w.queue.add(obj) {
			logf.FromContext(ctx).V(1).Info("Left the status's field ownership; the queue is full")
		}
	}
	return nil
}

// DefaultManagedFieldsDropRate is how many objects a second have their
// status's field ownership dropped by default while status patches are
// being made: a share of what the API server takes beside issuing, so
// that a burst of issuing is slowed by a little; the queue drains at full
// speed once the burst is over.
const DefaultManagedFieldsDropRate = 50

// ownershipQueueCapacity bounds the objects waiting for
// dropStatusOwnership (each a few hundred bytes): beyond it, an object
// keeps its entry until its next status patch.
const ownershipQueueCapacity = 100_000

// ownershipQueue holds the objects whose status's field ownership is still
// to be dropped, as their status patch returned them, and drops it at a
// bounded rate on the leader (a manager.Runnable). It lives in memory: a
// restart forgets what is queued, which leaves those objects larger,
// never wrong.
type ownershipQueue struct {
	client  client.Client
	items   chan client.Object
	limiter *rate.Limiter
	// lastAdded is when the last object was queued (Unix nanoseconds):
	// status patches are being made, so the queue keeps to its rate.
	lastAdded atomic.Int64
}

// ownershipQueueIdle is how long after the last status patch the queue
// drains without its rate limit: the manager is idle, nothing competes.
const ownershipQueueIdle = 2 * time.Second

// newOwnershipQueue returns a queue that drops at most perSecond
// ownerships a second through c.
func newOwnershipQueue(c client.Client, perSecond float64, capacity int) *ownershipQueue {
	return &ownershipQueue{
		client:  c,
		items:   make(chan client.Object, capacity),
		limiter: rate.NewLimiter(rate.Limit(perSecond), 1),
	}
}

// add queues the metadata of obj, as its status patch returned it, when
// it has status entries; it never blocks, and reports false when the
// queue is full.
func (q *ownershipQueue) add(obj client.Object) bool {
	if _, found := withoutStatusEntries(obj.GetManagedFields()); !found {
		return true
	}
	gvk, err := apiutil.GVKForObject(obj, q.client.Scheme())
	if err != nil {
		return false
	}
	item := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
		Namespace:       obj.GetNamespace(),
		Name:            obj.GetName(),
		ResourceVersion: obj.GetResourceVersion(),
		ManagedFields:   obj.GetManagedFields(),
	}}
	item.SetGroupVersionKind(gvk)
	q.lastAdded.Store(time.Now().UnixNano())
	select {
	case q.items <- item:
		return true
	default:
		return false
	}
}

// Start drops the ownership of the queued objects until ctx ends: at the
// queue's rate while status patches are being made, as fast as the API
// server answers once none was made for ownershipQueueIdle.
func (q *ownershipQueue) Start(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case obj := <-q.items:
			if time.Since(time.Unix(0, q.lastAdded.Load())) < ownershipQueueIdle {
				if err := q.limiter.Wait(ctx); err != nil {
					return nil //nolint:nilerr // the context ended: stop as the manager stops
				}
			}
			dropStatusOwnership(ctx, q.client, obj)
		}
	}
}

// NeedLeaderElection makes the queue run on the leader, where the status
// patches are made.
func (q *ownershipQueue) NeedLeaderElection() bool { return true }

// dropStatusOwnership writes obj's managedFields, as the API server
// answered its status patch, back without the entries of the status
// subresource; obj (the queue's own copy of the metadata) takes the
// answer. The write carries obj's resourceVersion: when the object
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
	switch err := c.Patch(ctx, obj, client.RawPatch(types.MergePatchType, data)); {
	case err == nil:
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		log.V(1).Info("Left the status's field ownership; the object changed", "reason", err.Error())
	default:
		log.Info("Could not drop the status's field ownership", "error", err.Error())
	}
}

// ChangedBeyondBookkeeping passes an update event of an object unless the
// object only got a new resourceVersion (and managedFields, which the
// cache strips): the update dropStatusOwnership makes, which no reconcile
// needs to see. A resync (the same resourceVersion) passes.
var ChangedBeyondBookkeeping = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		if e.ObjectOld == nil || e.ObjectNew == nil ||
			e.ObjectOld.GetResourceVersion() == e.ObjectNew.GetResourceVersion() {
			return true
		}
		return !onlyBookkeepingDiffers(e.ObjectOld, e.ObjectNew)
	},
}

// onlyBookkeepingDiffers reports whether old and new are equal but for
// their resourceVersion and managedFields. It runs for every update event
// of three watches, so it compares shallow copies of the objects (their
// maps and slices shared, never written) instead of deep copies.
func onlyBookkeepingDiffers(old, new client.Object) bool {
	if !ownershipDropped(old) || reflect.TypeOf(new) != reflect.TypeOf(old) {
		return false
	}
	o2, n2 := shallowCopy(old), shallowCopy(new)
	for _, obj := range []client.Object{o2, n2} {
		obj.SetResourceVersion("")
		obj.SetManagedFields(nil)
	}
	return equality.Semantic.DeepEqual(o2, n2)
}

// ownershipDropped says whether obj is of a kind whose status's field
// ownership the manager drops: an Invoice, CreditNote or Payment, the
// rows of internal/recordkind marked StatusOwnershipDropped.
func ownershipDropped(obj client.Object) bool {
	k := recordkind.Of(obj)
	return k != nil && k.StatusOwnershipDropped
}

// shallowCopy is a new object holding a copy of *obj: its maps and slices
// are obj's.
func shallowCopy(obj client.Object) client.Object {
	out := reflect.New(reflect.TypeOf(obj).Elem())
	out.Elem().Set(reflect.ValueOf(obj).Elem())
	return out.Interface().(client.Object)
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
