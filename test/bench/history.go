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

package main

// The sealed history of the million-invoice measurement (million.go):
// families generated from one real family and sealed into LedgerSeals
// with the manager's own format code (internal/seal), so that a million
// invoices are in the installation without creating each through the API
// server. Everything after the seals' creation is the real system's: the
// manager verifies each seal and records its ledger.sealed event, and the
// adapter serves every record from it.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// family is an invoice paid in full by one payment, as the API server
// stores them.
type family struct {
	invoice *billingv1.Invoice
	payment *billingv1.Payment
}

// templateFamily creates one invoice in ns directly, waits until the
// manager has issued it, pays it in full, waits until the manager has
// settled it, and reads both back from the API server.
func (b *bench) templateFamily(ctx context.Context, ns string) (family, error) {
	w, err := b.watchIssued(ctx, ns)
	if err != nil {
		return family{}, err
	}
	defer w.stop()
	name, err := b.createDirect(ctx, ns)
	if err != nil {
		return family{}, err
	}
	if _, err := w.await(ctx, 1, 2*time.Minute); err != nil {
		return family{}, err
	}
	pay, err := payInFull(ns, name)
	if err != nil {
		return family{}, err
	}
	if err := b.admin.Create(ctx, pay); err != nil {
		return family{}, err
	}
	f := family{invoice: &billingv1.Invoice{}, payment: &billingv1.Payment{}}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := b.admin.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, f.invoice); err != nil {
			return family{}, err
		}
		if bal := f.invoice.Status.Balance; bal != nil && bal.PaymentStatus == billingv1.InvoicePaymentPaid {
			break
		}
		if time.Now().After(deadline) {
			return family{}, fmt.Errorf("invoice %s/%s was not paid within 2 minutes", ns, name)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := b.awaitSettled(ctx, 2*time.Minute, ns); err != nil {
		return family{}, err
	}
	if err := b.admin.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, f.invoice); err != nil {
		return family{}, err
	}
	err = b.admin.Get(ctx, types.NamespacedName{Namespace: ns, Name: pay.Name}, f.payment)
	return f, err
}

// history is one workspace's generated sealed history, made in parts
// (extend): its families, its chain so far, and where its numbers and
// events stand.
type history struct {
	ns       string
	template family
	// perSeal is how many families a seal holds; events how many events
	// one family carries.
	perSeal, events int
	// start and step place family j's issue at start + j*step; through is
	// the books' closed_through, after the last family.
	start   time.Time
	step    time.Duration
	through time.Time
	prefix  string
	// families made so far, seals made so far and the last seal's hash.
	families int
	seals    int64
	previous string
	// firstEvent is the event sequence of the current part's first
	// family's first event.
	firstEvent int64
	// sample names each seal's first invoice, newest the last invoice
	// sealed.
	sample []string
	newest string
}

// newHistory plans ns's history of up to total families issued over the
// three years before through, and finds how many families fill a seal.
func newHistory(ns string, template family, total int, through time.Time) (*history, error) {
	const span = 3 * 365 * 24 * time.Hour
	h := &history{ns: ns, template: template, start: through.Add(-span), step: span / time.Duration(max(total, 1)),
		through: through, previous: billingv1.ZeroHash,
		prefix: strings.TrimRight(template.invoice.Status.Number, "0123456789"),
		events: len(template.invoice.Status.Events) + len(template.payment.Status.Events)}
	// How many families fill a seal: encode a sample as the manager
	// would and aim at 90% of its target, as it does.
	const sample = 200
	var lines [][]byte
	for j := range sample {
		f := h.family(j, 1)
		for _, obj := range []client.Object{f.invoice, f.payment} {
			line, err := seal.Line(obj)
			if err != nil {
				return nil, err
			}
			lines = append(lines, line)
		}
	}
	enc, err := seal.Encode(lines)
	if err != nil {
		return nil, err
	}
	h.perSeal = max(1, seal.MaxPayloadBytes*9/10*sample/len(enc.Payload))
	return h, nil
}

// family is the template made family j of the history: its own names,
// uids, number, times and events from firstEvent on.
func (h *history) family(j int, firstEvent int64) family {
	t := h.template
	at := h.start.Add(time.Duration(j) * h.step).Truncate(time.Second)
	shift := func(x *metav1.Time) *metav1.Time {
		if x == nil {
			return nil
		}
		y := metav1.NewTime(at.Add(x.Sub(t.invoice.CreationTimestamp.Time)))
		return &y
	}
	inv := t.invoice.DeepCopy()
	inv.ObjectMeta = metav1.ObjectMeta{Namespace: h.ns, Name: billing.NewID(recordkind.Invoice.IDPrefix),
		UID: uuid.NewUUID(), CreationTimestamp: metav1.NewTime(at), Labels: inv.Labels, Annotations: inv.Annotations}
	n := int64(j + 1)
	inv.Status.Sequence, inv.Status.Number = &n, fmt.Sprintf("%s%06d", h.prefix, n)
	inv.Status.IssuedAt, inv.Status.DueAt = shift(inv.Status.IssuedAt), shift(inv.Status.DueAt)
	pay := t.payment.DeepCopy()
	pay.ObjectMeta = metav1.ObjectMeta{Namespace: h.ns, Name: "pay-" + inv.Name, UID: uuid.NewUUID(),
		CreationTimestamp: *shift(&pay.CreationTimestamp), Labels: pay.Labels, Annotations: pay.Annotations}
	pay.Spec.InvoiceRef.Name = inv.Name
	pay.Spec.PaidAt, pay.Status.RecordedAt = shift(pay.Spec.PaidAt), shift(pay.Status.RecordedAt)
	if l := inv.Status.Ledger; l != nil {
		for i := range l.Payments {
			if l.Payments[i].Name == t.payment.Name {
				l.Payments[i].Name, l.Payments[i].UID = pay.Name, string(pay.UID)
			}
		}
	}
	// The family's events in their order, numbered from firstEvent.
	type ref struct{ e *billingv1.RecordedEvent }
	refs := make([]ref, 0, len(inv.Status.Events)+len(pay.Status.Events))
	for i := range inv.Status.Events {
		refs = append(refs, ref{&inv.Status.Events[i]})
	}
	for i := range pay.Status.Events {
		refs = append(refs, ref{&pay.Status.Events[i]})
	}
	slices.SortFunc(refs, func(a, b ref) int { return int(a.e.Sequence - b.e.Sequence) })
	for i, r := range refs {
		r.e.Sequence, r.e.CreatedAt = firstEvent+int64(i), *shift(&r.e.CreatedAt)
	}
	return family{invoice: inv, payment: pay}
}

// builtSeal is a seal of the history, its chain link not yet known.
type builtSeal struct {
	link seal.Link
	enc  seal.Encoded
	// first and last name the seal's first and last invoice.
	first, last string
}

// extend adds families up to total (a multiple of perSeal, or the
// history's end) in seals after the chain so far: the workspace's event
// sequence is moved past the part's events first, then the seals are made
// two at a time and created in order, then the invoice sequence is moved
// past the part's numbers.
func (b *bench) extend(ctx context.Context, h *history, total int) error {
	from := h.families
	if total <= from {
		return nil
	}
	first, err := b.reserveEvents(ctx, h.ns, int64(total-from)*int64(h.events))
	if err != nil {
		return err
	}
	h.firstEvent = first
	count := (total - from + h.perSeal - 1) / h.perSeal
	built := make([]chan builtSeal, count)
	for i := range built {
		built[i] = make(chan builtSeal, 1)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4) // the dispatcher, the creator and two seals made at once
	g.Go(func() error {
		for k := range count {
			lo := from + k*h.perSeal
			hi := min(lo+h.perSeal, total)
			g.Go(func() error {
				s, err := h.build(lo, hi, from)
				if err != nil {
					return err
				}
				built[k] <- s
				return nil
			})
		}
		return nil
	})
	g.Go(func() error {
		for k := range count {
			var s builtSeal
			select {
			case s = <-built[k]:
			case <-gctx.Done():
				return gctx.Err()
			}
			s.link.Sequence, s.link.Previous = h.seals+1, h.previous
			sl := seal.New(s.link, s.enc)
			if err := b.admin.Create(gctx, sl); err != nil {
				return fmt.Errorf("creating seal %s/%s: %w", h.ns, sl.Name, err)
			}
			h.seals, h.previous = s.link.Sequence, sl.Spec.Hash
			h.sample, h.newest = append(h.sample, s.first), s.last
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return err
	}
	h.families = total
	last := h.start.Add(time.Duration(total-1) * h.step)
	return b.moveSequence(ctx, h.ns, billingv1.InvoiceSequenceName, int64(total)+1, &last)
}

// build makes the seal of families [lo, hi) of a part that starts at
// from: their records' lines, encoded.
func (h *history) build(lo, hi, from int) (builtSeal, error) {
	s := builtSeal{link: seal.Link{Namespace: h.ns, ClosedThrough: h.through}}
	lines := make([][]byte, 0, 2*(hi-lo))
	for j := lo; j < hi; j++ {
		f := h.family(j, h.firstEvent+int64(j-from)*int64(h.events))
		for _, obj := range []client.Object{f.invoice, f.payment} {
			line, err := seal.Line(obj)
			if err != nil {
				return s, err
			}
			lines = append(lines, line)
			seal.Count(&s.link.Counts, obj)
		}
		if j == lo {
			s.link.First, s.first = f.invoice.Status.Number, f.invoice.Name
		}
		s.link.Last, s.last = f.invoice.Status.Number, f.invoice.Name
	}
	var err error
	if s.enc, err = seal.Encode(lines); err != nil {
		return s, err
	}
	if len(s.enc.Payload) > seal.MaxEncodedBytes {
		return s, fmt.Errorf("a seal of %d families encodes to %d bytes, above %d", hi-lo, len(s.enc.Payload),
			seal.MaxEncodedBytes)
	}
	return s, nil
}

// reserveEvents moves ns's event sequence n past where it stands and
// returns the first of the n sequences it passed.
func (b *bench) reserveEvents(ctx context.Context, ns string, n int64) (int64, error) {
	var first int64
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		seq := &billingv1.InvoiceSequence{}
		err := b.admin.Get(ctx, types.NamespacedName{Namespace: ns, Name: billingv1.EventSequenceName}, seq)
		if apierrors.IsNotFound(err) {
			first = 1
			seq = &billingv1.InvoiceSequence{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: billingv1.EventSequenceName},
				Spec: billingv1.InvoiceSequenceSpec{Next: n + 1}}
			return b.admin.Create(ctx, seq)
		}
		if err != nil {
			return err
		}
		first = seq.Spec.Next
		seq.Spec.Next += n
		return b.admin.Update(ctx, seq)
	})
	return first, err
}

// moveSequence sets ns's sequence name to next (never back), with the
// latest issue time handed out.
func (b *bench) moveSequence(ctx context.Context, ns, name string, next int64, last *time.Time) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		seq := &billingv1.InvoiceSequence{}
		err := b.admin.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, seq)
		if apierrors.IsNotFound(err) {
			seq = &billingv1.InvoiceSequence{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		} else if err != nil {
			return err
		}
		seq.Spec.Next = max(seq.Spec.Next, next)
		if last != nil {
			at := metav1.NewTime(*last)
			seq.Spec.LastIssuedAt = &at
		}
		if seq.ResourceVersion == "" {
			return b.admin.Create(ctx, seq)
		}
		return b.admin.Update(ctx, seq)
	})
}
