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

// Package store is the /v1 adapter's read side, and the one way its handlers
// read: the informer cache of Customers, Invoices, CreditNotes, Payments,
// PeriodCloses, LedgerSeals, CreditApplications, Refunds and WriteOffs (and
// of Emails, for the events of reminders), the
// records of every verified seal served
// as if live (sealed.go), a read from the API server when the cache misses an object, an
// ordered index of names per workspace (and per customer, invoice and
// filter) for keyset pagination, and the objects this
// replica has just created, so that a client reads its own writes at once;
// and the workspace's billing profile: its footer, for invoice documents,
// and its default tax, for creates.
package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/coalesce"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// ErrNotSynced is returned by Page when the request's context ends before
// the cache has synced.
var ErrNotSynced = errors.New("the cache has not synced yet")

// Options tune a Store.
type Options struct {
	// ReadYourWritesTimeout is how long an object this replica created is
	// served from memory while its informer has not delivered it.
	ReadYourWritesTimeout time.Duration
	// ReadOthersWrites makes the last page of a list show what was written
	// through any replica before it was asked for: it takes a read barrier
	// (one coalesced single-name list per kind) and waits for the informer to
	// deliver it, else reads the page from the API server (recent.go).
	ReadOthersWrites bool
	// BarrierTimeout bounds that wait; DefaultBarrierTimeout when zero.
	BarrierTimeout time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// SealedObjects is how many sealed records read last stay decoded
	// (sealedcache.go); DefaultSealedObjects when zero, none when
	// negative.
	SealedObjects int
}

// Store reads Customers, Invoices, CreditNotes, Payments, PeriodCloses,
// LedgerSeals, CreditApplications, Refunds and WriteOffs for the adapter,
// and the sealed records as if live.
type Store struct {
	cache cache.Cache
	live  client.Reader
	opts  Options
	kinds map[reflect.Type]*kind
	// byKind are the same kinds by their row of the table, for Page.
	byKind map[*recordkind.Kind]*kind
	// sequences indexes the issued invoices by sequence, for Feed.
	sequences *sequenceIndex
	// events indexes the events of every workspace by sequence, for
	// Events.
	events *eventIndex
	// profiles confirms the cached billing profiles (profile.go).
	profiles *profileVersions
	// seals are the seals whose records the overlays serve (sealed.go).
	seals *seals
	// sealsSynced is closed once the LedgerSeal informer's initial list
	// is taken in.
	sealsSynced chan struct{}
	synced      atomic.Bool
	syncedCh    chan struct{} // closed once synced
	metrics     *metrics
	log         logr.Logger
}

// New returns a store that reads through c, and through live what c does
// not hold. Call Start before reading.
func New(c cache.Cache, live client.Reader, opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BarrierTimeout == 0 {
		opts.BarrierTimeout = DefaultBarrierTimeout
	}
	if opts.SealedObjects == 0 {
		opts.SealedObjects = DefaultSealedObjects
	}
	decoded := newDecodedRecords(opts.SealedObjects)
	s := &Store{cache: c, live: live, opts: opts, kinds: map[reflect.Type]*kind{},
		byKind: map[*recordkind.Kind]*kind{}, sequences: newSequenceIndex(),
		events: newEventIndex(), syncedCh: make(chan struct{}), metrics: newMetrics(),
		seals: newSeals(), sealsSynced: make(chan struct{}), log: logr.Discard(),
		profiles: &profileVersions{live: live, byWorkspace: map[string]*coalesce.Call[string]{}}}
	for _, rk := range recordkind.Where(func(k *recordkind.Kind) bool { return k.Cached }) {
		k := &kind{obj: rk.New(), newObj: rk.New, sets: setsOf(rk), listKind: rk.Name + "List", newList: rk.NewList}
		if rk.Overlaid {
			k.overlay = newOverlay(decoded)
			k.overlay.names.deferMerges()
		}
		k.names = newNameIndex()
		k.names.deferMerges()
		k.barrier = newReadBarrier(s.currentVersion(k), opts.BarrierTimeout)
		s.kinds[reflect.TypeOf(k.obj)] = k
		s.byKind[rk] = k
	}
	return s
}

// setsOf names the index sets of an object of kind k (selection.go): by
// workspace alone for a kind that belongs to no invoice or customer.
func setsOf(k *recordkind.Kind) func(client.Object) []string {
	switch k {
	case &recordkind.Customer:
		return customerSets
	case &recordkind.Invoice:
		return invoiceSets
	case &recordkind.CreditNote:
		return creditNoteSets
	case &recordkind.PendingItem:
		return pendingItemSets
	case &recordkind.BankTransaction:
		return bankTransactionSets
	}
	if _, ok := k.New().(billingv1.LedgerRecord); ok {
		return ledgerRecordSets
	}
	return workspaceSets
}

// RegisterMetrics adds the store's series (the read barrier's) to reg.
func (s *Store) RegisterMetrics(reg prometheus.Registerer) error {
	if err := s.metrics.register(reg); err != nil {
		return fmt.Errorf("registering the store's metrics: %w", err)
	}
	return nil
}

// Start registers the informers and the name indexes' event handlers, and
// starts the cache in the background until ctx is done. The store is synced
// once the cache has synced and the handlers have seen every object.
func (s *Store) Start(ctx context.Context) error {
	s.log = logf.FromContext(ctx).WithName("store")
	var registrations []toolscache.ResourceEventHandlerRegistration
	var sealsRegistration toolscache.ResourceEventHandlerRegistration
	for _, k := range s.kinds {
		informer, err := s.cache.GetInformer(ctx, k.obj, cache.BlockUntilSynced(false))
		if err != nil {
			return fmt.Errorf("creating the informer for %T: %w", k.obj, err)
		}
		if ix, ok := informer.(interface{ GetIndexer() toolscache.Indexer }); ok {
			k.indexer = ix.GetIndexer()
		}
		handler := k.liveHandler()
		if _, ok := k.obj.(*billingv1.LedgerSeal); ok {
			// The seal's records are served before its barrier moves.
			handler = both{handler, s.sealHandler()}
		}
		reg, err := informer.AddEventHandler(observed{ResourceEventHandler: handler, barrier: k.barrier})
		if err != nil {
			return fmt.Errorf("watching the informer for %T: %w", k.obj, err)
		}
		registrations = append(registrations, reg)
		if _, ok := k.obj.(*billingv1.LedgerSeal); ok {
			sealsRegistration = reg
		}
		if _, ok := k.obj.(*billingv1.Invoice); ok {
			reg, err := informer.AddEventHandler(keepHeld{s.sequences.handler(), k.overlay})
			if err != nil {
				return fmt.Errorf("watching the informer for %T: %w", k.obj, err)
			}
			registrations = append(registrations, reg)
		}
		if len(recordkind.Of(k.obj).Events) > 0 {
			reg, err := informer.AddEventHandler(keepHeld{s.events.handler(), k.overlay})
			if err != nil {
				return fmt.Errorf("watching the informer for %T: %w", k.obj, err)
			}
			registrations = append(registrations, reg)
		}
	}
	// Billing profiles are cached for creates and documents (profile.go),
	// with no index of their own.
	profiles, err := s.cache.GetInformer(ctx, &billingv1.BillingProfile{}, cache.BlockUntilSynced(false))
	if err != nil {
		return fmt.Errorf("creating the informer for billing profiles: %w", err)
	}
	registrations = append(registrations, profiles)
	// Emails are cached for their events alone (a reminder's
	// invoice.reminder_sent), with no index of their own: no /v1 path
	// lists them.
	emails, err := s.cache.GetInformer(ctx, &billingv1.Email{}, cache.BlockUntilSynced(false))
	if err != nil {
		return fmt.Errorf("creating the informer for emails: %w", err)
	}
	reg, err := emails.AddEventHandler(s.events.handler())
	if err != nil {
		return fmt.Errorf("watching the informer for emails: %w", err)
	}
	registrations = append(registrations, reg)
	go func() {
		if err := s.cache.Start(ctx); err != nil {
			logf.FromContext(ctx).Error(err, "The cache stopped")
		}
	}()
	go func() {
		if toolscache.WaitForCacheSync(ctx.Done(), sealsRegistration.HasSynced) {
			close(s.sealsSynced)
		}
	}()
	go func() {
		if !s.cache.WaitForCacheSync(ctx) {
			return
		}
		synced := make([]toolscache.InformerSynced, len(registrations))
		for i, reg := range registrations {
			synced[i] = reg.HasSynced
		}
		if toolscache.WaitForCacheSync(ctx.Done(), synced...) {
			s.mergeDeferredNames()
			s.synced.Store(true)
			close(s.syncedCh)
			s.metrics.synced()
			logf.FromContext(ctx).Info("The cache is synced")
		}
	}()
	return nil
}

// mergeDeferredNames merges the names every index deferred while the
// store warmed (nameIndex.deferMerges), each set once.
func (s *Store) mergeDeferredNames() {
	for _, k := range s.kinds {
		k.names.mergeDeferred()
		if k.overlay != nil {
			k.overlay.names.mergeDeferred()
		}
	}
}

// Synced reports whether the cache and the name indexes hold every object.
func (s *Store) Synced() bool { return s.synced.Load() }

// Get reads ns/name into obj from the sealed records (sealed.go), else
// from the cache, else from what this replica has just created, else (an
// object just created by someone else, with kubectl or through another
// replica) from the API server, else, for an invoice, credit note or
// payment, from a seal this replica has not taken in yet (findSealed), so
// that a record is never missing while it moves into a seal. It reports
// whether the object exists; a name no object can have does not, without
// asking anyone.
//
// A get that misses takes no read barrier (barrier.go): the barrier costs
// a call to the API server too, and then a wait, where the read of the one
// object is a single call, correct at any lag, that needs no wait.
//
// An object read from the cache or the sealed records is not copied: obj
// then shares its maps, slices and pointers (its items, taxes, conditions,
// ledger) with the cache (or the decoded sealed records kept,
// sealedcache.go), and so with every other request that reads it. The caller reads
// obj and never modifies it; one that must change it deep-copies it first.
func (s *Store) Get(ctx context.Context, ns, name string, obj client.Object) (bool, error) {
	if len(validation.IsDNS1123Subdomain(name)) > 0 {
		return false, nil
	}
	key := types.NamespacedName{Namespace: ns, Name: name}
	k := s.kinds[reflect.TypeOf(obj)]
	if sealed, ok := s.served(k, ns, name); ok {
		setShallow(obj, sealed)
		return true, nil
	}
	if s.synced.Load() {
		err := s.cache.Get(ctx, key, obj, client.UnsafeDisableDeepCopy)
		if err == nil {
			return true, nil
		}
		if !apierrors.IsNotFound(err) {
			return false, fmt.Errorf("reading from the cache: %w", err)
		}
		if k != nil {
			if p, ok := k.names.pendingObject(ns, name); ok {
				setShallow(obj, p.DeepCopyObject().(client.Object))
				return true, nil
			}
		}
	}
	err := s.live.Get(ctx, key, obj)
	if apierrors.IsNotFound(err) {
		sealed, ok, err := s.findSealed(ctx, k, ns, name)
		if err != nil {
			return false, fmt.Errorf("reading the seals: %w", err)
		}
		if ok {
			setShallow(obj, sealed)
		}
		return ok, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading from the API server: %w", err)
	}
	return true, nil
}

// setShallow sets *obj to *from, of the same type: obj then shares from's
// maps, slices and pointers, as a read of the cache does.
func setShallow(obj, from client.Object) {
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(from).Elem())
}

// both runs two event handlers, one after the other.
type both [2]toolscache.ResourceEventHandler

func (h both) OnAdd(obj any, isInInitialList bool) {
	h[0].OnAdd(obj, isInInitialList)
	h[1].OnAdd(obj, isInInitialList)
}

func (h both) OnUpdate(oldObj, newObj any) {
	h[0].OnUpdate(oldObj, newObj)
	h[1].OnUpdate(oldObj, newObj)
}

func (h both) OnDelete(obj any) {
	h[0].OnDelete(obj)
	h[1].OnDelete(obj)
}

// Page reads the page of sel of kind rk (a Cached row of the table,
// internal/recordkind), ordered by name, that follows the name after:
// at most limit objects, and whether more follow. The names come from the
// index, each object from the cache (or from what this replica has just
// created), so a page costs O(log n + limit) whatever the size of the
// workspace. An object deleted since the index listed it, or whose cached
// state no longer matches sel (an invoice issued a moment ago, in a list of
// pending ones), is skipped and the page filled from the next names. The
// objects are the cache's own: the caller reads them and never modifies
// them. The records of the seals (sealed.go) are merged in by name, each
// name once. Before the cache has synced, a page of a whole workspace is read
// from the API server (warming.go), and any other page waits for the cache
// as long as ctx allows.
func (s *Store) Page(ctx context.Context, rk *recordkind.Kind, sel Selection, after string, limit int) (
	[]client.Object, bool, error) {
	k, ok := s.byKind[rk]
	if !ok {
		return nil, false, fmt.Errorf("the store holds no %s", kindName(rk))
	}
	var page []client.Object
	var err error
	if !s.synced.Load() && servedWhileWarming(sel) {
		page, err = warmingPage(ctx, s, k, sel, after, limit)
	} else {
		page, err = syncedPage(ctx, s, k, sel, after, limit)
	}
	if err != nil {
		return nil, false, err
	}
	if len(page) > limit {
		return page[:limit], true, nil
	}
	return page, false, nil
}

// Typed is page, a page Page read, as Os: an error when it holds an
// object of another type.
func Typed[O client.Object](page []client.Object) ([]O, error) {
	typed := make([]O, len(page))
	for i, obj := range page {
		o, ok := obj.(O)
		if !ok {
			return nil, fmt.Errorf("the page holds a %T, not a %T", obj, o)
		}
		typed[i] = o
	}
	return typed, nil
}

// kindName names rk in an error, nil included.
func kindName(rk *recordkind.Kind) string {
	if rk == nil {
		return "objects of no kind of the table"
	}
	return rk.Name
}

// syncedPage reads at most limit+1 objects of sel that follow after from
// the synced cache, the last page with what other replicas wrote before.
func syncedPage(ctx context.Context, s *Store, k *kind, sel Selection, after string,
	limit int) ([]client.Object, error) {
	if err := s.awaitSync(ctx); err != nil {
		return nil, err
	}
	page, err := cachedPage(ctx, s, k, sel, after, limit)
	if err != nil {
		return nil, err
	}
	if len(page) <= limit && s.opts.ReadOthersWrites && sel.matchable() {
		// The last page: with what other replicas wrote a moment ago.
		return othersWrites(ctx, s, k, sel, after, limit)
	}
	return page, nil
}

// cachedPage reads from the cache (and what this replica has just created)
// at most limit+1 objects of sel that follow after.
func cachedPage(ctx context.Context, s *Store, k *kind, sel Selection, after string,
	limit int) ([]client.Object, error) {
	set := sel.key()
	// Every object of the workspace is in its set: only a filtered set
	// is checked object by object.
	filtered := set != (Selection{Namespace: sel.Namespace}).key()
	page := make([]client.Object, 0, limit+1)
	for len(page) <= limit {
		want := limit + 1 - len(page)
		names := k.names.after(set, after, want)
		for _, name := range names {
			obj, found, err := cachedObject(ctx, s, k, sel.Namespace, name)
			if err != nil {
				return nil, err
			}
			if !found {
				// Created by this replica a moment ago, and not yet
				// delivered by the informer; else deleted since the index
				// listed it.
				if p, ok := k.names.pendingObject(sel.Namespace, name); ok && slices.Contains(k.sets(p), set) {
					page = append(page, p)
				}
				continue
			}
			// The index is updated after the cache: an object whose filtered
			// field has just changed may still be listed under its old value.
			if filtered && !slices.Contains(k.sets(obj), set) {
				continue
			}
			page = append(page, obj)
		}
		if len(names) < want {
			break
		}
		after = names[len(names)-1]
	}
	return page, nil
}

// cachedObject reads ns/name of kind k from the sealed records, else the
// cache: the overlay's or the informer's own object, as pages read it (none is ever modified), without the copy and
// the lookups of a cache read; found is false when the cache has none.
func cachedObject(ctx context.Context, s *Store, k *kind, ns, name string) (
	obj client.Object, found bool, err error) {
	if sealed, ok := s.served(k, ns, name); ok {
		return sealed, true, nil
	}
	if k.indexer == nil {
		obj = k.newObj()
		err := s.cache.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, obj, client.UnsafeDisableDeepCopy)
		if apierrors.IsNotFound(err) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("reading from the cache: %w", err)
		}
		return obj, true, nil
	}
	item, exists, err := k.indexer.GetByKey(ns + "/" + name)
	if err != nil {
		return nil, false, fmt.Errorf("reading from the cache: %w", err)
	}
	if !exists {
		return nil, false, nil
	}
	if obj, ok := item.(client.Object); ok && reflect.TypeOf(obj) == reflect.TypeOf(k.obj) {
		return obj, true, nil
	}
	return nil, false, fmt.Errorf("the cache holds a %T for %s/%s", item, ns, name)
}

// Feed reads the issued invoices of workspace ns whose sequences follow
// after, in sequence order: at most limit, stopping before the first
// sequence this replica has not seen yet (issued but not yet delivered by
// its informer, or reserved but not yet written), so that a consumer who
// resumes after the last sequence it processed never skips one. more says
// whether this replica has seen a higher sequence than the page's last (or
// than after, for an empty page): more follow, now or once the missing one
// is seen.
func (s *Store) Feed(ctx context.Context, ns string, after int64, limit int) ([]*billingv1.Invoice, bool, error) {
	if err := s.awaitSync(ctx); err != nil {
		return nil, false, err
	}
	names, highest := s.sequences.run(ns, after+1, limit)
	page := make([]*billingv1.Invoice, 0, len(names))
	last := after
	k := s.kinds[reflect.TypeFor[*billingv1.Invoice]()]
	for _, name := range names {
		obj, found, err := cachedObject(ctx, s, k, ns, name)
		if err != nil {
			return nil, false, err
		}
		inv, ok := obj.(*billingv1.Invoice)
		if !found || !ok {
			// Deleted with its workspace: the feed ends there. (An
			// original moved into a seal stays in the overlay.)
			break
		}
		page = append(page, inv)
		last = after + int64(len(page))
	}
	return page, highest > last, nil
}

// FeedChanged returns a channel that is closed once another issued invoice
// of workspace ns is seen: a consumer of Feed that is caught up takes it
// before reading a page, and waits on it after.
func (s *Store) FeedChanged(ns string) <-chan struct{} { return s.sequences.changed(ns) }

// awaitSync waits until the store is synced, or returns ErrNotSynced when
// ctx ends first.
func (s *Store) awaitSync(ctx context.Context) error {
	if s.synced.Load() {
		return nil
	}
	select {
	case <-s.syncedCh:
		return nil
	case <-ctx.Done():
		return ErrNotSynced
	}
}

// Created makes obj, which this replica has just created (or found created
// by an earlier request with the same Idempotency-Key), visible to this
// replica's gets and pages at once, without waiting for the informer to
// deliver it: read your writes.
func (s *Store) Created(obj client.Object) {
	if k, ok := s.kinds[reflect.TypeOf(obj)]; ok {
		k.names.remember(obj, k.sets(obj), s.opts.Now(), s.opts.ReadYourWritesTimeout)
	}
}
