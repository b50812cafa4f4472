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

package httpapi

import (
	"context"
	"slices"
	"sync"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// nameIndex keeps, for each set key (a workspace, or a workspace and a
// customer), the names of the objects the cache holds, sorted. A page of a
// list is then a binary search and limit names, whatever the size of the
// workspace, instead of a sort of the whole workspace per page. It is kept
// up to date by the informer's event handler, which runs after the
// informer's store has changed: a name in the index is in the store (or was
// just deleted from it).
type nameIndex struct {
	mu   sync.RWMutex
	sets map[string][]string
	// waiters are closed when their set key and name are added.
	waiters map[setMember][]chan struct{}
}

type setMember struct{ set, name string }

func newNameIndex() *nameIndex {
	return &nameIndex{sets: map[string][]string{}, waiters: map[setMember][]chan struct{}{}}
}

// add puts name into each of sets, and wakes whoever waits for it.
func (x *nameIndex) add(name string, sets ...string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, set := range sets {
		names := x.sets[set]
		// Ids made by the API are ULIDs, so most adds are appends.
		if n := len(names); n == 0 || names[n-1] < name {
			x.sets[set] = append(names, name)
		} else if i, found := slices.BinarySearch(names, name); !found {
			x.sets[set] = slices.Insert(names, i, name)
		}
		m := setMember{set, name}
		for _, ch := range x.waiters[m] {
			close(ch)
		}
		delete(x.waiters, m)
	}
}

// remove takes name out of each of sets.
func (x *nameIndex) remove(name string, sets ...string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, set := range sets {
		names := x.sets[set]
		i, found := slices.BinarySearch(names, name)
		if !found {
			continue
		}
		if len(names) == 1 {
			delete(x.sets, set)
			continue
		}
		x.sets[set] = slices.Delete(names, i, i+1)
	}
}

// after returns at most n names of set that sort after after, in order.
func (x *nameIndex) after(set, after string, n int) []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	names := x.sets[set]
	i, found := slices.BinarySearch(names, after)
	if found {
		i++
	}
	end := min(i+n, len(names))
	return slices.Clone(names[i:end])
}

// wait blocks until set holds name, or ctx ends (false).
func (x *nameIndex) wait(ctx context.Context, set, name string) bool {
	x.mu.Lock()
	if _, found := slices.BinarySearch(x.sets[set], name); found {
		x.mu.Unlock()
		return true
	}
	m := setMember{set, name}
	ch := make(chan struct{})
	x.waiters[m] = append(x.waiters[m], ch)
	x.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		x.mu.Lock()
		defer x.mu.Unlock()
		x.waiters[m] = slices.DeleteFunc(x.waiters[m], func(c chan struct{}) bool { return c == ch })
		if len(x.waiters[m]) == 0 {
			delete(x.waiters, m)
		}
		select {
		case <-ch: // added meanwhile
			return true
		default:
			return false
		}
	}
}

// handler keeps the index in step with an informer; setsOf names the sets
// an object belongs to.
func (x *nameIndex) handler(setsOf func(client.Object) []string) toolscache.ResourceEventHandler {
	object := func(obj any) (client.Object, bool) {
		if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		o, ok := obj.(client.Object)
		return o, ok
	}
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if o, ok := object(obj); ok {
				x.add(o.GetName(), setsOf(o)...)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			o, ok1 := object(oldObj)
			n, ok2 := object(newObj)
			if !ok1 || !ok2 {
				return
			}
			oldSets, newSets := setsOf(o), setsOf(n)
			if !slices.Equal(oldSets, newSets) {
				x.remove(o.GetName(), oldSets...)
				x.add(n.GetName(), newSets...)
			}
		},
		DeleteFunc: func(obj any) {
			if o, ok := object(obj); ok {
				x.remove(o.GetName(), setsOf(o)...)
			}
		},
	}
}

// workspaceSet and customerSet are the set keys of the index: every object
// of a workspace, and the invoices of one customer.
func workspaceSet(ns string) string          { return ns }
func customerSet(ns, customer string) string { return ns + "/" + customer }
