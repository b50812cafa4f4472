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
	"container/list"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The sealed records read last stay decoded. Decoding a record's JSON was
// half of a page's CPU at a million sealed invoices (docs/performance.md):
// a page of 100 decoded 100 records, and the pages read most (a
// workspace's, a customer's, their first pages) were decoded again on
// every read. A decoded object is shared, as the informer's objects are:
// every reader reads it and none changes it (Get, Page and Events say
// so). The cache is bounded by count; a decoded invoice costs some 5 KB.

// DefaultSealedObjects is how many decoded sealed records a store keeps
// when Options.SealedObjects is zero: some 100 MB, the first pages of
// every workspace and customer a busy replica serves.
const DefaultSealedObjects = 20000

// decodedRecords is the bounded cache of decoded sealed records, the
// least recently read evicted first.
type decodedRecords struct {
	mu    sync.Mutex
	limit int
	order *list.List // of *decodedRecord, the most recently read first
	byRef map[*sealedRef]*list.Element
}

type decodedRecord struct {
	ref *sealedRef
	obj client.Object
}

// newDecodedRecords returns a cache of at most limit records; nil, which
// keeps none, when limit is not positive.
func newDecodedRecords(limit int) *decodedRecords {
	if limit <= 0 {
		return nil
	}
	return &decodedRecords{limit: limit, order: list.New(), byRef: map[*sealedRef]*list.Element{}}
}

// record returns the decoded record ref names, from the cache when it
// holds it, else decoded and kept. The object is shared: read it, never
// change it.
func (c *decodedRecords) record(ref *sealedRef) (client.Object, error) {
	if c == nil {
		return ref.record()
	}
	if obj, ok := c.get(ref); ok {
		return obj, nil
	}
	obj, err := ref.record()
	if err != nil {
		return nil, err
	}
	c.keep(ref, obj)
	return obj, nil
}

func (c *decodedRecords) get(ref *sealedRef) (client.Object, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byRef[ref]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*decodedRecord).obj, true
}

// keep adds obj as ref's decoded record, evicting the least recently
// read beyond the limit; a record another reader kept first stays.
func (c *decodedRecords) keep(ref *sealedRef, obj client.Object) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byRef[ref]; ok {
		return
	}
	c.byRef[ref] = c.order.PushFront(&decodedRecord{ref: ref, obj: obj})
	for c.order.Len() > c.limit {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.byRef, oldest.Value.(*decodedRecord).ref)
	}
}

// forget drops ref's decoded record: its seal was deleted.
func (c *decodedRecords) forget(ref *sealedRef) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byRef[ref]; ok {
		c.order.Remove(e)
		delete(c.byRef, ref)
	}
}
