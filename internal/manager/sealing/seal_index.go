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

package sealing

import (
	"context"
	"fmt"
	"slices"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// SealedRecords is the manager's compact knowledge of what each
// workspace's LedgerSeals hold: every seal is decoded once (seal.Read),
// verified against the one before it, and kept as small maps (a sealed
// record's kind and name to its seal and uid, an event sequence to the
// sealed record that carries it, sealed invoices per customer), never as
// full objects. Whoever needs a sealed object reads its one seal again
// (objects).
//
// It answers from the cache's LedgerSeals, which it looks at again on each
// question (a list without copies: a workspace has few seals). The sealing
// reconciler adds a seal it made (add) before it deletes a single
// original, so the manager that seals never misses its own seal; after a
// restart the cache is synced before any reconciler runs, and it holds
// every seal that any deletion came after.
type SealedRecords struct {
	// Reader lists LedgerSeals, from the cache (which keeps no payload:
	// trim.LedgerSealCacheTransform).
	Reader client.Reader
	// APIReader reads a seal whole, payload included, straight from the
	// API server: once per seal to decode it, and for webhook delivery's
	// sealed records. Nil: Reader (which then keeps payloads).
	APIReader client.Reader

	mu         sync.Mutex
	workspaces map[string]*sealedWorkspace
}

// SealedKey names a sealed record: its kind (seal.KindInvoice, ...) and
// Name.
type SealedKey struct {
	Kind, Name string
}

// sealedRecord is where a record is sealed and what it was.
type sealedRecord struct {
	seal string
	uid  types.UID
}

// sealedEvent is an event carried by a sealed record.
type sealedEvent struct {
	Seal, Kind, Name string
	typ              billingv1.EventType
}

// sealedInvoice is what webhook delivery's invoice watermark needs of a
// sealed invoice: its name and the sequence of its invoice.issued event.
type sealedInvoice struct {
	Name   string
	Issued int64
}

// sealInfo is what is kept of one verified seal.
type sealInfo struct {
	Name, hash string
	uid        types.UID
	// maxEvent is the highest event sequence of its records: its
	// ledger.sealed comes after it.
	maxEvent int64
}

// sealedWorkspace is one workspace's verified seals, in sequence order
// (seals[i] has sequence i+1), and what they hold.
type sealedWorkspace struct {
	seals     []sealInfo
	records   map[SealedKey]sealedRecord
	events    map[int64]sealedEvent
	customers map[string]int
	// invoices are the sealed invoices by invoice sequence (status.sequence).
	invoices map[int64]sealedInvoice
	// broken is the first seal that did not verify: nothing after it is
	// read, and the workspace is sealed no more.
	broken error
	// types holds one copy of each event type: a million sealed events
	// are of a handful of types.
	types map[billingv1.EventType]billingv1.EventType
}

// workspace returns ns's state, refreshed from the cache's seals. The
// caller holds s.mu.
func (s *SealedRecords) workspace(ctx context.Context, ns string) (*sealedWorkspace, error) {
	if s.workspaces == nil {
		s.workspaces = map[string]*sealedWorkspace{}
	}
	ws := s.workspaces[ns]
	if ws == nil {
		ws = newSealedWorkspace()
		s.workspaces[ns] = ws
	}
	list := &billingv1.LedgerSealList{}
	if err := s.Reader.List(ctx, list, client.InNamespace(ns), client.UnsafeDisableDeepCopy); err != nil {
		return nil, fmt.Errorf("listing the seals of %s: %w", ns, err)
	}
	gone, err := s.chainGone(ctx, ns, ws, list.Items)
	if err != nil {
		return nil, err
	}
	if gone {
		// Seals are deleted only with their namespace (or the
		// LedgerSeal CRD): forget the chain, a broken one too, and start
		// again from what is left, so that its customers can go too.
		ws = newSealedWorkspace()
		s.workspaces[ns] = ws
	}
	if ws.broken != nil || len(list.Items) <= len(ws.seals) {
		return ws, nil
	}
	seals := make([]*billingv1.LedgerSeal, 0, len(list.Items))
	for i := range list.Items {
		if list.Items[i].Spec.Sequence > int64(len(ws.seals)) {
			seals = append(seals, &list.Items[i])
		}
	}
	slices.SortFunc(seals, func(a, b *billingv1.LedgerSeal) int { return int(a.Spec.Sequence - b.Spec.Sequence) })
	for _, sl := range seals {
		if sl.Spec.Sequence != int64(len(ws.seals))+1 {
			break // the cache has not seen the one between yet
		}
		whole, err := s.whole(ctx, sl)
		if err != nil {
			return nil, err
		}
		if err := ws.add(whole); err != nil {
			return ws, nil //nolint:nilerr // the broken seal is kept in ws.broken
		}
	}
	return ws, nil
}

// chainGone tells whether the first seal of ws's chain has been deleted,
// listed being what the cache holds of ns's seals now. A seal of sequence
// 1 listed with another uid is a new chain (the namespace was deleted and
// made again). None listed is either a deleted seal or a cache that has
// not seen the first seal yet, which add took in just now: the API server
// tells the two apart. A deleted later seal while the first is still
// there keeps the chain until the first goes too, which holds more, never
// less, for that while.
func (s *SealedRecords) chainGone(ctx context.Context, ns string, ws *sealedWorkspace,
	listed []billingv1.LedgerSeal) (bool, error) {
	if len(ws.seals) == 0 {
		return false, nil
	}
	first := ws.seals[0]
	if i := slices.IndexFunc(listed, func(sl billingv1.LedgerSeal) bool { return sl.Spec.Sequence == 1 }); i >= 0 {
		return listed[i].UID != first.uid, nil
	}
	live := &metav1.PartialObjectMetadata{}
	live.SetGroupVersionKind(billingv1.GroupVersion.WithKind("LedgerSeal"))
	err := s.live().Get(ctx, types.NamespacedName{Namespace: ns, Name: first.Name}, live)
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading seal %s/%s: %w", ns, first.Name, err)
	}
	return live.UID != first.uid, nil
}

// live returns the reader of whole seals.
func (s *SealedRecords) live() client.Reader {
	if s.APIReader != nil {
		return s.APIReader
	}
	return s.Reader
}

// whole returns sl with its payload: sl itself when it has one, else sl
// read from the API server.
func (s *SealedRecords) whole(ctx context.Context, sl *billingv1.LedgerSeal) (*billingv1.LedgerSeal, error) {
	if sl.Spec.Payload != "" {
		return sl, nil
	}
	whole := &billingv1.LedgerSeal{}
	if err := s.live().Get(ctx, client.ObjectKeyFromObject(sl), whole); err != nil {
		return nil, fmt.Errorf("reading seal %s/%s: %w", sl.Namespace, sl.Name, err)
	}
	return whole, nil
}

// newSealedWorkspace returns the state of a workspace without seals.
func newSealedWorkspace() *sealedWorkspace {
	return &sealedWorkspace{records: map[SealedKey]sealedRecord{}, events: map[int64]sealedEvent{},
		customers: map[string]int{}, invoices: map[int64]sealedInvoice{},
		types: map[billingv1.EventType]billingv1.EventType{}}
}

// add verifies sl, the next seal of ws, and takes in what it holds; a seal
// that does not verify breaks the workspace (ws.broken), which stops there.
func (ws *sealedWorkspace) add(sl *billingv1.LedgerSeal) error {
	previous := billingv1.ZeroHash
	if n := len(ws.seals); n > 0 {
		previous = ws.seals[n-1].hash
	}
	records, err := indexedRecords(sl, previous)
	if err != nil {
		ws.broken = fmt.Errorf("seal %s/%s does not verify: %w", sl.Namespace, sl.Name, err)
		return ws.broken
	}
	info := sealInfo{Name: sl.Name, hash: sl.Spec.Hash, uid: sl.UID}
	for _, r := range records {
		ws.records[SealedKey{r.Kind, r.Object.GetName()}] = sealedRecord{seal: sl.Name, uid: r.Object.GetUID()}
		_, _, events := billing.RecordedEvents(r.Object)
		for _, e := range events {
			typ, ok := ws.types[e.Type]
			if !ok {
				typ = e.Type
				ws.types[typ] = typ
			}
			ws.events[e.Sequence] = sealedEvent{Seal: sl.Name, Kind: r.Kind, Name: r.Object.GetName(), typ: typ}
			info.maxEvent = max(info.maxEvent, e.Sequence)
		}
		if inv, ok := r.Object.(*billingv1.Invoice); ok {
			ws.customers[inv.Spec.CustomerRef.Name]++
			if inv.Status.Sequence != nil {
				ws.invoices[*inv.Status.Sequence] = sealedInvoice{Name: inv.Name,
					Issued: reconciler.EventSequence(inv.Status.Events, billingv1.EventTypeInvoiceIssued)}
			}
		}
	}
	ws.seals = append(ws.seals, info)
	return nil
}

// indexedRecords verifies sl as the link after previousHash, as
// seal.ReadLink does, and reads of each of its records only the fields
// the index keeps (seal.Indexed: its name, uid, events, and an invoice's
// customer and sequence): decoding every record whole was half of a
// restart's CPU at a million (docs/performance.md). A record whose
// fields do not read is a broken link, as one that does not decode.
func indexedRecords(sl *billingv1.LedgerSeal, previousHash string) ([]seal.Record, error) {
	raw, err := seal.Verify(sl, previousHash)
	if err != nil {
		return nil, err
	}
	lines, err := seal.RawRecords(raw)
	if err != nil {
		return nil, err
	}
	records := make([]seal.Record, len(lines))
	for i, l := range lines {
		obj, err := seal.Indexed(l.Kind, l.Line)
		if err != nil {
			return nil, fmt.Errorf("record %d of the payload: %w", i+1, err)
		}
		records[i] = seal.Record{Kind: l.Kind.Name, Object: obj, Line: l.Line}
	}
	return records, nil
}

// add takes in sl, a seal the sealing reconciler has just made and
// verified, unless the workspace knows it already.
func (s *SealedRecords) add(ctx context.Context, sl *billingv1.LedgerSeal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.workspace(ctx, sl.Namespace)
	if err != nil {
		return err
	}
	if ws.broken != nil {
		return ws.broken
	}
	if sl.Spec.Sequence != int64(len(ws.seals))+1 {
		return nil // known already (or the cache's list brought it)
	}
	return ws.add(sl)
}

// stop breaks ns for good (until the manager restarts): a seal read back
// did not verify or did not hold what was sealed, and nothing of the
// workspace is sealed or deleted any more.
func (s *SealedRecords) stop(ctx context.Context, ns string, why error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.workspace(ctx, ns)
	if err != nil {
		return err
	}
	if ws.broken == nil {
		ws.broken = why
	}
	return nil
}

// holders calls fn with a lookup of ns's sealed records, refreshed once:
// for the sealing's walks over every live record. fn runs under the lock:
// it must not call back into s.
func (s *SealedRecords) holders(ctx context.Context, ns string, fn func(held func(kind, name string) sealedRecord) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.workspace(ctx, ns)
	if err != nil {
		return err
	}
	return fn(func(kind, name string) sealedRecord { return ws.records[SealedKey{kind, name}] })
}

// SealOf returns the seal that holds the record of kind (seal.KindInvoice,
// ...) named name in ns, and the uid the record had; "" when none does.
func (s *SealedRecords) SealOf(ctx context.Context, ns, kind, name string) (sealName string, uid types.UID, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.workspace(ctx, ns)
	if err != nil {
		return "", "", err
	}
	r := ws.records[SealedKey{kind, name}]
	return r.seal, r.uid, nil
}

// SealedInvoicesOf returns how many sealed invoices of ns bill customer.
func (s *SealedRecords) SealedInvoicesOf(ctx context.Context, ns, customer string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.workspace(ctx, ns)
	if err != nil {
		return 0, err
	}
	return ws.customers[customer], nil
}

// EventsIn returns the sealed events of ns with sequences first to last,
// by sequence.
func (s *SealedRecords) EventsIn(ctx context.Context, ns string, first, last int64) (map[int64]sealedEvent, error) {
	return sealedRange(ctx, s, ns, func(ws *sealedWorkspace) map[int64]sealedEvent { return ws.events }, first, last)
}

// InvoicesIn returns the sealed invoices of ns with invoice sequences
// first to last, by sequence.
func (s *SealedRecords) InvoicesIn(ctx context.Context, ns string, first, last int64) (map[int64]sealedInvoice, error) {
	return sealedRange(ctx, s, ns, func(ws *sealedWorkspace) map[int64]sealedInvoice { return ws.invoices }, first, last)
}

// sealedRange returns the entries of the map of ns that pick names, with
// sequences first to last, read under the index's lock.
func sealedRange[T any](ctx context.Context, s *SealedRecords, ns string, pick func(*sealedWorkspace) map[int64]T,
	first, last int64) (map[int64]T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.workspace(ctx, ns)
	if err != nil {
		return nil, err
	}
	bySequence := pick(ws)
	out := map[int64]T{}
	for seq := first; seq <= last; seq++ {
		if v, ok := bySequence[seq]; ok {
			out[seq] = v
		}
	}
	return out, nil
}

// Chain returns ns's verified seals, in sequence order; broken when a
// Seal did not verify (the chain stops before it).
func (s *SealedRecords) Chain(ctx context.Context, ns string) (seals []sealInfo, broken error, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.workspace(ctx, ns)
	if err != nil {
		return nil, nil, err
	}
	return slices.Clone(ws.seals), ws.broken, nil
}

// SealKindOf is the seal's kind of a record object (its row's of
// internal/recordkind); "" for a kind no seal holds.
func SealKindOf(obj client.Object) string {
	if k := recordkind.Of(obj); k != nil && k.Sealed != nil {
		return k.Name
	}
	return ""
}

// Objects reads the seal named name of ns whole (from the API server) and
// returns its records by kind and name, each with the label
// billingv1.LabelSealedIn set to the seal's name, as the adapter serves
// them. They are fresh copies, the caller's to keep.
func (s *SealedRecords) Objects(ctx context.Context, ns, name string) (map[SealedKey]client.Object, error) {
	sl := &billingv1.LedgerSeal{}
	if err := s.live().Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sl); err != nil {
		return nil, fmt.Errorf("reading seal %s/%s: %w", ns, name, err)
	}
	records, err := seal.Read(&sl.Spec)
	if err != nil {
		return nil, fmt.Errorf("reading seal %s/%s: %w", ns, name, err)
	}
	out := make(map[SealedKey]client.Object, len(records))
	for _, r := range records {
		labels := r.Object.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[billingv1.LabelSealedIn] = name
		r.Object.SetLabels(labels)
		out[SealedKey{r.Kind, r.Object.GetName()}] = r.Object
	}
	return out, nil
}
