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
	"slices"
	"sync"
	"time"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// nameIndex keeps, for each set key (a workspace, or a workspace and a
// customer, each also per filter value: see Selection), the names of the objects the cache holds, sorted. A page of a
// list is then a binary search and limit names, whatever the size of the
// workspace, instead of a sort of the whole workspace per page. It is kept
// up to date by the informer's event handler, which runs after the
// informer's store has changed: a name in the index is in the store (or was
// just deleted from it).
//
// It also holds the objects this replica has just created that its informer
// has not delivered yet (pending), so that a client reads its own writes
// at once, without waiting for the watch: a pending object is in the index
// and served from here until the informer delivers it (or deletes it), and
// at most for the pending TTL (Options.ReadYourWritesTimeout), after which
// an object the informer never delivered is taken to be gone.
type nameIndex struct {
	mu   sync.RWMutex
	sets map[string][]string
	// pending objects by namespace/name, and their keys in the order they
	// were remembered, for expiry.
	pending      map[string]pendingObject
	pendingOrder []pendingKey
	// deferring, while the store warms, makes moveAll (and insert, for
	// a name that sorts before its set's last) keep each set's
	// new names in unsorted instead of merging them into the set: a
	// restart takes hundreds of seals in, and merging each seal's names
	// into sets that hold the ones before was quadratic (12 % of a
	// restart's CPU at a million, docs/performance.md). A set's unsorted
	// names are merged once, before anything reads or deletes in it
	// (flush), and all of them when the store has synced (mergeDeferred).
	deferring bool
	unsorted  map[string][]string
}

type pendingObject struct {
	obj  client.Object
	sets []string
	at   time.Time
}

type pendingKey struct {
	key string
	at  time.Time
}

func newNameIndex() *nameIndex {
	return &nameIndex{sets: map[string][]string{}, pending: map[string]pendingObject{}}
}

func objectKey(ns, name string) string { return ns + "/" + name }

// remember makes obj, just created by this replica, visible to reads at
// once: its name joins sets and the object is served by pendingObject until
// the informer delivers it. An object the informer has already delivered is
// left to the cache. Entries older than ttl are dropped first.
func (x *nameIndex) remember(obj client.Object, sets []string, now time.Time, ttl time.Duration) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.expire(now, ttl)
	if len(sets) == 0 {
		return
	}
	x.flush(sets[0])
	if _, found := slices.BinarySearch(x.sets[sets[0]], obj.GetName()); found {
		return // the informer was first
	}
	key := objectKey(obj.GetNamespace(), obj.GetName())
	x.pending[key] = pendingObject{obj: obj, sets: sets, at: now}
	x.pendingOrder = append(x.pendingOrder, pendingKey{key: key, at: now})
	x.insert(obj.GetName(), sets...)
}

// expire drops the pending objects remembered before now-ttl, and their
// names: the informer never delivered them, so they are gone (created and
// deleted before the watch showed them) or the watch is broken, and the
// informer will add them again when it shows them. Called with mu held.
func (x *nameIndex) expire(now time.Time, ttl time.Duration) {
	for len(x.pendingOrder) > 0 && now.Sub(x.pendingOrder[0].at) > ttl {
		k := x.pendingOrder[0]
		x.pendingOrder = x.pendingOrder[1:]
		if p, ok := x.pending[k.key]; ok && p.at.Equal(k.at) {
			delete(x.pending, k.key)
			x.delete(p.obj.GetName(), p.sets...)
		}
	}
}

// pendingObject returns the object this replica created as ns/name, while
// the informer has not delivered it.
func (x *nameIndex) pendingObject(ns, name string) (client.Object, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	p, ok := x.pending[objectKey(ns, name)]
	return p.obj, ok
}

// settle forgets a pending object: the informer has delivered it (the
// cache holds it now, in sets) or its deletion (sets is nil). The name
// leaves the sets it was remembered in that it no longer belongs to: an
// invoice the controller issued before the informer first delivered it is
// no longer pending.
func (x *nameIndex) settle(obj client.Object, sets []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	key := objectKey(obj.GetNamespace(), obj.GetName())
	if p, ok := x.pending[key]; ok {
		for _, set := range p.sets {
			if !slices.Contains(sets, set) {
				x.delete(obj.GetName(), set)
			}
		}
		delete(x.pending, key)
	}
	if len(x.pending) == 0 {
		x.pendingOrder = nil
	}
}

// add puts name into each of sets.
func (x *nameIndex) add(name string, sets ...string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.insert(name, sets...)
}

// insert puts name into each of sets. Called with mu held.
func (x *nameIndex) insert(name string, sets ...string) {
	for _, set := range sets {
		names := x.sets[set]
		// Ids made by the API are ULIDs, so most adds are appends. One
		// that is not waits, while the store warms, to be merged with the
		// rest (deferMerges): a restart's live objects come in after the
		// seals' names, and inserting each shifted its set's tail (12 % of
		// a restart's CPU at a million, docs/performance.md).
		if n := len(names); n == 0 || names[n-1] < name {
			x.sets[set] = append(names, name)
		} else if x.deferring {
			x.unsorted[set] = append(x.unsorted[set], name)
		} else if i, found := slices.BinarySearch(names, name); !found {
			x.sets[set] = slices.Insert(names, i, name)
		}
	}
}

// remove takes name out of each of sets.
func (x *nameIndex) remove(name string, sets ...string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.delete(name, sets...)
}

// move takes name out of the sets of from that are not in to, and puts it
// into those of to that are not in from, at once: a page of a set that
// holds the name before and after (its workspace's) never misses it.
func (x *nameIndex) move(name string, from, to []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	nameMove{name: name, from: from, to: to}.sets(
		func(set string) { x.delete(name, set) }, func(set string) { x.insert(name, set) })
}

// nameMove is one name's move between sets (nameIndex.move).
type nameMove struct {
	name     string
	from, to []string
}

// sets calls leave with each set of from that is not in to, then enter
// with each set of to that is not in from.
func (m nameMove) sets(leave, enter func(set string)) {
	for _, set := range m.from {
		if !slices.Contains(m.to, set) {
			leave(set)
		}
	}
	for _, set := range m.to {
		if !slices.Contains(m.from, set) {
			enter(set)
		}
	}
}

// moveAll makes moves at once, as move makes one: a seal's records come
// in by the thousand, and names inserted one at a time into a set that
// already holds later names (a restart's live objects, taken in before
// the seals) shift that set's tail once a name. Here each set takes its
// new names in one merge from the back.
func (x *nameIndex) moveAll(moves []nameMove) {
	x.mu.Lock()
	defer x.mu.Unlock()
	in := map[string][]string{}
	for _, m := range moves {
		m.sets(func(set string) { x.delete(m.name, set) }, func(set string) { in[set] = append(in[set], m.name) })
	}
	for set, add := range in {
		if x.deferring {
			x.unsorted[set] = append(x.unsorted[set], add...)
			continue
		}
		x.sets[set] = mergeNames(x.sets[set], add)
	}
}

// deferMerges makes moveAll and insert defer their merges until
// mergeDeferred, for a store that is warming.
func (x *nameIndex) deferMerges() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.deferring = true
	x.unsorted = map[string][]string{}
}

// mergeDeferred merges every set's deferred names, each set once, and
// ends deferring: the store has synced, and a seal taken in from now on
// merges its names at once.
func (x *nameIndex) mergeDeferred() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for set := range x.unsorted {
		x.flush(set)
	}
	x.deferring = false
	x.unsorted = nil
}

// flush merges the deferred names of set into it. Called with mu held.
func (x *nameIndex) flush(set string) {
	add, ok := x.unsorted[set]
	if !ok {
		return
	}
	delete(x.unsorted, set)
	x.sets[set] = mergeNames(x.sets[set], add)
}

// mergeNames returns sorted names with add (in any order) merged in,
// each name once, reusing names' array: the new names that sort after
// names' last are appended, the others merged from the back, so only the
// tail after the first of them moves, once.
func mergeNames(names, add []string) []string {
	slices.Sort(add)
	add = slices.Compact(add)
	fresh := add[:0:0]
	for _, name := range add {
		if _, found := slices.BinarySearch(names, name); !found {
			fresh = append(fresh, name)
		}
	}
	n := len(names)
	names = slices.Grow(names, len(fresh))[:n+len(fresh)]
	i, j := n-1, len(fresh)-1
	for k := len(names) - 1; j >= 0; k-- {
		if i >= 0 && names[i] > fresh[j] {
			names[k], i = names[i], i-1
		} else {
			names[k], j = fresh[j], j-1
		}
	}
	return names
}

// delete takes name out of each of sets. Called with mu held.
func (x *nameIndex) delete(name string, sets ...string) {
	for _, set := range sets {
		x.flush(set)
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
	if _, deferred := x.unsorted[set]; !deferred {
		defer x.mu.RUnlock()
		return x.read(set, after, n)
	}
	x.mu.RUnlock()
	// The set's deferred names are merged first, under the write lock
	// that the read then keeps, so that none taken in meanwhile is missed.
	x.mu.Lock()
	defer x.mu.Unlock()
	x.flush(set)
	return x.read(set, after, n)
}

// read is after's read of the merged set. Called with mu held.
func (x *nameIndex) read(set, after string, n int) []string {
	names := x.sets[set]
	i, found := slices.BinarySearch(names, after)
	if found {
		i++
	}
	end := min(i+n, len(names))
	return slices.Clone(names[i:end])
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
				sets := setsOf(o)
				x.add(o.GetName(), sets...)
				x.settle(o, sets)
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
				x.move(n.GetName(), oldSets, newSets)
			}
			x.settle(n, newSets)
		},
		DeleteFunc: func(obj any) {
			if o, ok := object(obj); ok {
				x.remove(o.GetName(), setsOf(o)...)
				x.settle(o, nil)
			}
		},
	}
}
