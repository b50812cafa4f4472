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

package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Read your writes across replicas. A replica serves the objects it created
// itself from memory until its informer delivers them (Created). An object
// created through ANOTHER replica a moment ago is missing from this
// replica's cache until its informer delivers it: a get then reads it from
// the API server (Get), and the last page of a list asks the API server for
// the objects created in the last few seconds. Every object the adapter
// creates carries LabelCreatedBucket, the ten-second bucket of its creation
// time; the last page lists (metadata only) the objects of the recent
// buckets, reads those its cache lacks from the API server and adds those
// of the selection. Only the last page needs it: ids are ULIDs, so an
// object created now sorts after every page but the last.

// bucketSeconds is the width of a creation bucket.
const bucketSeconds = 10

// CreatedLabels are the labels of an object the adapter creates at now.
func CreatedLabels(now time.Time) map[string]string {
	return map[string]string{billingv1.LabelCreatedBucket: strconv.FormatInt(now.Unix()/bucketSeconds, 10)}
}

// recentSelector selects the objects created in the buckets around now: the
// current one, the two before it (an informer up to 20 seconds behind), and
// the next one (another replica's clock a little ahead).
func recentSelector(now time.Time) (labels.Selector, error) {
	b := now.Unix() / bucketSeconds
	values := make([]string, 0, 4)
	for d := int64(-2); d <= 1; d++ {
		values = append(values, strconv.FormatInt(b+d, 10))
	}
	req, err := labels.NewRequirement(billingv1.LabelCreatedBucket, selection.In, values)
	if err != nil {
		return nil, err
	}
	return labels.NewSelector().Add(*req), nil
}

// withRecent adds to page (the last page of sel after after, sorted by name)
// the objects of sel created in the recent buckets that the cache does not
// hold yet, read from the API server; they are remembered as if this
// replica had created them, so that its next reads agree.
func withRecent[T any, PT Object[T]](ctx context.Context, s *Store, k *kind, sel Selection, after string,
	page []PT) ([]PT, error) {
	selector, err := recentSelector(s.opts.Now())
	if err != nil {
		return nil, err
	}
	meta := &metav1.PartialObjectMetadataList{}
	meta.SetGroupVersionKind(billingv1.GroupVersion.WithKind(k.listKind))
	if err := s.live.List(ctx, meta, client.InNamespace(sel.Namespace),
		client.MatchingLabelsSelector{Selector: selector}); err != nil {
		return nil, fmt.Errorf("listing recent objects from the API server: %w", err)
	}
	workspace := Selection{Namespace: sel.Namespace}.key()
	set := sel.key()
	for _, item := range meta.Items {
		name := item.Name
		if name <= after || k.names.has(workspace, name) ||
			slices.ContainsFunc(page, func(o PT) bool { return o.GetName() == name }) {
			continue // served from the cache, or already on the page
		}
		obj := PT(new(T))
		if err := s.live.Get(ctx, types.NamespacedName{Namespace: sel.Namespace, Name: name}, obj); err != nil {
			if client.IgnoreNotFound(err) == nil {
				continue // deleted since
			}
			return nil, fmt.Errorf("reading a recent object from the API server: %w", err)
		}
		sets := k.sets(obj)
		k.names.remember(obj, sets, s.opts.Now(), s.opts.ReadYourWritesTimeout)
		if slices.Contains(sets, set) {
			page = append(page, obj)
		}
	}
	slices.SortFunc(page, func(a, b PT) int { return strings.Compare(a.GetName(), b.GetName()) })
	return page, nil
}
