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

// Measurement 10, sealing: a workspace's settled invoices (each paid by
// one payment; the open invoices other measurements left there stay) have
// their books closed, and the manager seals them while
// invoices are issued in another workspace. It reports the records sealed
// per second (an invoice and its payment are two records) and the issue
// ratio of that round, issued per second over created per second, beside
// measurement 4's controller_ratio_apf, with the install's APF objects as
// that ratio has them.

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// sealingWorkspace holds the families measurement 10 seals. It is a fill
// workspace: it runs before measurement 5 fills it, which then fills it
// beside its seals.
const sealingWorkspace = "bench-3"

// sealingStep is the measurement's name for -only.
const sealingStep = "10. sealing, and issuing meanwhile"

func (b *bench) measureSealing(ctx context.Context, r *Report) error {
	ns, n := sealingWorkspace, b.cfg.Invoices
	if err := b.settledFamilies(ctx, ns, n); err != nil {
		return err
	}
	s, err := b.sealWhileIssuing(ctx, ns, n, max(b.cfg.Invoices/apfRounds, b.cfg.Workers))
	if err != nil {
		return err
	}
	r.SealRecordsPerSec, r.IssueRatioWhileSealing = s.recordsPerSec, s.ratio
	r.Details.SealingCreatedPerSec, r.Details.SealingIssuedPerSec, r.Details.Seals = s.created, s.issued, s.seals
	return nil
}

// sealingRun is what sealWhileIssuing measured.
type sealingRun struct {
	// recordsPerSec: records sealed per second; created, issued and ratio:
	// the issuing round's rates and their ratio; seals: the workspace's
	// seals after it.
	recordsPerSec, created, issued, ratio float64
	seals                                 int
}

// sealWhileIssuing closes the books of ns, whose n settled families (an
// invoice and its payment each) are to be sealed, and runs a round of per
// invoices of measurement 4 in another workspace meanwhile, with the
// install's APF objects applied, as installed: the sealing flow schema
// puts the manager's sealing below its issuing.
func (b *bench) sealWhileIssuing(ctx context.Context, ns string, n, per int) (sealingRun, error) {
	var s sealingRun
	if err := b.setAPF(ctx, true); err != nil {
		return s, err
	}
	defer func() { _ = b.setAPF(context.WithoutCancel(ctx), false) }()
	// Other measurements leave open invoices in the workspace: they stay.
	others, err := b.liveInvoices(ctx, ns)
	if err != nil {
		return s, err
	}
	others -= n
	b.logf("Closing the books of %s: sealing %d invoices and their payments", ns, n)
	through := time.Now().Add(-time.Second).UTC().Format(time.RFC3339)
	start := time.Now()
	if err := b.admin.Create(ctx, &billingv1.PeriodClose{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bench-close"},
		Spec:       billingv1.PeriodCloseSpec{Through: through},
	}); err != nil {
		return s, fmt.Errorf("closing the books: %w", err)
	}
	sealed := make(chan error, 1)
	var sealedAfter time.Duration
	go func() {
		err := b.awaitLiveInvoices(ctx, ns, others, time.Duration(n)*100*time.Millisecond+10*time.Minute)
		sealedAfter = time.Since(start)
		sealed <- err
	}()
	run := &controllerRun{wait: apfWait{}}
	if err := b.controllerRound(ctx, controllerWorkspace, per, false, false, run); err != nil {
		return s, err
	}
	if err := <-sealed; err != nil {
		return s, err
	}
	s.recordsPerSec = float64(2*n) / sealedAfter.Seconds()
	s.created, s.issued, s.ratio = run.rates()
	if sealedAfter < run.issuedElapsed {
		b.logf("Sealing ended %s before the round's issuing did: the ratio covers part of the round only",
			run.issuedElapsed-sealedAfter)
	}
	b.logf("Sealed %d records in %s: %.0f records/s; issuing meanwhile %.2f of created", 2*n,
		sealedAfter.Round(time.Second), s.recordsPerSec, s.ratio)
	var seals billingv1.LedgerSealList
	if err := b.admin.List(ctx, &seals, client.InNamespace(ns)); err != nil {
		return s, err
	}
	s.seals = len(seals.Items)
	return s, nil
}

// settledFamilies creates n invoices in ns directly and, once they are
// issued, pays each in full with one payment, and waits until the manager
// is done with them.
func (b *bench) settledFamilies(ctx context.Context, ns string, n int) error {
	w, err := b.watchIssued(ctx, ns)
	if err != nil {
		return err
	}
	defer w.stop()
	names := make([]string, n)
	if _, err := b.parallel(ctx, n, func(ctx context.Context, i int) (err error) {
		names[i], err = b.createDirect(ctx, ns)
		return err
	}); err != nil {
		return err
	}
	if _, err := w.await(ctx, n, time.Duration(n)*40*time.Millisecond+5*time.Minute); err != nil {
		return err
	}
	if _, err := b.parallel(ctx, n, func(ctx context.Context, i int) error {
		pay, err := payInFull(ns, names[i])
		if err != nil {
			return err
		}
		return b.admin.Create(ctx, pay)
	}); err != nil {
		return err
	}
	return b.awaitSettled(ctx, time.Duration(n)*40*time.Millisecond+5*time.Minute, ns)
}

// payInFull is a payment of the whole total of the benchmark's invoice
// named invoice in ns.
func payInFull(ns, invoice string) (*billingv1.Payment, error) {
	inv := newInvoice(ns)
	amounts, err := billing.InvoiceAmounts(&inv.Spec, billing.EffectiveDocumentTaxes(&inv.Spec, nil))
	if err != nil {
		return nil, err
	}
	return builder.Payment(ns, "pay-"+invoice, invoice, amounts.Total), nil
}

// liveInvoices counts the live invoices of ns: a list of one item's
// metadata, whose remainingItemCount the API server counts without
// converting or sending the rest. (A list of every live invoice's
// metadata, four times a second, took half the API server's CPU while a
// million's month of 50,000 invoices was sealed: the benchmark slowed
// what it measured.)
func (b *bench) liveInvoices(ctx context.Context, ns string) (int, error) {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(billingv1.GroupVersion.WithKind("InvoiceList"))
	if err := b.admin.List(ctx, list, client.InNamespace(ns), client.Limit(1)); err != nil {
		return 0, err
	}
	switch {
	case list.RemainingItemCount != nil:
		return len(list.Items) + int(*list.RemainingItemCount), nil
	case list.Continue == "":
		return len(list.Items), nil
	}
	// A server that does not count what is left: the whole list.
	list = &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(billingv1.GroupVersion.WithKind("InvoiceList"))
	if err := b.admin.List(ctx, list, client.InNamespace(ns)); err != nil {
		return 0, err
	}
	return len(list.Items), nil
}

// awaitLiveInvoices waits until ns holds no more than left live invoices.
func (b *bench) awaitLiveInvoices(ctx context.Context, ns string, left int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		live, err := b.liveInvoices(ctx, ns)
		if err != nil {
			return err
		}
		if live <= left {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d invoices of %s still live after %s, want %d", live, ns, timeout, left)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
