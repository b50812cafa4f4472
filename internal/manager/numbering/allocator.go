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

package numbering

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Options configure an Allocator. Client, APIReader, Cached and Live are required.
type Options struct {
	// Client creates and updates InvoiceSequence objects.
	Client client.Writer
	// APIReader reads InvoiceSequence objects straight from the API server
	// (a manager's GetAPIReader), never from a cache.
	APIReader client.Reader
	// Cached tells what invoices carry, from the manager's cache. Every
	// reservation uses it to trim the entries whose numbers are written. A
	// cache may lag, so its "not found" frees nothing.
	Cached InvoiceLookup
	// Live tells what invoices carry, from the API server. Trim asks it about
	// the entries whose invoices the cache does not have, to free the
	// sequences of invoices deleted before their numbers were written.
	Live InvoiceLookup

	// Sequence names the InvoiceSequence object of each workspace that
	// holds this allocator's series; empty means
	// billingv1.InvoiceSequenceName ("invoices"). Each series is gapless on
	// its own: credit notes are numbered by a second allocator whose
	// Sequence is billingv1.CreditNoteSequenceName and whose lookups read
	// credit notes.
	Sequence string

	// MaxBatch is how many invoices one update reserves for at most.
	// Defaults to 512.
	MaxBatch int
	// MaxReserved is how many entries the journal holds at most. Defaults to
	// billingv1.MaxSequenceReservations, which is also the CRD's bound.
	MaxReserved int
	// MaxAttempts is how many conflicting updates one batch tries before
	// ErrContended. Defaults to 100.
	MaxAttempts int
	// Timeout bounds one batch's API calls. Defaults to 30 seconds.
	Timeout time.Duration
	// TrimInterval is how often Start trims every workspace's journal.
	// Defaults to 30 seconds.
	TrimInterval time.Duration
	// Now returns the current time; nil means time.Now. Tests set it.
	Now func() time.Time
}

// Allocator hands out invoice sequences. It is safe for concurrent use;
// concurrent callers of one workspace share one update of its
// InvoiceSequence. Several allocators (manager replicas) may work on the
// same workspace: optimistic concurrency keeps them consistent.
type Allocator struct {
	opts Options

	mu         sync.Mutex
	workspaces map[string]*workspace
}

// workspace is the allocator's state for one namespace.
type workspace struct {
	namespace string

	// mu guards queue and flushing.
	mu       sync.Mutex
	queue    []*request
	flushing bool

	// stateMu serializes this allocator's read-modify-write cycles of the
	// workspace's InvoiceSequence and guards last.
	stateMu sync.Mutex
	// last is the newest InvoiceSequence this allocator read or wrote, nil
	// when it must be read again.
	last *billingv1.InvoiceSequence
}

// request is one Assign call waiting for its batch.
type request struct {
	invoice Invoice
	done    chan result
}

type result struct {
	assignment Assignment
	err        error
}

// errMissingOption is returned by New when a required option is not set.
var errMissingOption = errors.New("numbering: Options need Client, APIReader, Cached and Live")

// New returns an Allocator.
func New(opts Options) (*Allocator, error) {
	if opts.Client == nil || opts.APIReader == nil || opts.Cached == nil || opts.Live == nil {
		return nil, errMissingOption
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 512
	}
	if opts.MaxReserved <= 0 || opts.MaxReserved > billingv1.MaxSequenceReservations {
		opts.MaxReserved = billingv1.MaxSequenceReservations
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 100
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.TrimInterval <= 0 {
		opts.TrimInterval = 30 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sequence == "" {
		opts.Sequence = billingv1.InvoiceSequenceName
	}
	return &Allocator{opts: opts, workspaces: map[string]*workspace{}}, nil
}

// Assign returns the sequence of the invoice named name, with UID uid, in
// workspace namespace: the one reserved for it before if there is one (also
// by another allocator, or before a crash), else a new one. Once Assign
// returns, the assignment is binding until the caller writes it on the
// invoice's status, which the caller must do with an optimistic lock
// (resourceVersion) and only while the status carries no sequence yet.
//
// Errors: ErrInvalidInvoice for a call without namespace, name or UID;
// ErrJournalFull and ErrContended, both transient; an *APIError from the
// Kubernetes API; the context's error when ctx ends first (the reservation
// may still be made, and is then returned by the next call).
func (a *Allocator) Assign(ctx context.Context, namespace, name string, uid types.UID) (Assignment, error) {
	return a.assign(ctx, namespace, Invoice{Name: name, UID: uid})
}

// AssignFact returns the sequence of one fact (event type) of the object
// named name, with UID uid, in a workspace's event sequence, as Assign does
// for an invoice: one object takes one sequence per fact. after is the
// highest sequence of the events the fact depends on (0: none); the fact
// never takes a sequence at or below it. The caller writes the assignment
// on the object's status.events with an optimistic lock, and only while
// the status carries no event of that type.
func (a *Allocator) AssignFact(ctx context.Context, namespace, name string, uid types.UID,
	fact billingv1.EventType, after int64) (Assignment, error) {
	if fact == "" {
		return Assignment{}, ErrInvalidInvoice
	}
	return a.assign(ctx, namespace, Invoice{Name: name, UID: uid, Fact: fact, After: after})
}

func (a *Allocator) assign(ctx context.Context, namespace string, inv Invoice) (Assignment, error) {
	if namespace == "" || inv.Name == "" || inv.UID == "" {
		return Assignment{}, ErrInvalidInvoice
	}
	req := &request{invoice: inv, done: make(chan result, 1)}
	ws := a.workspace(namespace)
	ws.mu.Lock()
	ws.queue = append(ws.queue, req)
	if !ws.flushing {
		ws.flushing = true
		// The batch outlives any one caller: it serves all of them.
		go a.flushQueue(context.WithoutCancel(ctx), ws)
	}
	ws.mu.Unlock()

	select {
	case r := <-req.done:
		return r.assignment, r.err
	case <-ctx.Done():
		return Assignment{}, fmt.Errorf("numbering: waiting for a sequence: %w", ctx.Err())
	}
}

// workspace returns the allocator's state for namespace.
func (a *Allocator) workspace(namespace string) *workspace {
	a.mu.Lock()
	defer a.mu.Unlock()
	ws, ok := a.workspaces[namespace]
	if !ok {
		ws = &workspace{namespace: namespace}
		a.workspaces[namespace] = ws
	}
	return ws
}

// flushQueue reserves for the queued requests, a batch at a time, until the
// queue is empty. Requests queued while a batch is in flight form the next.
func (a *Allocator) flushQueue(ctx context.Context, ws *workspace) {
	for {
		ws.mu.Lock()
		if len(ws.queue) == 0 {
			ws.flushing = false
			ws.mu.Unlock()
			return
		}
		n := min(len(ws.queue), a.opts.MaxBatch)
		batch := ws.queue[:n:n]
		ws.queue = ws.queue[n:]
		ws.mu.Unlock()
		a.flush(ctx, ws, batch)
	}
}

// flush reserves for one batch in one update of the InvoiceSequence, and
// answers every request of the batch.
func (a *Allocator) flush(ctx context.Context, ws *workspace, batch []*request) {
	ctx, cancel := context.WithTimeout(ctx, a.opts.Timeout)
	defer cancel()
	batch = a.answerStale(ctx, ws.namespace, batch)
	if len(batch) == 0 {
		return
	}
	invoices := make([]Invoice, len(batch))
	for i, req := range batch {
		invoices[i] = req.invoice
	}
	p, err := a.update(ctx, ws, invoices, nil)
	for _, req := range batch {
		switch assignment, ok := p.assigned[req.invoice.id()]; {
		case err != nil:
			req.done <- result{err: err}
		case ok:
			req.done <- result{assignment: assignment}
		default:
			req.done <- result{err: ErrJournalFull}
		}
	}
}

// answerStale answers ErrStale to the requests of batch whose object, as
// the cache has it now, already carries its sequence (the caller read it
// before it was written: its write would conflict), and returns the
// others. Such a request must not reserve: its entry would be bound to an
// object that never takes it, a hole in the sequence until the next Trim
// frees it and another object takes it.
func (a *Allocator) answerStale(ctx context.Context, namespace string, batch []*request) []*request {
	asking := batch[:0:0]
	for _, req := range batch {
		inv := req.invoice
		state, found, err := lookup(ctx, a.opts.Cached, types.NamespacedName{Namespace: namespace, Name: inv.Name}, inv.Fact)
		if err == nil && found && state.UID == inv.UID && state.Sequence > 0 {
			req.done <- result{err: ErrStale}
			continue
		}
		asking = append(asking, req)
	}
	return asking
}

// update runs one read-modify-write cycle of the workspace's InvoiceSequence:
// it plans the new spec from the newest version it knows and the fates of
// its entries (known, from Trim, or read from the cache), and writes it with
// the version's resourceVersion, reading again and planning again on a
// conflict.
func (a *Allocator) update(ctx context.Context, ws *workspace, asking []Invoice, known map[entryKey]fate) (plan, error) {
	ws.stateMu.Lock()
	defer ws.stateMu.Unlock()
	for attempt := 1; ; attempt++ {
		if ws.last == nil {
			seq, err := a.readOrCreate(ctx, ws.namespace)
			if err != nil {
				return plan{}, err
			}
			ws.last = seq
		}
		fates := a.cachedFates(ctx, ws.namespace, ws.last.Spec.Reserved, known)
		p := planAssignments(ws.last.Spec, fates, asking, a.opts.Now(), a.opts.MaxReserved)
		if !p.changed {
			return p, nil
		}
		updated := ws.last.DeepCopy()
		updated.Spec = p.spec
		err := a.opts.Client.Update(ctx, updated)
		if err == nil {
			ws.last = updated
			return p, nil
		}
		ws.last = nil // re-read: the update lost a race, or its outcome is unknown
		if !apierrors.IsConflict(err) {
			return plan{}, &APIError{Op: "updating", Namespace: ws.namespace, Err: err}
		}
		if attempt >= a.opts.MaxAttempts {
			return plan{}, ErrContended
		}
		if attempt > 2 {
			// Several writers keep colliding: spread them out a little.
			time.Sleep(rand.N(time.Duration(attempt) * time.Millisecond)) //nolint:gosec // jitter, not a secret
		}
	}
}

// readOrCreate reads the workspace's InvoiceSequence from the API server,
// creating it (next 1) when the workspace has none yet.
func (a *Allocator) readOrCreate(ctx context.Context, namespace string) (*billingv1.InvoiceSequence, error) {
	key := types.NamespacedName{Namespace: namespace, Name: a.opts.Sequence}
	for {
		seq := &billingv1.InvoiceSequence{}
		err := a.opts.APIReader.Get(ctx, key, seq)
		if err == nil {
			return seq, nil
		}
		if !apierrors.IsNotFound(err) {
			return nil, &APIError{Op: "reading", Namespace: namespace, Err: err}
		}
		seq = &billingv1.InvoiceSequence{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: a.opts.Sequence},
			Spec:       billingv1.InvoiceSequenceSpec{Next: 1},
		}
		err = a.opts.Client.Create(ctx, seq)
		if err == nil {
			logf.FromContext(ctx).Info("Started a sequence of a workspace", "namespace", namespace, "sequence", a.opts.Sequence)
			return seq, nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return nil, &APIError{Op: "creating", Namespace: namespace, Err: err}
		}
		// Another writer created it first: read theirs.
	}
}

// cachedFates returns the fates of the journal's bound entries: the known
// ones, else what the cache says. A cache that fails is not trusted:
// the entry stays pending.
func (a *Allocator) cachedFates(ctx context.Context, namespace string, entries []billingv1.SequenceReservation,
	known map[entryKey]fate) map[entryKey]fate {
	fates := make(map[entryKey]fate, len(entries))
	for _, entry := range entries {
		if entry.Invoice == "" {
			continue
		}
		key := keyOf(entry)
		if f, ok := known[key]; ok {
			fates[key] = f
			continue
		}
		state, found, err := lookup(ctx, a.opts.Cached, types.NamespacedName{Namespace: namespace, Name: entry.Invoice}, entry.Fact)
		if err != nil {
			continue
		}
		fates[key] = fateOf(entry, state, found, false)
	}
	return fates
}
