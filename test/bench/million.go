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

// Measurement 11, a million invoices (`make bench BENCH_ONLY=million`, not
// part of a full run): an installation of MillionInvoices invoices in a
// few workspaces, most of them settled in closed periods and sealed, the
// rest live, and what it costs there: memory, restarts, issuing, sealing,
// reads and etcd's database (docs/performance.md).
//
// Where each part comes from:
//
//   - the sealed history is generated (history.go): one real family
//     (an invoice issued by the manager, paid by one payment) is copied
//     under new names, numbers, times and events and written into seals
//     with internal/seal, the manager's own format code; the manager
//     verifies each and records its ledger.sealed event, the adapter
//     serves every record from them;
//   - the live, open invoices and the month sealed while measuring are
//     created through the API server and issued, paid and sealed by the
//     real manager.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// millionStep is measurement 11's name; -only takes "million".
const millionStep = "11. a million invoices"

// The million measurement's workspaces: the history's (the first holds
// most of it, for the feed's depth), the template family's, and the month
// sealed while measuring.
var (
	historyWorkspaces = []string{"bench-5", "bench-6", "bench-7", "bench-8"}
	templateWorkspace = "bench-3"
	monthWorkspace    = "bench-9"
)

// millionPlan is how a million-invoice installation is made of its parts.
type millionPlan struct {
	total, live, month, round, baseline int
	// history: generated families per history workspace.
	history []int
	// feedDepth is how deep in the first history workspace's feed pages
	// are read at full size.
	feedDepth int64
}

// planMillion splits total invoices: a twentieth live and open, a
// twentieth the month sealed while measuring, rounds of up to 2,000
// invoices, and the rest generated history, five eighths of it in the
// first history workspace.
func planMillion(total, workers, warm int) millionPlan {
	p := millionPlan{total: total, live: total / 20, month: total / 20,
		round: min(2_000, max(total/50, 4*workers))}
	rest := total - p.live - p.month - 2*p.round - warm - 1
	deep := rest * 5 / 8
	p.history = []int{deep}
	for i := range 3 {
		p.history = append(p.history, (rest-deep)/3+boolInt(i < (rest-deep)%3))
	}
	p.baseline = min(10_000, deep/5)
	p.feedDepth = int64(min(500_000, deep*8/9))
	return p
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// millionRun is measurement 11 under way: its plan, its histories and
// the reads at the baseline.
type millionRun struct {
	plan      millionPlan
	histories []*history
	base      map[string]result
}

// measureMillion builds the installation and measures it, step by step,
// timing each step.
func (b *bench) measureMillion(ctx context.Context, r *Report) error {
	m := &millionRun{plan: planMillion(b.cfg.MillionInvoices, b.cfg.Workers, int(b.created.Load()))}
	d := &r.Details.MillionDetails
	d.MillionInvoices, d.MillionMonth, d.MillionLive = m.plan.total, m.plan.month, m.plan.live
	d.MillionRoundInvoices = m.plan.round
	d.MillionRates, d.MillionPages, d.MillionFeedDepth = map[string]float64{}, map[string]pageLatencies{}, map[string]int64{}
	d.MillionPlane, d.MillionSteps, d.MillionPageRatios = map[string]planeUsage{}, map[string]float64{}, map[string]float64{}
	for _, s := range []struct {
		name string
		run  func(context.Context, *Report) error
	}{
		{"plan", m.planHistories(b)},
		{"baseline", m.baseline(b)},
		{"history", m.history(b)},
		{"live", m.live(b)},
		{"issue_and_seal", m.issueAndSeal(b)},
		{"memory", b.millionMemory},
		{"reads", m.reads(b)},
		{"restart", b.millionRestart},
		{"etcd", b.millionEtcd},
	} {
		t := time.Now()
		b.logf("A million: %s", s.name)
		if err := s.run(ctx, r); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		d.MillionSteps[s.name] = time.Since(t).Seconds()
	}
	b.logf("A million: %d invoices, %.1f GiB resident in all, etcd %.0f MiB after defragmenting",
		b.created.Load(), float64(r.TotalRSS)/(1<<30), mib(r.EtcdDBBytes))
	return nil
}

// planHistories makes the template family and plans each history
// workspace's generated history.
func (m *millionRun) planHistories(b *bench) func(context.Context, *Report) error {
	return func(ctx context.Context, r *Report) error {
		template, err := b.templateFamily(ctx, templateWorkspace)
		if err != nil {
			return fmt.Errorf("the template family: %w", err)
		}
		b.created.Add(1)
		through := time.Now().Add(-40 * 24 * time.Hour).UTC().Truncate(time.Second)
		m.histories = make([]*history, len(historyWorkspaces))
		for i, ns := range historyWorkspaces {
			if m.histories[i], err = newHistory(ns, template, m.plan.history[i], through); err != nil {
				return err
			}
			r.Details.MillionGenerated += m.plan.history[i]
		}
		r.Details.MillionPerSeal = m.histories[0].perSeal
		return nil
	}
}

// baseline seals the first history workspace's first 10,000 or so
// invoices and reads there.
func (m *millionRun) baseline(b *bench) func(context.Context, *Report) error {
	return func(ctx context.Context, r *Report) error {
		deep := m.histories[0]
		n := min(m.plan.history[0], (m.plan.baseline+deep.perSeal-1)/deep.perSeal*deep.perSeal)
		if err := b.extend(ctx, deep, n); err != nil {
			return err
		}
		if err := b.awaitHistory(ctx, m.histories[:1]); err != nil {
			return err
		}
		d := &r.Details.MillionDetails
		d.MillionBaselineInvoices = int(b.created.Load()) + n
		d.MillionFeedDepth["baseline"] = int64(n * 8 / 9)
		var err error
		if m.base, err = b.readLatencies(ctx, deep, d.MillionFeedDepth["baseline"]); err != nil {
			return fmt.Errorf("the reads at the baseline: %w", err)
		}
		return nil
	}
}

// history seals the rest of every history and closes the books where it
// lies, then waits until the manager and the adapter have taken it in.
func (m *millionRun) history(b *bench) func(context.Context, *Report) error {
	return func(ctx context.Context, r *Report) error {
		d := &r.Details.MillionDetails
		t := time.Now()
		for i, h := range m.histories {
			if err := b.extend(ctx, h, m.plan.history[i]); err != nil {
				return err
			}
			b.logf("Sealed history of %s: %d invoices in %d seals", h.ns, h.families, h.seals)
		}
		d.MillionHistoryS = time.Since(t).Seconds()
		for _, h := range m.histories {
			if err := b.admin.Create(ctx, &billingv1.PeriodClose{
				ObjectMeta: metav1.ObjectMeta{Namespace: h.ns, Name: "history"},
				Spec:       billingv1.PeriodCloseSpec{Through: h.through.Format(time.RFC3339)},
			}); err != nil {
				return fmt.Errorf("closing the books of %s: %w", h.ns, err)
			}
		}
		if err := b.awaitHistory(ctx, m.histories); err != nil {
			return err
		}
		d.MillionTakenS = time.Since(t).Seconds()
		b.created.Add(int64(d.MillionGenerated))
		for _, h := range m.histories {
			d.MillionSeals += int(h.seals)
		}
		return nil
	}
}

// live creates the open invoices in the history workspaces and the month
// to seal, each issued (and the month paid) by the manager.
func (m *millionRun) live(b *bench) func(context.Context, *Report) error {
	return func(ctx context.Context, r *Report) error {
		d := &r.Details.MillionDetails
		var err error
		if d.MillionFillCreatedPerSec, d.MillionFillIssuedPerSec, err = b.fill(ctx, historyWorkspaces,
			m.plan.live); err != nil {
			return err
		}
		if err := b.settledFamilies(ctx, monthWorkspace, m.plan.month); err != nil {
			return err
		}
		b.created.Add(int64(m.plan.month))
		return nil
	}
}

// issueAndSeal runs a round of measurement 4 at full size, then seals the
// month while another round runs.
func (m *millionRun) issueAndSeal(b *bench) func(context.Context, *Report) error {
	return func(ctx context.Context, r *Report) error {
		d := &r.Details.MillionDetails
		run := &controllerRun{wait: apfWait{}}
		err := b.whileProfiling(ctx, apiServerProfileSecs, func() error {
			return b.controllerRound(ctx, controllerWorkspace, m.plan.round, false, false, run)
		}, apiServer("million-apiserver-issuing", 0))
		if err != nil {
			return err
		}
		d.MillionRates["issue_created"], d.MillionRates["issue_issued"], r.IssueRatio = run.rates()
		var s sealingRun
		err = b.whileProfiling(ctx, apiServerProfileSecs, func() (err error) {
			s, err = b.sealWhileIssuing(ctx, monthWorkspace, m.plan.month, m.plan.round)
			return err
		}, apiServer("million-apiserver-sealing", sealingProfileAfter))
		if err != nil {
			return err
		}
		b.created.Add(int64(2 * m.plan.round))
		// The million's own key: Report's IssueRatioWhileSealing is
		// measurement 10's.
		m := &r.Million
		r.SealRecordsPerSec, m.IssueRatioWhileSealing = s.recordsPerSec, s.ratio
		d.MillionRates["sealing_created"], d.MillionRates["sealing_issued"] = s.created, s.issued
		d.MillionSeals += s.seals
		// What the manager still writes after issuing ends before memory
		// and reads are measured.
		return b.awaitSettled(ctx, 10*time.Minute, append([]string{controllerWorkspace, monthWorkspace},
			historyWorkspaces...)...)
	}
}

// millionMemory reads every process's resident memory and takes heap
// profiles of the manager and the adapter.
func (b *bench) millionMemory(ctx context.Context, r *Report) error {
	time.Sleep(5 * time.Second) // let the garbage of the load be collected
	if err := b.readMillionMemory(ctx, r); err != nil {
		return err
	}
	if !b.cfg.Profile {
		return nil
	}
	for _, p := range []struct {
		proc         *process
		binary, name string
	}{{b.adapter, b.cfg.Adapter, "million-adapter-heap"}, {b.manager, b.cfg.Manager, "million-manager-heap"}} {
		if err := b.heapProfile(ctx, p.proc, p.binary, p.name); err != nil {
			return err
		}
	}
	return nil
}

// reads reads at full size what baseline read, and compares.
func (m *millionRun) reads(b *bench) func(context.Context, *Report) error {
	return func(ctx context.Context, r *Report) error {
		d := &r.Details.MillionDetails
		d.MillionFeedDepth["full"] = m.plan.feedDepth
		var full map[string]result
		err := b.whileProfiling(ctx, readsProfileSecs, func() (err error) {
			full, err = b.readLatencies(ctx, m.histories[0], m.plan.feedDepth)
			return err
		}, profiled{proc: b.adapter, binary: b.cfg.Adapter, name: "million-adapter-reads"})
		if err != nil {
			return fmt.Errorf("the reads at full size: %w", err)
		}
		for name, at := range full {
			l := pageLatencies{BaselineP50: m.base[name].percentileMs(0.5), BaselineP99: m.base[name].percentileMs(0.99),
				P50: at.percentileMs(0.5), P99: at.percentileMs(0.99)}
			d.MillionPages[name] = l
			if name == sealedGet {
				r.SealedGetP99Ms = l.P99
				continue
			}
			d.MillionPageRatios[name] = ratio(l.P99, l.BaselineP99)
			r.PageP99Ratio = max(r.PageP99Ratio, d.MillionPageRatios[name])
		}
		d.MillionPageSamples = len(full[sealedGet].latencies)
		return nil
	}
}

// millionRestart restarts the manager and the adapter, the API server up,
// and reads their resident memory once they are ready.
func (b *bench) millionRestart(ctx context.Context, r *Report) error {
	b.stopBinaries()
	b.logSuffix = "-million"
	if err := b.launchBinaries(ctx, b.kubeconfig); err != nil {
		return err
	}
	var ready [3]time.Duration
	err := b.whileProfiling(ctx, restartProfileSecs, func() (err error) {
		ready, err = b.awaitReady(ctx, b.startedAt, millionReadyTimeout)
		return err
	}, profiled{proc: b.adapter, binary: b.cfg.Adapter, name: "million-adapter-restart"},
		profiled{proc: b.manager, binary: b.cfg.Manager, name: "million-manager-restart"})
	if err != nil {
		return err
	}
	r.ManagerReadyS, r.AdapterReadyS = ready[0].Seconds(), ready[1].Seconds()
	b.logf("Restarted at %d invoices: manager ready after %.1f s, adapter %.1f s (serving %.1f s)",
		b.created.Load(), ready[0].Seconds(), ready[1].Seconds(), ready[2].Seconds())
	time.Sleep(5 * time.Second)
	d := &r.Details.MillionDetails
	d.MillionRSSAfterRestart = map[string]int64{}
	if d.MillionRSSAfterRestart["manager"], err = b.manager.rss(); err != nil {
		return err
	}
	d.MillionRSSAfterRestart["adapter"], err = b.adapter.rss()
	return err
}

// millionEtcd compacts and defragments etcd and reads its database's size.
func (b *bench) millionEtcd(ctx context.Context, r *Report) error {
	var err error
	if r.Details.MillionEtcdBeforeDefrag, err = b.plane.usage(ctx); err != nil {
		return err
	}
	if err := b.plane.compactAndDefragment(ctx); err != nil {
		return err
	}
	after, err := b.plane.usage(ctx)
	if err != nil {
		return err
	}
	r.EtcdDBBytes = after.EtcdDB
	r.Details.MillionPlane["defragmented"] = after
	return nil
}

// millionReadyTimeout is how long the million's restart waits for the
// binaries to be ready: how long they take is a figure of the run
// (million_*_ready_s), not a reason to end it.
const millionReadyTimeout = 45 * time.Minute

// The CPU profiles of the million: the first seconds of the manager's and
// the adapter's restart, the adapter's of the reads at full size.
const (
	restartProfileSecs = 60
	readsProfileSecs   = 30
	// The API server's, of the first seconds of the round at full size
	// and of the sealing once its first seal's originals are deleted.
	apiServerProfileSecs = 20
)

// sealingProfileAfter is how long into the sealing the API server's
// profile starts: past the close and the first seal's read and labels.
const sealingProfileAfter = 30 * time.Second

// profiled is a process whose CPU profile a step takes (the API server's
// when proc is nil), and the name the profile is saved as.
type profiled struct {
	proc         *process
	binary, name string
	// after is how long into the step the profile starts.
	after time.Duration
}

// apiServer names the API server's CPU profile of a step, from after into
// it.
func apiServer(name string, after time.Duration) profiled { return profiled{name: name, after: after} }

// whileProfiling runs do while it takes a CPU profile of secs seconds of
// each of procs (when the run takes profiles), each from as soon as the
// process serves its profiles, and waits for all of them.
func (b *bench) whileProfiling(ctx context.Context, secs int, do func() error, procs ...profiled) error {
	if !b.cfg.Profile {
		return do()
	}
	done := make(chan error, len(procs))
	for _, p := range procs {
		go func() {
			select {
			case <-ctx.Done():
				done <- ctx.Err()
				return
			case <-time.After(p.after):
			}
			if p.proc == nil {
				done <- b.apiServerProfile(ctx, p.name, secs)
				return
			}
			// A process just started opens its profiles' listener first.
			if _, err := b.awaitProbe(ctx, "http://"+p.proc.pprof+"/debug/pprof/", time.Now(),
				time.Now().Add(time.Minute)); err != nil {
				done <- err
				return
			}
			done <- b.profile(ctx, p.proc, p.binary, p.name, secs)
		}()
	}
	errs := []error{do()}
	for range procs {
		errs = append(errs, <-done)
	}
	return errors.Join(errs...)
}

// readMillionMemory reads the four processes' resident memory.
func (b *bench) readMillionMemory(ctx context.Context, r *Report) error {
	m := &r.Million
	var err error
	if m.AdapterRSS, err = b.adapter.rss(); err != nil {
		return err
	}
	if m.ManagerRSS, err = b.manager.rss(); err != nil {
		return err
	}
	p, err := b.plane.usage(ctx)
	if err != nil {
		return err
	}
	r.Details.MillionPlane["full"] = p
	m.APIServerRSS, m.EtcdRSS = p.APIServerRSS, p.EtcdRSS
	m.TotalRSS = m.AdapterRSS + m.ManagerRSS + m.APIServerRSS + m.EtcdRSS
	m.OursRSS = m.AdapterRSS + m.ManagerRSS
	m.LiveObjects, err = b.liveObjects(ctx)
	return err
}

// liveObjects counts the objects of each kind of the record table across
// the workspaces, listing their metadata a page at a time.
func (b *bench) liveObjects(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	for _, k := range recordkind.All {
		next := ""
		for {
			list := &metav1.PartialObjectMetadataList{}
			list.SetGroupVersionKind(billingv1.GroupVersion.WithKind(k.Name + "List"))
			if err := b.admin.List(ctx, list, client.Limit(5000), client.Continue(next)); err != nil {
				return nil, fmt.Errorf("counting the live %ss: %w", k.Name, err)
			}
			out[k.Name] += int64(len(list.Items))
			if next = list.Continue; next == "" {
				break
			}
		}
	}
	return out, nil
}

// awaitHistory waits until the manager has recorded the ledger.sealed
// event of every seal of the histories, and the adapter serves each
// history's newest sealed invoice.
func (b *bench) awaitHistory(ctx context.Context, histories []*history) error {
	deadline := time.Now().Add(30 * time.Minute)
	for _, h := range histories {
		for {
			var seals billingv1.LedgerSealList
			if err := b.admin.List(ctx, &seals, client.InNamespace(h.ns)); err != nil {
				return err
			}
			recorded := 0
			for i := range seals.Items {
				if billingv1.FindEvent(seals.Items[i].Status.Events, billingv1.EventTypeLedgerSealed) != nil {
					recorded++
				}
			}
			served := false
			if h.newest != "" {
				_, _, err := b.api.GetInvoice(ctx, h.newest, v1client.Workspace(h.ns))
				served = err == nil
			}
			if recorded == len(seals.Items) && int64(recorded) >= h.seals && served {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s: %d of %d seals recorded, newest invoice served %t after 30 minutes",
					h.ns, recorded, h.seals, served)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
	return nil
}

// sealedGet names the sealed gets among readLatencies' results.
const sealedGet = "sealed_get"

// readLatencies reads, from the adapter, pages of h's workspace (the
// whole workspace, its customer's, paid ones, and the feed of issued
// invoices after feedDepth) and gets of its sealed invoices, and returns
// each kind's latencies.
func (b *bench) readLatencies(ctx context.Context, h *history, feedDepth int64) (map[string]result, error) {
	const samples = 300
	ws := v1client.Workspace(h.ns)
	kinds := map[string]func(ctx context.Context, i int) error{
		"feed": func(ctx context.Context, _ int) error {
			after := max(0, feedDepth-rand.Int64N(1_000)) //nolint:gosec // a place, not a secret
			_, _, err := b.api.ListInvoiceIDs(ctx, v1client.ListParams{Limit: 100, Status: "issued", Order: "sequence",
				AfterSequence: &after}, ws)
			return err
		},
		sealedGet: func(ctx context.Context, _ int) error {
			_, _, err := b.api.GetInvoice(ctx, h.sample[rand.IntN(len(h.sample))], ws) //nolint:gosec // not a secret
			return err
		},
	}
	for name, p := range map[string]v1client.ListParams{"workspace": {}, "customer": {CustomerID: customer},
		"paid": {PaymentStatus: string(billingv1.InvoicePaymentPaid)}} {
		op, err := b.pageAt(ctx, h.ns, p)
		if err != nil {
			return nil, fmt.Errorf("walking the %s pages: %w", name, err)
		}
		kinds[name] = op
	}
	out := map[string]result{}
	for name, op := range kinds {
		res, err := b.parallelWith(ctx, 4, samples, op)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = res
	}
	return out, nil
}

// pageAt returns an operation that reads a page of 100 of the list p
// selects in ns, the i-th call the page after the (i mod 30)-th cursor of
// a walk of the list's first pages (the first page when there is none).
func (b *bench) pageAt(ctx context.Context, ns string, p v1client.ListParams) (func(ctx context.Context, i int) error,
	error) {
	ws := v1client.Workspace(ns)
	p.Limit = 100
	cursors := []string{""}
	for len(cursors) < 30 {
		q := p
		q.Cursor = cursors[len(cursors)-1]
		_, next, err := b.api.ListInvoiceIDs(ctx, q, ws)
		if err != nil {
			return nil, err
		}
		if next == "" {
			break
		}
		cursors = append(cursors, next)
	}
	return func(ctx context.Context, i int) error {
		q := p
		q.Cursor = cursors[i%len(cursors)]
		_, _, err := b.api.ListInvoiceIDs(ctx, q, ws)
		return err
	}, nil
}
