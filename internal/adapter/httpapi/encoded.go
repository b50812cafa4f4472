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

package httpapi

import (
	"encoding/json"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// encodedCache keeps the JSON of the objects list pages answer, as /v1
// answers them, so that a page of objects that have not changed since the
// last time one of them was listed is copied, not rendered and encoded
// again: rendering and encoding are most of a list page's cost, and
// dashboards read the same newest pages over and over.
//
// An entry is the encoding of one version of one object: it is keyed by
// the object's uid and used only while the object's resourceVersion is the
// one it was encoded from, so a changed object is encoded anew. Only
// objects whose /v1 form is a function of the object alone (invoices and
// customers) are cached; a credit note or payment is rendered with its
// invoice's number and is not.
//
// The cache holds at most its budget in bytes of JSON. When a new entry
// would exceed it, entries are dropped in the map's (random) order until a
// quarter of the budget is free: no bookkeeping per read, and an entry that
// is read again is simply encoded again after it was dropped.
type encodedCache struct {
	budget int
	mu     sync.Mutex
	size   int
	byUID  map[types.UID]encodedEntry
}

type encodedEntry struct {
	resourceVersion string
	// seal is the object's billingv1.LabelSealedIn label when it was
	// encoded: a sealed record the store serves from its seal may carry
	// the resource version of its last live state, and its JSON differs
	// by the seal field.
	seal string
	json []byte
}

// newEncodedCache returns a cache of at most budget bytes; nil, which
// caches nothing, when budget is not positive.
func newEncodedCache(budget int64) *encodedCache {
	if budget <= 0 {
		return nil
	}
	return &encodedCache{budget: int(min(budget, int64(^uint(0)>>1))), byUID: map[types.UID]encodedEntry{}}
}

// encodeEach returns the JSON of render(o) for each object of page, from
// the cache when it holds the object's current version. A nil cache
// encodes every object.
func encodeEach[O client.Object, R any](c *encodedCache, page []O, render func(O) R) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(page))
	for i, o := range page {
		if b, ok := c.get(o); ok {
			out[i] = b
			continue
		}
		b, err := json.Marshal(render(o))
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", o.GetName(), err)
		}
		c.put(o, b)
		out[i] = b
	}
	return out, nil
}

func (c *encodedCache) get(o client.Object) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byUID[o.GetUID()]
	if !ok || e.resourceVersion != o.GetResourceVersion() || o.GetResourceVersion() == "" ||
		e.seal != o.GetLabels()[billingv1.LabelSealedIn] {
		return nil, false
	}
	return e.json, true
}

func (c *encodedCache) put(o client.Object, b []byte) {
	if c == nil || o.GetUID() == "" || o.GetResourceVersion() == "" || len(b) > c.budget/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.byUID[o.GetUID()]; ok {
		delete(c.byUID, o.GetUID())
		c.size -= len(old.json)
	}
	if c.size+len(b) > c.budget {
		for uid, e := range c.byUID {
			delete(c.byUID, uid)
			c.size -= len(e.json)
			if c.size <= c.budget*3/4-len(b) {
				break
			}
		}
	}
	c.byUID[o.GetUID()] = encodedEntry{resourceVersion: o.GetResourceVersion(), seal: o.GetLabels()[billingv1.LabelSealedIn],
		json: b}
	c.size += len(b)
}

// len is how many objects the cache holds, and their bytes.
func (c *encodedCache) len() (objects, bytes int) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byUID), c.size
}
