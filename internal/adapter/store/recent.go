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

package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/apiserver/pkg/storage"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Read your writes across replicas. A replica serves the objects it created
// itself from memory until its informer delivers them (Created). An object
// created through ANOTHER replica a moment ago is missing from this
// replica's cache until its informer delivers it: a get then reads it from
// the API server (Get), and the last page of a list waits for the informer
// behind a read barrier (barrier.go). Only the last page needs it: ids are
// ULIDs, so an object created now sorts after every page but the last.
//
// When the barrier is not reached in time (an idle kind, or a watch that
// lags), the last page is read from the API server instead: the page's
// objects after the cursor, at the barrier's resource version, so the
// answer is as fresh as the barrier's and costs O(limit) however large the
// workspace.
//
// Objects created before this barrier carry the label LabelCreatedBucket,
// by which the last page used to list the recent objects of a workspace;
// nothing reads it any more, and the adapter no longer writes it.

// DefaultBarrierTimeout is how long the last page of a list waits for the
// informer to deliver the read barrier when Options.BarrierTimeout is
// zero: long enough for a busy kind (its next event reaches the barrier in
// milliseconds), short enough that a page whose informer lags still
// answers at once from the API server.
const DefaultBarrierTimeout = 250 * time.Millisecond

// filteredChunk is the size of the lists that read a filtered selection's
// last page from the API server.
const filteredChunk = 500

// barrierName is the name the barrier's list selects: any name will do.
const barrierName = "read-barrier"

// currentVersion returns the API server's current resource version of k:
// the resource version of a metadata-only list of the kind in namespace ns
// (any namespace will do: the version is the kind's, not the namespace's)
// selected by one name. A list without a resource version is a consistent
// read: the API server answers from its watch cache once that has caught
// up with etcd's current revision (KEP-2340), or from etcd with a quorum
// read, and its ListMeta.ResourceVersion is at least that of every write
// that completed before it. Selected by namespace and name it is one key
// lookup in the watch cache, and API Priority and Fairness counts it as a
// get (one seat): a list with only a limit would be counted by the number
// of objects of the kind, up to the maximum, and queue behind the heavy
// lists of its priority level.
func (s *Store) currentVersion(k *kind) func(ctx context.Context, ns string) (string, error) {
	return func(ctx context.Context, ns string) (string, error) {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(billingv1.GroupVersion.WithKind(k.listKind))
		if err := s.live.List(ctx, list, client.InNamespace(ns),
			client.MatchingFieldsSelector{Selector: fields.OneTermEqualSelector("metadata.name", barrierName)}); err != nil {
			return "", fmt.Errorf("reading the current resource version: %w", err)
		}
		return list.ResourceVersion, nil
	}
}

// othersWrites returns the last page of sel after after (at most limit+1
// objects, sorted by name) with what any replica wrote before the call:
// from the cache behind the barrier; else from the cache when a
// metadata-only read of the page from the API server confirms it; else
// from the API server.
func othersWrites(ctx context.Context, s *Store, k *kind, sel Selection, after string,
	limit int) ([]client.Object, error) {
	rv, outcome, took, err := k.barrier.await(ctx, sel.Namespace)
	if err != nil {
		return nil, err
	}
	s.metrics.observe(outcome, took)
	if outcome == barrierReached {
		// Read the page again: the informer has delivered more since.
		return cachedPage(ctx, s, k, sel, after, limit)
	}
	page, confirmed, err := confirmedPage(ctx, s, k, sel, after, rv, limit)
	if err != nil {
		return nil, err
	}
	if confirmed {
		s.metrics.confirm(outcome)
		return page, nil
	}
	s.metrics.fallBack(outcome)
	logf.FromContext(ctx).V(1).Info("Reading the last page from the API server", "kind", k.listKind,
		"barrier", outcome, "took", took)
	return livePage(ctx, s, k, sel, after, rv, limit)
}

// confirmedPage returns the cached last page of a whole workspace when the
// API server, read at resource version rv or later, holds exactly its
// objects, none newer than the cache's: the informer of an idle kind has
// then missed nothing of the page, and the page costs a metadata-only
// list of limit+1 objects (names and versions, not the objects) instead of
// the objects themselves. A filtered selection cannot be checked from
// metadata and is never confirmed.
func confirmedPage(ctx context.Context, s *Store, k *kind, sel Selection, after, rv string,
	limit int) ([]client.Object, bool, error) {
	if sel.key() != (Selection{Namespace: sel.Namespace}).key() {
		return nil, false, nil
	}
	if k.overlay.holds(sel.Namespace) {
		// The API server lists the live objects only: a page with sealed
		// records in it cannot be compared with its list.
		return nil, false, nil
	}
	token, err := continueAfter(after, rv)
	if err != nil || (token == "" && after != "") {
		return nil, false, err
	}
	cached, err := cachedPage(ctx, s, k, sel, after, limit)
	if err != nil {
		return nil, false, err
	}
	live := &metav1.PartialObjectMetadataList{}
	live.SetGroupVersionKind(billingv1.GroupVersion.WithKind(k.listKind))
	if err := s.live.List(ctx, live, pageOptions(sel.Namespace, int64(limit+1), token)...); err != nil {
		return nil, false, fmt.Errorf("reading the last page's versions from the API server: %w", err)
	}
	return cached, sameOrNewer(cached, live.Items, limit), nil
}

// sameOrNewer reports whether cached holds the objects of live's first
// limit+1, in order, each at a resource version no older than live's.
func sameOrNewer(cached []client.Object, live []metav1.PartialObjectMetadata, limit int) bool {
	live = live[:min(len(live), limit+1)]
	if len(cached) != len(live) {
		return false
	}
	for i := range live {
		if cached[i].GetName() != live[i].Name {
			return false
		}
		c, err := resourceversion.CompareResourceVersion(cached[i].GetResourceVersion(), live[i].ResourceVersion)
		if err != nil || c < 0 {
			return false
		}
	}
	return true
}

// continueAfter is a continue token that starts a list of a namespace
// after the name after, at resource version rv, built as the API server
// builds its own (the key after the last one listed); "" when after is ""
// (the list starts at the namespace's first object) or rv is not a
// number.
func continueAfter(after, rv string) (string, error) {
	if after == "" {
		return "", nil
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n <= 0 {
		return "", nil
	}
	token, err := storage.EncodeContinue("/"+after+"\x00", "/", n)
	if err != nil {
		return "", fmt.Errorf("building a continue token: %w", err)
	}
	return token, nil
}

// pageOptions are the options of a list of namespace ns from the API
// server: at most limit objects, from continue token on, or from the
// namespace's first object when token is "".
func pageOptions(ns string, limit int64, token string) []client.ListOption {
	opts := []client.ListOption{client.InNamespace(ns), client.Limit(limit)}
	if token != "" {
		opts = append(opts, client.Continue(token))
	}
	return opts
}

// livePage reads from the API server the objects of sel that follow after,
// at most limit+1, at resource version rv or later. It lists the namespace
// from after on, with a continue token built as the API server builds its
// own (the key after the last one listed, at a resource version): the list
// starts at the cursor instead of at the namespace's first object, and is
// consistent at that resource version, which is the API server's current
// one. A workspace's page costs one list of limit+1 objects. A filtered
// selection (a customer's, a phase) is filtered here, so it reads as many
// of the workspace's objects as follow after until the page is full, in
// lists of filteredChunk: the cost the barrier saves when it is reached.
// The sealed records (sealed.go), which the API server no longer has, are
// merged in from the overlay, in name order; a live object whose name the
// overlay holds is skipped, as cachedPage serves the overlay's instead.
func livePage(ctx context.Context, s *Store, k *kind, sel Selection, after, rv string,
	limit int) ([]client.Object, error) {
	set := sel.key()
	chunk := int64(limit + 1)
	if set != (Selection{Namespace: sel.Namespace}).key() {
		chunk = max(chunk, filteredChunk)
	}
	// A resource version that is not a number gives no token: the list
	// then starts at the namespace's first object and skips up to after.
	token, err := continueAfter(after, rv)
	if err != nil {
		return nil, err
	}
	page := make([]client.Object, 0, limit+1)
	for {
		list := k.newList()
		if err := s.live.List(ctx, list, pageOptions(sel.Namespace, chunk, token)...); err != nil {
			return nil, fmt.Errorf("reading the last page from the API server: %w", err)
		}
		err := meta.EachListItem(list, func(o runtime.Object) error {
			obj, ok := o.(client.Object)
			if ok && len(page) <= limit && obj.GetName() > after && slices.Contains(k.sets(obj), set) {
				if !k.overlay.has(obj.GetNamespace(), obj.GetName()) {
					page = append(page, obj)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if token = list.GetContinue(); token == "" || len(page) > limit {
			return mergeSealed(k, page, sel, after, limit), nil
		}
	}
}
