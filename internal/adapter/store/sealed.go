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
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// Sealed records (docs/ledger.md). The manager moves the settled records of
// a closed period into LedgerSeals and deletes the originals; the store
// serves every record of every verified seal as if it were live, with the
// label billingv1.LabelSealedIn set to its seal's name, through the same
// Get, Page, Feed and Events as live records.
//
// Each record kind (Invoice, CreditNote, Payment, CreditApplication,
// Refund, WriteOff) has an overlay: the
// objects served instead of (or besides) the informer's, by name. It holds
//
//   - every record of every verified seal the LedgerSeal informer delivered;
//   - a labelled original whose deletion the informer delivered before its
//     seal: the manager labels an original with its seal's name only once
//     the seal exists and is verified, so the seal follows, and until it
//     does the original's last live state (which carries the label) is
//     served ("kept").
//
// A name in the overlay is served from it, never from the informer's
// cache: a name held by a seal and by a live object (an original not yet
// deleted, a manifest applied again) is one record, the sealed one. The
// kind's name index holds the overlay's names in the sets of the overlay's
// object; the overlay's own name index holds them again, for the pages
// read from the API server (recent.go), which must merge them in.
//
// Every change of a record kind's name index runs under its overlay's
// lock, so that the live informer's handler and the LedgerSeal informer's
// handler, which run concurrently, never undo one another: a live delete
// of a name the overlay holds leaves the name in every set.
//
// Memory: when its seal is delivered, each sealed record's line is read
// for the few fields its indexes need (its sets, its sequence, its
// events: seal.Indexed), never decoded whole, and then kept as its
// JSON line compressed with its neighbours (sealedblocks.go), some 130
// bytes a record; a read decodes it (some 70 µs), into an object of its
// own. A decoded record would cost what a live object costs
// in the informer's cache, some 5 KB: ten GB at a million sealed
// invoices. What a sealed record still costs is its names in the indexes
// and the seal's payload, which the LedgerSeal informer holds.
type overlay struct {
	mu      sync.RWMutex
	entries map[string]overlayEntry // by namespace/name
	// names indexes the overlay's objects by set, as the kind's name index
	// does, for pages that merge them into what the API server answers.
	names *nameIndex
	// keys holds one copy of each set key the overlay's entries name: a
	// million sealed invoices are in a few sets each, the same few.
	keys map[string]string
	// decoded keeps the sealed records read last decoded (sealedcache.go),
	// shared by every kind's overlay; nil keeps none.
	decoded *decodedRecords
}

type overlayEntry struct {
	// obj is a kept original; sealed, where a sealed record is kept (obj
	// is then nil).
	obj    client.Object
	sealed *sealedRef
	sets   []string
	// kept: the last live state of a labelled original deleted before its
	// seal was delivered, not yet a seal's record.
	kept bool
}

func newOverlay(decoded *decodedRecords) *overlay {
	return &overlay{entries: map[string]overlayEntry{}, names: newNameIndex(), keys: map[string]string{},
		decoded: decoded}
}

// get returns the object the overlay serves as ns/name: a sealed record,
// decoded or kept decoded (sealedcache.go), or a kept original; either is
// shared, and the caller only reads it.
func (o *overlay) get(ns, name string) (client.Object, bool) {
	if o == nil {
		return nil, false
	}
	o.mu.RLock()
	e, ok := o.entries[objectKey(ns, name)]
	o.mu.RUnlock()
	if !ok || e.sealed == nil {
		return e.obj, ok
	}
	obj, err := o.decoded.record(e.sealed)
	if err != nil {
		// Not expected: the record was read from this block when its
		// seal was taken in, after the seal was verified.
		return nil, false
	}
	return obj, true
}

// intern returns sets in a slice of their own length, each key the
// overlay's one copy of it. Called with o.mu held.
func (o *overlay) intern(sets []string) []string {
	out := make([]string, len(sets))
	for i, key := range sets {
		if strings.Contains(key, "|invoice=") {
			// One invoice's records: a set of a few, never shared.
			out[i] = key
			continue
		}
		kept, ok := o.keys[key]
		if !ok {
			kept = key
			o.keys[key] = key
		}
		out[i] = kept
	}
	return out
}

// has reports whether the overlay serves ns/name, without decoding it.
func (o *overlay) has(ns, name string) bool {
	if o == nil {
		return false
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	_, ok := o.entries[objectKey(ns, name)]
	return ok
}

// record decodes the sealed record ref names, labelled with its seal.
func (ref *sealedRef) record() (client.Object, error) {
	line, err := ref.block.line(ref.index)
	if err != nil {
		return nil, err
	}
	records, err := seal.Records(line)
	if err != nil {
		return nil, err
	}
	if len(records) != 1 {
		return nil, fmt.Errorf("a sealed record's line holds %d records", len(records))
	}
	return labelSealed(records[0].Object, ref.seal), nil
}

// labelSealed sets obj's label billingv1.LabelSealedIn to sealName, on a
// copy of its labels, and returns it.
func labelSealed(obj client.Object, sealName string) client.Object {
	labels := make(map[string]string, len(obj.GetLabels())+1)
	maps.Copy(labels, obj.GetLabels())
	labels[billingv1.LabelSealedIn] = sealName
	obj.SetLabels(labels)
	return obj
}

// holds reports whether the overlay holds any object of workspace ns.
func (o *overlay) holds(ns string) bool {
	if o == nil {
		return false
	}
	return len(o.names.after(Selection{Namespace: ns}.key(), "", 1)) > 0
}

// sealedIn returns the seal's name an object carries in its label, "" when
// none.
func sealedIn(obj client.Object) string { return obj.GetLabels()[billingv1.LabelSealedIn] }

// liveHandler keeps the name index of a record kind in step with its
// informer, leaving every name the overlay holds in the sets of the
// overlay's object.
func (k *kind) liveHandler() toolscache.ResourceEventHandler {
	plain := k.names.handler(k.sets)
	if k.overlay == nil {
		return plain
	}
	ov := k.overlay
	held := func(o client.Object) ([]string, bool) {
		e, ok := ov.entries[objectKey(o.GetNamespace(), o.GetName())]
		return e.sets, ok
	}
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			ov.mu.Lock()
			defer ov.mu.Unlock()
			if o, ok := eventObject(obj); ok {
				if sets, ok := held(o); ok {
					k.names.settle(o, sets)
					return
				}
			}
			plain.OnAdd(obj, false)
		},
		UpdateFunc: func(oldObj, newObj any) {
			ov.mu.Lock()
			defer ov.mu.Unlock()
			o, ok1 := eventObject(oldObj)
			n, ok2 := eventObject(newObj)
			if ok1 && ok2 {
				if sets, ok := held(n); ok {
					// The overlay's object decides the sets; a name the
					// live object was listed under before it was held
					// leaves the sets the held one is not in.
					k.names.move(n.GetName(), k.sets(o), sets)
					k.names.settle(n, sets)
					return
				}
			}
			plain.OnUpdate(oldObj, newObj)
		},
		DeleteFunc: func(obj any) {
			ov.mu.Lock()
			defer ov.mu.Unlock()
			o, ok := eventObject(obj)
			if !ok {
				return
			}
			if sets, ok := held(o); ok {
				k.names.move(o.GetName(), k.sets(o), sets)
				k.names.settle(o, sets)
				return
			}
			if sealedIn(o) != "" {
				// Moved into a seal the LedgerSeal informer has not
				// delivered yet: serve its last state until it does.
				sets := k.sets(o)
				ov.entries[objectKey(o.GetNamespace(), o.GetName())] = overlayEntry{obj: o, sets: sets, kept: true}
				ov.names.add(o.GetName(), sets...)
				k.names.settle(o, sets)
				return
			}
			plain.OnDelete(obj)
		},
	}
}

// eventObject is the object of an informer's event, or the last known
// state of a deleted one (DeletedFinalStateUnknown).
func eventObject(obj any) (client.Object, bool) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	o, ok := obj.(client.Object)
	return o, ok
}

// seals keeps what the store knows of each workspace's chain: which seals
// it has taken in (verified, their records in the overlays), the hash of
// each verified one, for checking the next against it, and the highest
// sequence delivered, from which a get that misses asks the API server for
// seals not delivered yet (findSealed).
type seals struct {
	mu         sync.Mutex
	workspaces map[string]*workspaceSeals
}

type workspaceSeals struct {
	// hashes of the verified seals, by sequence.
	hashes map[int64]string
	// taken: the seals whose records are in the overlays, by name, with
	// the records' kinds and names, to take them out again.
	taken map[string]takenSeal
	// highest is the highest sequence seen, verified or not.
	highest int64
}

type takenSeal struct {
	uid     types.UID
	records []takenRecord
}

// takenRecord is a record a seal put into an overlay.
type takenRecord struct {
	k    *kind
	name string
	ref  *sealedRef
}

func newSeals() *seals { return &seals{workspaces: map[string]*workspaceSeals{}} }

func (x *seals) workspace(ns string) *workspaceSeals {
	ws, ok := x.workspaces[ns]
	if !ok {
		ws = &workspaceSeals{hashes: map[int64]string{}, taken: map[string]takenSeal{}}
		x.workspaces[ns] = ws
	}
	return ws
}

// highest returns the highest sequence of ns seen.
func (x *seals) highest(ns string) int64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	if ws, ok := x.workspaces[ns]; ok {
		return ws.highest
	}
	return 0
}

// sealHandler takes the records of each LedgerSeal the informer delivers
// into the overlays. It runs before the LedgerSeal kind's read barrier
// observes the event (observed), so that the barrier, once reached, means
// the records are served.
func (s *Store) sealHandler() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if ls, ok := obj.(*billingv1.LedgerSeal); ok {
				s.takeSeal(ls)
			}
		},
		UpdateFunc: func(_, newObj any) {
			// The spec is immutable; an update adds the ledger.sealed
			// event, and takeSeal skips a seal it has taken.
			if ls, ok := newObj.(*billingv1.LedgerSeal); ok {
				s.takeSeal(ls)
			}
		},
		DeleteFunc: func(obj any) {
			if o, ok := eventObject(obj); ok {
				s.dropSeal(o.GetNamespace(), o.GetName())
			}
		},
	}
}

// takeSeal verifies ls, against its predecessor's hash when the store has
// verified it, else against its own previousHash (its payload's hash and
// its chain hash), and serves its records. A seal that fails is logged
// and its records are not served: /v1/seals/verify names it.
func (s *Store) takeSeal(ls *billingv1.LedgerSeal) {
	s.seals.mu.Lock()
	defer s.seals.mu.Unlock()
	ws := s.seals.workspace(ls.Namespace)
	ws.highest = max(ws.highest, ls.Spec.Sequence)
	if t, ok := ws.taken[ls.Name]; ok && t.uid == ls.UID {
		return
	}
	raw, err := seal.Verify(ls, seal.PreviousHash(ls, func(seq int64) (string, bool) {
		h, ok := ws.hashes[seq]
		return h, ok
	}))
	if err != nil {
		s.log.Error(err, "A seal does not verify: its records are not served", "namespace", ls.Namespace,
			"seal", ls.Name)
		return
	}
	records, err := readSealed(raw, ls.Name)
	if err != nil {
		s.log.Error(err, "A seal's records could not be read: they are not served", "namespace", ls.Namespace,
			"seal", ls.Name)
		return
	}
	ws.hashes[ls.Spec.Sequence] = ls.Spec.Hash
	ws.taken[ls.Name] = s.serveSeal(ls.Namespace, ls.UID, records)
}

// serveSeal serves the records of a seal of workspace ns (its own
// workspace's only: a seal holds no other's), kind by kind, and returns
// what it took in.
func (s *Store) serveSeal(ns string, uid types.UID, records []sealedTake) takenSeal {
	taken := takenSeal{uid: uid, records: make([]takenRecord, 0, len(records))}
	byKind := map[*kind][]sealedTake{}
	var kinds []*kind
	for _, r := range records {
		obj := r.obj
		if obj.GetNamespace() != ns {
			continue // a seal holds its own workspace's records only
		}
		k, ok := s.kinds[reflect.TypeOf(obj)]
		if !ok || k.overlay == nil {
			continue
		}
		if _, ok := byKind[k]; !ok {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], r)
		taken.records = append(taken.records, takenRecord{k: k, name: obj.GetName(), ref: r.ref})
	}
	for _, k := range kinds {
		s.serveSealed(k, byKind[k])
	}
	return taken
}

// sealedTake is a sealed record being taken in: the fields its indexes
// read (seal.Indexed), and where its line is kept.
type sealedTake struct {
	obj client.Object
	// sets are the sets obj belongs to (its kind's sets), named while
	// the seal's records are read, on more than one goroutine.
	sets []string
	ref  *sealedRef
}

// serveSealed puts a seal's records of kind k into its overlay and name
// indexes, and their sequences and events into theirs, under the
// overlay's lock; each name index takes the seal's names in one step
// (nameIndex.moveAll), so a page sees all of them or none.
func (s *Store) serveSealed(k *kind, records []sealedTake) {
	ov := k.overlay
	ov.mu.Lock()
	defer ov.mu.Unlock()
	overlayMoves, moves := make([]nameMove, 0, len(records)), make([]nameMove, 0, len(records))
	for _, r := range records {
		obj := r.obj
		key := objectKey(obj.GetNamespace(), obj.GetName())
		var from, fromOverlay []string
		if e, ok := ov.entries[key]; ok {
			from, fromOverlay = e.sets, e.sets
		} else if live, ok := s.liveObject(k, obj.GetNamespace(), obj.GetName()); ok {
			from = k.sets(live)
		}
		to := ov.intern(r.sets)
		ov.entries[key] = overlayEntry{sealed: r.ref, sets: to}
		overlayMoves = append(overlayMoves, nameMove{name: obj.GetName(), from: fromOverlay, to: to})
		moves = append(moves, nameMove{name: obj.GetName(), from: from, to: to})
		// Under the overlay's lock, as keepHeld's deletes: a delete of the
		// original that the feed's or the events' handler saw before the
		// seal is undone here; one it sees after is skipped there.
		if inv, seq := sequenceOf(obj); seq > 0 {
			s.sequences.put(inv.Namespace, inv.Name, seq)
		}
		s.events.put(obj)
	}
	ov.names.moveAll(overlayMoves)
	k.names.moveAll(moves)
}

// keepHeld is the invoice feed's or the events' handler of a record
// kind's informer, which skips the delete of a name the overlay holds:
// the sequence and the events of an original moved into a seal stay,
// even when the informer missed its label (a delete it learnt of only
// from a relist, DeletedFinalStateUnknown, with an older state).
type keepHeld struct {
	toolscache.ResourceEventHandler
	ov *overlay
}

func (h keepHeld) OnDelete(obj any) {
	o, ok := eventObject(obj)
	if !ok || h.ov == nil {
		h.ResourceEventHandler.OnDelete(obj)
		return
	}
	h.ov.mu.RLock()
	defer h.ov.mu.RUnlock()
	if _, held := h.ov.entries[objectKey(o.GetNamespace(), o.GetName())]; !held {
		h.ResourceEventHandler.OnDelete(obj)
	}
}

// dropSeal takes a deleted seal's records out (a seal is deleted only with
// its workspace): a name a live object still has goes back to its sets.
func (s *Store) dropSeal(ns, name string) {
	s.seals.mu.Lock()
	defer s.seals.mu.Unlock()
	ws, ok := s.seals.workspaces[ns]
	if !ok {
		return
	}
	t, ok := ws.taken[name]
	if !ok {
		return
	}
	delete(ws.taken, name)
	if seq, ok := seal.SequenceOf(name); ok {
		delete(ws.hashes, seq)
	}
	for _, r := range t.records {
		obj, err := r.ref.record()
		if err != nil {
			s.log.Error(err, "A sealed record of a deleted seal could not be read", "namespace", ns, "seal", name,
				"record", r.name)
			continue
		}
		k := r.k
		ov := k.overlay
		ov.mu.Lock()
		key := objectKey(ns, r.name)
		ov.decoded.forget(r.ref)
		if e, ok := ov.entries[key]; ok && e.sealed == r.ref {
			delete(ov.entries, key)
			ov.names.remove(r.name, e.sets...)
			var to []string
			if live, ok := s.liveObject(k, ns, r.name); ok {
				to = k.sets(live)
			}
			k.names.move(r.name, e.sets, to)
		}
		ov.mu.Unlock()
		if inv, seq := sequenceOf(obj); seq > 0 {
			s.sequences.drop(inv.Namespace, inv.Name, seq)
		}
		s.events.drop(obj)
	}
}

// liveObject returns the informer's object ns/name of kind k, if its cache
// holds one.
func (s *Store) liveObject(k *kind, ns, name string) (client.Object, bool) {
	if k.indexer != nil {
		item, exists, err := k.indexer.GetByKey(objectKey(ns, name))
		if err != nil || !exists {
			return nil, false
		}
		o, ok := item.(client.Object)
		return o, ok
	}
	obj, ok := k.obj.DeepCopyObject().(client.Object)
	if !ok {
		return nil, false
	}
	if err := s.cache.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, obj,
		client.UnsafeDisableDeepCopy); err != nil {
		return nil, false
	}
	return obj, true
}

// served returns the overlay's object ns/name of kind k: a sealed record,
// or a labelled original deleted before its seal was delivered.
func (s *Store) served(k *kind, ns, name string) (client.Object, bool) {
	if k == nil {
		return nil, false
	}
	return k.overlay.get(ns, name)
}

// findSealed looks for ns/name of kind k in seals this replica has not
// taken in yet, for a get that missed everywhere else: an original the
// manager deleted once its seal existed, when the LedgerSeal informer has
// not delivered that seal. It waits for the LedgerSeal informer's initial
// list (as long as ctx allows), then asks the API server for the seals
// after the highest sequence seen, one get each, taking in each it finds:
// seals are made one at a time in sequence order, so the first that is
// not found ends the walk. A name no seal holds costs one get of a seal
// that does not exist.
//
// The LedgerSeal kind's read barrier (barrier.go) is not used here: it
// gives up at once when the informer has been idle for its timeout, which
// the LedgerSeal informer nearly always is, and a reached barrier would
// cost a list and a wait where the seal's get is one key lookup.
func (s *Store) findSealed(ctx context.Context, k *kind, ns, name string) (client.Object, bool, error) {
	if k == nil || k.overlay == nil {
		return nil, false, nil
	}
	if err := s.awaitSeals(ctx); err != nil {
		return nil, false, err
	}
	if obj, ok := k.overlay.get(ns, name); ok {
		return obj, true, nil
	}
	for seq := s.seals.highest(ns) + 1; ; seq++ {
		ls := &billingv1.LedgerSeal{}
		err := s.live.Get(ctx, types.NamespacedName{Namespace: ns, Name: seal.Name(seq)}, ls)
		if apierrors.IsNotFound(err) {
			break
		}
		if err != nil {
			return nil, false, err
		}
		s.takeSeal(ls)
	}
	obj, ok := k.overlay.get(ns, name)
	return obj, ok, nil
}

// sealsSyncWait bounds how long a get that missed waits for the LedgerSeal
// informer's initial list: one that cannot list (its permission missing)
// answers ErrNotSynced instead of hanging until the request's end.
const sealsSyncWait = 10 * time.Second

// awaitSeals waits until the LedgerSeal informer's handlers have taken in
// its initial list, at most sealsSyncWait and as long as ctx allows.
func (s *Store) awaitSeals(ctx context.Context) error {
	timer := time.NewTimer(sealsSyncWait)
	defer timer.Stop()
	select {
	case <-s.sealsSynced:
		return nil
	case <-timer.C:
		return ErrNotSynced
	case <-ctx.Done():
		return ErrNotSynced
	}
}

// mergeSealed merges into page (at most limit+1 objects of sel after
// after, sorted by name, none of them held by the overlay) the overlay's
// objects of sel after after: the first limit+1 of both, in name order.
func mergeSealed(k *kind, page []client.Object, sel Selection, after string, limit int) []client.Object {
	if k.overlay == nil {
		return page
	}
	names := k.overlay.names.after(sel.key(), after, limit+1)
	if len(names) == 0 {
		return page
	}
	for _, name := range names {
		if obj, ok := k.overlay.get(sel.Namespace, name); ok {
			page = append(page, obj)
		}
	}
	slices.SortFunc(page, func(a, b client.Object) int {
		switch {
		case a.GetName() < b.GetName():
			return -1
		case a.GetName() > b.GetName():
			return 1
		}
		return 0
	})
	return page[:min(len(page), limit+1)]
}
