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

package ledger

import (
	"context"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
)

// This file is the protocol every kind of record entered in an invoice's
// ledger (status.ledger: credit notes and payments, next credit
// applications, refunds and write-offs) is reconciled by. A kind describes
// itself in a ledgerKind and brings its own step (what it computes and
// writes once its invoice is issued); the rest is here (the status patch
// every reconciler makes is status_patch.go's):
//
//   - reconcile reads the record from the cache and, unless it is settled,
//     runs the protocol from live reads of the record and its invoice
//     (never a cached ledger), again when a write conflicts (another record
//     entered the invoice first), at most maxLedgerAttempts times;
//   - while the invoice is missing or not issued the record waits, Pending
//     and Reconciling, and a change of the invoice wakes it (waitingOn);
//   - enter enters the record into the invoice's ledger with the balance
//     recomputed, in one status patch with an optimistic lock, so that two
//     records are never entered on the same ledger; mark writes the
//     record's currency and customer just before, which keeps it from
//     being deleted;
//   - settle gives a record its fact's event and its settled status;
//   - patch writes the record's status once, when it changed.

// maxLedgerAttempts is how many times one reconcile retries entering a
// record after another entered the same invoice first.
const maxLedgerAttempts = 20

// ledgerKind is what the protocol knows of one kind of record; O is a
// pointer to it (*billingv1.CreditNote).
type ledgerKind[O billingv1.LedgerRecord] struct {
	// name names the kind in logs and errors ("credit note"); without its
	// spaces it names its controller and metrics ("creditnote").
	name string
	// object and list are an empty record and an empty list of them, the
	// kind's types.
	object O
	list   client.ObjectList
	// invoiceIndex is the cache's field index of the invoice a record
	// names (internal/manager/index); for a kind that waits on another
	// object (waitsOn), that object's.
	invoiceIndex string
	// waitsOn is the kind of object whose change wakes the records that
	// wait for it: an invoice (nil), or a refund's customer.
	waitsOn client.Object
	// phases are the kind's phases; fact is the event a settled record
	// carries.
	phases recordPhases
	fact   billingv1.EventType
	// entries points at the ledger's entries of the kind.
	entries func(*billingv1.InvoiceLedger) *[]billingv1.LedgerEntry
	// fields points at the fields every kind of record has.
	fields func(O) recordFields
	// display fills the status.display of a settled record that has none,
	// settled before its kind had one, from the record alone.
	display func(O)
}

// recordPhases are a kind's phases: pending while it waits, settled when
// it is done (issued, recorded) and rejected when it never will be (""
// for a kind that is never rejected).
type recordPhases struct {
	pending, settled, rejected string
	// invalid is the phase of a record that is never entered: a
	// re-creation of a sealed record (AlreadySealed).
	invalid string
}

// recordFields point at the status fields every kind of record has, in
// this order: status.phase, status.observedGeneration, status.conditions,
// status.currency and status.customerName (nil for a kind whose spec names
// its customer: a refund). Its invoice and its events are the record's
// (billingv1.LedgerRecord).
type recordFields struct {
	phase              *string
	observedGeneration *int64
	conditions         *[]metav1.Condition
	currency           *string
	customerName       *string
}

// Parts are what every reconciler of ledger records is given.
type Parts struct {
	// Client reads through the cache and writes.
	client.Client
	// APIReader reads records and invoices straight from the API server:
	// what is left of an invoice is decided on its latest ledger, never on
	// a cached one.
	APIReader client.Reader
	Clock     clock.PassiveClock
	// Events hands out the workspace's event sequences: a record is
	// settled together with its event, which comes after its invoice's
	// invoice.issued.
	Events reconciler.EventNumberer
	// Sealed knows the workspace's sealed records: a record re-created
	// with a sealed one's name is Invalid (AlreadySealed) and enters no
	// ledger (nil: nothing is sealed).
	Sealed *sealing.SealedRecords
}

// ledgerStep is a kind's own part of the protocol: what it does with a
// record that is not settled, read live, whose invoice (read live) is
// issued, at now. A conflict it returns starts the protocol again.
type ledgerStep[O billingv1.LedgerRecord] func(ctx context.Context, obj O, inv *billingv1.Invoice, now time.Time) (ctrl.Result, error)

// reconcile is a kind's Reconcile: step runs on the record named by key
// unless it is settled or gone, from fresh live reads after each conflict.
func (k *ledgerKind[O]) reconcile(ctx context.Context, p Parts, key types.NamespacedName,
	step ledgerStep[O]) (ctrl.Result, error) {
	return k.retrying(ctx, p.Client, key, func() (ctrl.Result, error) { return k.reconcileOnce(ctx, p, key, step) })
}

// retrying runs once, unless the record named key is settled or gone in
// the cache, again after each conflict (another record entered first), at
// most maxLedgerAttempts times: once starts from fresh live reads. A
// settled record settled before status.display existed gains it instead.
func (k *ledgerKind[O]) retrying(ctx context.Context, cache client.Client, key types.NamespacedName,
	once func() (ctrl.Result, error)) (ctrl.Result, error) {
	if obj, pending, err := k.get(ctx, cache, key); !pending || err != nil {
		if err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, k.showSettled(ctx, cache, obj)
	}
	for attempt := 1; ; attempt++ {
		result, err := once()
		if !apierrors.IsConflict(err) || attempt >= maxLedgerAttempts {
			return result, err
		}
		logf.FromContext(ctx).V(1).Info("Retrying a "+k.name+" after a conflict", "attempt", attempt)
	}
}

// reconcileOnce runs the protocol once: the record and its invoice are
// read live; the record waits while the invoice is not issued, else step
// runs.
func (k *ledgerKind[O]) reconcileOnce(ctx context.Context, p Parts, key types.NamespacedName,
	step ledgerStep[O]) (ctrl.Result, error) {
	obj, pending, err := k.get(ctx, p.APIReader, key)
	if !pending || err != nil {
		return ctrl.Result{}, err
	}
	now := p.Clock.Now()
	if why, err := sealing.AlreadySealed(ctx, p.Sealed, obj); err != nil || why != nil {
		if err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, k.patch(ctx, p.Client, obj, func() {
			f := k.fields(obj)
			*f.phase = k.phases.invalid
			*f.observedGeneration = obj.GetGeneration()
			sealing.SealedConditions(f.conditions, obj.GetGeneration(), why, now)
		})
	}
	once := fmt.Sprintf("the %s is %s once it is", k.name, strings.ToLower(k.phases.settled))
	inv, waiting, err := liveIssuedInvoice(ctx, p.APIReader, obj.GetNamespace(), obj.InvoiceName(), once)
	if err != nil {
		return ctrl.Result{}, err
	}
	if waiting != nil {
		if why, err := sealing.InvoiceSealed(ctx, p.Sealed, obj.GetNamespace(), obj.InvoiceName(), waiting); err != nil ||
			why != nil {
			if err != nil {
				return ctrl.Result{}, err
			}
			return ctrl.Result{}, k.reject(ctx, p.Client, obj, why, now)
		}
		return ctrl.Result{}, k.wait(ctx, p.Client, obj, waiting, billingv1.ConditionReconciling, now)
	}
	return step(ctx, obj, inv, now)
}

// get reads the record named key through reader; pending is false when it
// is gone or needs nothing more.
func (k *ledgerKind[O]) get(ctx context.Context, reader client.Reader, key types.NamespacedName) (
	obj O, pending bool, err error) {
	obj = k.newObject()
	if err := reader.Get(ctx, key, obj); err != nil {
		return obj, false, client.IgnoreNotFound(err)
	}
	return obj, !k.done(obj), nil
}

// newObject returns an empty record.
func (k *ledgerKind[O]) newObject() O {
	return k.object.DeepCopyObject().(O) // a deep copy has its original's type
}

// done reports whether obj needs nothing more: settled with its event,
// rejected, or being deleted.
func (k *ledgerKind[O]) done(obj O) bool {
	f := k.fields(obj)
	settled := *f.phase == k.phases.settled && billingv1.FindEvent(obj.RecordedEvents(), k.fact) != nil
	rejected := k.phases.rejected != "" && *f.phase == k.phases.rejected
	invalid := k.phases.invalid != "" && *f.phase == k.phases.invalid
	return settled || rejected || invalid || !obj.GetDeletionTimestamp().IsZero()
}

// showSettled patches the status.display of obj, settled before its kind
// had one (the kind's display), read from the cache; a record that is not
// settled, or being deleted, is left as it is.
func (k *ledgerKind[O]) showSettled(ctx context.Context, c client.Client, obj O) error {
	if *k.fields(obj).phase != k.phases.settled || !obj.GetDeletionTimestamp().IsZero() {
		return nil
	}
	return k.patch(ctx, c, obj, func() { k.display(obj) })
}

// wait patches obj Pending and not Ready for why; also is Reconciling (it
// goes on by itself) or Stalled (it never will).
func (k *ledgerKind[O]) wait(ctx context.Context, c client.Client, obj O, why *reconciler.Verdict, also string,
	now time.Time) error {
	return k.patch(ctx, c, obj, func() {
		f := k.fields(obj)
		*f.phase = k.phases.pending
		*f.observedGeneration = obj.GetGeneration()
		conditions := reconciler.Conditions{List: f.conditions, Generation: obj.GetGeneration(), Now: now}
		conditions.NotReady(why.Reason, why.Message, also)
	})
}

// reject patches obj rejected (the kind's rejected phase) and not Ready for
// why, Stalled: it is final, and is never entered in a ledger.
func (k *ledgerKind[O]) reject(ctx context.Context, c client.Client, obj O, why *reconciler.Verdict, now time.Time) error {
	logf.FromContext(ctx).Info("Rejected a "+k.name, "reason", why.Reason, "message", why.Message)
	return k.patch(ctx, c, obj, func() {
		f := k.fields(obj)
		*f.phase = k.phases.rejected
		*f.observedGeneration = obj.GetGeneration()
		conditions := reconciler.Conditions{List: f.conditions, Generation: obj.GetGeneration(), Now: now}
		conditions.NotReady(why.Reason, why.Message, billingv1.ConditionStalled)
	})
}

// currencyMismatch says why a record of the kind in currency (its
// spec.currency; "" is its invoice's) waits, Stalled, on inv in another
// currency, or nil when it is in inv's.
func (k *ledgerKind[O]) currencyMismatch(currency string, inv *billingv1.Invoice) *reconciler.Verdict {
	invoiceCurrency := billing.InvoiceCurrency(inv)
	if currency == "" || currency == invoiceCurrency {
		return nil
	}
	return &reconciler.Verdict{Reason: billingv1.ReasonCurrencyMismatch, Message: fmt.Sprintf(
		"The %s is in %s but invoice %q is in %s; create it in %s", k.name, currency, inv.Name, invoiceCurrency,
		invoiceCurrency)}
}

// inClosedPeriod says why a record of the kind dated at (field names its
// date in the message) may not enter a ledger: it is at or before the
// workspace's closed_through (docs/ledger.md#closing-the-books), or nil.
// The closes are read live through reader, as the record and its invoice
// are: a close the cache has not seen yet still refuses the record.
func (k *ledgerKind[O]) inClosedPeriod(ctx context.Context, reader client.Reader, obj O, field string,
	at time.Time) (*reconciler.Verdict, error) {
	closes := &billingv1.PeriodCloseList{}
	if err := reader.List(ctx, closes, client.InNamespace(obj.GetNamespace())); err != nil {
		return nil, fmt.Errorf("listing the period closes of %s: %w", obj.GetNamespace(), err)
	}
	through, name, ok := billing.ClosedThrough(closes.Items)
	if !ok || !billing.InClosedPeriod(at, through) {
		return nil, nil
	}
	return &reconciler.Verdict{Reason: billingv1.ReasonPeriodClosed, Message: fmt.Sprintf(
		"The %s's %s %s is at or before the workspace's closed_through %s (PeriodClose %q); it is never entered in a ledger",
		k.name, field, at.UTC().Format(time.RFC3339), through.UTC().Format(time.RFC3339), name)}, nil
}

// patch changes obj's status as change makes it and patches it once when
// it changed, with an optimistic lock; obj is updated in place, and the
// events it gains are counted once written.
func (k *ledgerKind[O]) patch(ctx context.Context, c client.Client, obj O, change func()) error {
	before := obj.DeepCopyObject().(O) // a deep copy has its original's type
	change()
	changed, err := reconciler.PatchStatus(ctx, c, before, obj, client.MergeFromWithOptimisticLock{})
	if changed {
		reconciler.ObserveEvents(before.RecordedEvents(), obj.RecordedEvents())
	}
	return err
}

// mark writes inv's currency and customer on obj before it enters inv's
// ledger (a kind whose fields have a customerName: not a refund), or holds
// its customer's credit for it. From then on the kind's retention
// policy (config/policy) refuses to delete obj, so a ledger never counts a
// record that no longer exists: a DELETE before this patch makes the patch
// fail (its optimistic lock), and one after it is refused.
func (k *ledgerKind[O]) mark(ctx context.Context, c client.Client, obj O, inv *billingv1.Invoice) error {
	return k.patch(ctx, c, obj, func() {
		f := k.fields(obj)
		*f.currency = billing.InvoiceCurrency(inv)
		if f.customerName != nil {
			*f.customerName = inv.Spec.CustomerRef.Name
		}
	})
}

// markAndEnter marks obj (mark) and enters it in inv's ledger for amount
// (enter); done is true when it waits instead, Stalled, because inv's
// ledger is full.
func (k *ledgerKind[O]) markAndEnter(ctx context.Context, c client.Client, obj O, inv *billingv1.Invoice,
	amount int64, now time.Time) (done bool, err error) {
	if full := k.full(inv); full != nil {
		return true, k.wait(ctx, c, obj, full, billingv1.ConditionStalled, now)
	}
	if err := k.mark(ctx, c, obj, inv); err != nil {
		return true, err
	}
	return false, k.enter(ctx, c, obj, inv, k.withEntry(inv, obj, amount), now)
}

// settle takes the last step of every kind: the record's fact gains its
// event, after the sequence after, in events (those of the settled status
// that set gives obj), and obj is patched with that status. A retry gets
// the same event: the allocator binds it to the record.
func (k *ledgerKind[O]) settle(ctx context.Context, p Parts, obj O, after int64, events *[]billingv1.RecordedEvent,
	set func()) error {
	var err error
	if *events, err = reconciler.RecordFact(ctx, p.Events, obj, k.fact, after, *events); err != nil {
		return err
	}
	return k.patch(ctx, p.Client, obj, set)
}

// entered reports whether inv's ledger holds obj (its name and uid):
// entered before a crash or a lost status write.
func (k *ledgerKind[O]) entered(inv *billingv1.Invoice, obj O) bool {
	return inv.Status.Ledger != nil && hasEntry(*k.entries(inv.Status.Ledger), obj.GetName(), string(obj.GetUID()))
}

// full says why inv's ledger takes no more records of the kind, or nil
// while it does.
func (k *ledgerKind[O]) full(inv *billingv1.Invoice) *reconciler.Verdict {
	if inv.Status.Ledger == nil || len(*k.entries(inv.Status.Ledger)) < billingv1.MaxLedgerEntries {
		return nil
	}
	return &reconciler.Verdict{Reason: billingv1.ReasonLedgerFull,
		Message: fmt.Sprintf("Invoice %q's ledger holds %d %ss, the most it can", inv.Name, billingv1.MaxLedgerEntries, k.name)}
}

// withEntry returns a copy of inv's ledger with obj entered for amount,
// after the entries of its kind already there.
func (k *ledgerKind[O]) withEntry(inv *billingv1.Invoice, obj O, amount int64) *billingv1.InvoiceLedger {
	ledger := &billingv1.InvoiceLedger{}
	if inv.Status.Ledger != nil {
		ledger = inv.Status.Ledger.DeepCopy()
	}
	entries := k.entries(ledger)
	*entries = append(*entries, billingv1.LedgerEntry{Name: obj.GetName(), UID: string(obj.GetUID()), Amount: amount})
	return ledger
}

// enter writes ledger (inv's, with obj entered: withEntry) on inv with the
// balance recomputed from it, in one status patch with an optimistic lock:
// when another record entered first the patch conflicts, and the protocol
// starts again from its live reads.
func (k *ledgerKind[O]) enter(ctx context.Context, c client.Client, obj O, inv *billingv1.Invoice,
	ledger *billingv1.InvoiceLedger, now time.Time) error {
	before := inv.DeepCopy()
	inv.Status.Ledger = ledger
	var err error
	if inv.Status.Balance, err = billing.LedgerBalance(inv, now); err != nil {
		return err
	}
	if _, err := reconciler.PatchStatus(ctx, c, before, inv, client.MergeFromWithOptimisticLock{}); err != nil {
		return fmt.Errorf("entering %s %s in invoice %s: %w", k.name, obj.GetName(), inv.Name, err)
	}
	return nil
}

// hasEntry reports whether entries hold the object named name with uid.
func hasEntry(entries []billingv1.LedgerEntry, name, uid string) bool {
	for _, e := range entries {
		if e.Name == name && e.UID == uid {
			return true
		}
	}
	return false
}

// latestEvent returns the highest event sequence of the kind's records in
// inv's ledger, read through c (the cache); ready is false while one of
// them does not carry its event yet. An entry whose record is gone (or
// another of that name) never will, and is not waited for.
func (k *ledgerKind[O]) latestEvent(ctx context.Context, c client.Reader, inv *billingv1.Invoice) (
	after int64, ready bool, err error) {
	if inv.Status.Ledger == nil {
		return 0, true, nil
	}
	for _, entry := range *k.entries(inv.Status.Ledger) {
		obj := k.newObject()
		key := types.NamespacedName{Namespace: inv.Namespace, Name: entry.Name}
		if err := c.Get(ctx, key, obj); err != nil {
			if apierrors.IsNotFound(err) {
				continue
			}
			return 0, false, fmt.Errorf("reading %s of the ledger: %w", key, err)
		}
		if string(obj.GetUID()) != entry.UID {
			continue
		}
		seq := reconciler.EventSequence(obj.RecordedEvents(), k.fact)
		if seq == 0 {
			return 0, false, nil
		}
		after = max(after, seq)
	}
	return after, true, nil
}

// waitingOn maps an invoice (or what the kind waits on) to its records
// that are not settled, listed through c (the cache) by the kind's index.
func (k *ledgerKind[O]) waitingOn(c client.Reader) handler.MapFunc {
	return func(ctx context.Context, inv client.Object) []reconcile.Request {
		list := k.list.DeepCopyObject().(client.ObjectList) // a deep copy has its original's type
		if err := c.List(ctx, list, client.InNamespace(inv.GetNamespace()),
			client.MatchingFields{k.invoiceIndex: inv.GetName()}); err != nil {
			logf.FromContext(ctx).Error(err, "Listing the "+k.name+"s of an invoice failed", "invoice", inv.GetName())
			return nil
		}
		var requests []reconcile.Request
		_ = meta.EachListItem(list, func(item runtime.Object) error {
			if obj, ok := item.(O); ok && !k.done(obj) {
				requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(obj)})
			}
			return nil
		})
		return requests
	}
}

// setup registers r as the kind's controller, reconciling up to
// concurrency records at once (0: the manager's default). A change of an
// invoice wakes the records waiting for it; the writes that only drop a
// status's field ownership wake nothing.
func (k *ledgerKind[O]) setup(mgr ctrl.Manager, concurrency int, r reconcile.Reconciler, p Parts) error {
	if err := reconciler.FirstMissing(reconciler.Need(p.Clock == nil, reconciler.ErrNoClock),
		reconciler.Need(p.APIReader == nil, reconciler.ErrNoAPIReader),
		reconciler.Need(p.Events == nil, reconciler.ErrNoEvents)); err != nil {
		return err
	}
	name := strings.ReplaceAll(k.name, " ", "")
	return reconciler.NewController(mgr, name, concurrency, k.object, builder.WithPredicates(trim.ChangedBeyondBookkeeping)).
		Watches(k.waitedOn(), handler.EnqueueRequestsFromMapFunc(k.waitingOn(p.Client)),
			builder.WithPredicates(trim.ChangedBeyondBookkeeping)).
		Complete(reconciler.CountErrors(name, r))
}

// waitedOn is an empty object of the kind the records wait on.
func (k *ledgerKind[O]) waitedOn() client.Object {
	if k.waitsOn == nil {
		return &billingv1.Invoice{}
	}
	return k.waitsOn.DeepCopyObject().(client.Object) // a deep copy has its original's type
}

// liveIssuedInvoice reads the invoice named name straight from the API
// server. A record waits while it is missing or not issued (numbered):
// waiting then says why, with the reason of its Reconciling condition;
// once says what happens when it is issued ("the payment is recorded once
// it is").
func liveIssuedInvoice(ctx context.Context, reader client.Reader, namespace, name, once string) (
	inv *billingv1.Invoice, waiting *reconciler.Verdict, err error) {
	inv = &billingv1.Invoice{}
	waiting, err = liveGet(ctx, reader, namespace, name, inv, "Invoice", billingv1.ReasonInvoiceNotFound)
	if waiting != nil || err != nil {
		return nil, waiting, err
	}
	if inv.Status.Phase != billingv1.InvoiceIssued || inv.Status.Sequence == nil || inv.Status.Total == nil {
		return nil, &reconciler.Verdict{Reason: billingv1.ReasonInvoiceNotIssued,
			Message: fmt.Sprintf("Invoice %q is not issued yet; %s", name, once)}, nil
	}
	return inv, nil, nil
}

// liveGet reads name of namespace into obj straight from the API server;
// waiting says why a record waits while it is missing, for reason: what
// ("Invoice") does not exist yet.
func liveGet(ctx context.Context, reader client.Reader, namespace, name string, obj client.Object, what, reason string) (
	waiting *reconciler.Verdict, err error) {
	key := types.NamespacedName{Namespace: namespace, Name: name}
	if err := reader.Get(ctx, key, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return &reconciler.Verdict{Reason: reason,
				Message: fmt.Sprintf("%s %q does not exist in namespace %q; waiting for it", what, name, namespace)}, nil
		}
		return nil, fmt.Errorf("getting %s %s: %w", strings.ToLower(what), key, err)
	}
	return nil, nil
}
