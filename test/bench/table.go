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

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
)

// PrintTable prints the report as a table: each pair side by side.
func (r *Report) PrintTable(out io.Writer) {
	d := r.Details
	printf(out, "\n%d invoices per measurement, %d workers per side; memory after %d invoices in %d workspaces\n\n",
		d.Invoices, d.Workers, d.MemoryInvoices, d.Workspaces)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	printf(w, "measurement\tadapter/controller\tKubernetes API\tratio\tp50 ms\tp99 ms\tdirect p50 ms\tdirect p99 ms\t\n")
	printf(w, "1. create (invoices/s)\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t\n",
		r.CreateAdapterPerSec, r.CreateDirectPerSec, r.CreateRatio, d.CreateP50Ms, r.CreateP99Ms,
		d.CreateDirP50Ms, d.CreateDirP99Ms)
	printf(w, "1. create, a line with the default tax\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t\n",
		r.CreateDefaultTaxAdapterPerSec, r.CreateDefaultTaxDirectPerSec, r.CreateRatioDefaultTax,
		d.CreateDefaultTaxP50Ms, r.CreateDefaultTaxP99Ms, d.CreateDefaultTaxDirP50Ms, d.CreateDefaultTaxDirP99Ms)
	printf(w, "2. get (invoices/s)\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t\n",
		r.GetAdapterPerSec, r.GetDirectPerSec, r.GetRatio, d.GetP50Ms, r.GetP99Ms, d.GetDirP50Ms, d.GetDirP99Ms)
	printf(w, "3. list, pages of 100 (invoices/s)\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t\n",
		r.ListAdapterPerSec, r.ListDirectPerSec, r.ListRatio, d.PageP50Ms, d.PageP99Ms, d.PageDirP50Ms, d.PageDirP99Ms)
	printf(w, "3. list, every invoice decoded\t%.0f\t%.0f\t%.2f\t\t\t\t\t\n",
		d.ListTypedAdapterPerSec, d.ListTypedDirectPerSec, d.ListTypedRatio)
	printf(w, "3. list, nothing decoded\t%.0f\t%.0f\t%.2f\t\t\t\t\t\n",
		r.ListRawAdapterPerSec, r.ListRawDirectPerSec, r.ListRawRatio)
	printf(w, "4. controller (issued vs. created/s)\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t\t\t\n",
		r.ControllerIssuedPerSec, r.ControllerCreatedPerSec, r.ControllerRatio, d.IssueLagP50Ms, r.IssueLagP99Ms)
	printf(w, "4. controller, with APF objects\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t\t\t\n",
		r.ControllerIssuedPerSecAPF, r.ControllerCreatedPerSecAPF, r.ControllerRatioAPF, d.IssueLagP50MsAPF,
		r.IssueLagP99MsAPF)
	printf(w, "6. numbering, one workspace (numbered vs. created/s)\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t\t\t\n",
		r.NumberingNumberedPerSec, r.NumberingCreatedPerSec, r.NumberingRatio, d.NumberingLagP50Ms, r.NumberingLagP99Ms)
	_ = w.Flush()
	printf(out, "   (controller p50/p99: time from create to Issued; numbering: to Issued with its number)\n")
	printf(out, "   6. allocators alone, numbers/s: batched %.0f (p99 %.1f ms), naive one per round trip %.0f (p99 %.1f ms): %.1fx\n",
		r.BatchedNumbersPerSec, d.BatchedP99Ms, r.NaiveNumbersPerSec, d.NaiveP99Ms, r.BatchedOverNaive)
	r.printNoisy(out)
	r.printEventLag(out)
	printf(out, "\n10. sealing: %.0f records/s (%d seals); issuing meanwhile %.0f issued vs. %.0f created/s: ratio %.2f "+
		"(4. with APF objects: %.2f)\n", r.SealRecordsPerSec, d.Seals, d.SealingIssuedPerSec, d.SealingCreatedPerSec,
		r.IssueRatioWhileSealing, r.ControllerRatioAPF)
	printf(out, "\n12. %d schedules due at one moment (invoices issued/s; other clients' creates/s meanwhile vs. alone)\n",
		d.Schedules)
	for _, variant := range []string{"without_apf", "with_apf"} {
		s := d.ScheduleRuns[variant]
		printf(out, "   %s: %.0f issued/s; other clients %.0f vs. %.0f creates/s: ratio %.2f\n", variant,
			s.IssuedPerSec, s.BusyCreatesPerSec, s.QuietCreatesPerSec, s.OtherCreateRatio)
	}
	printf(out, "\n13. a bank statement of %d lines against as many open invoices: %.0f lines matched/s "+
		"(the import answered in %.1f s)\n", d.BankLines, r.BankMatchPerSec, d.BankImportSeconds)
	printf(out, "\nAdapter CPU: %.2f s per 1,000 creates (%.1f s during measurement 1's adapter rounds)\n",
		r.AdapterCPUPer1000Creates, d.AdapterCPUSecondsCreate)
	printf(out, "\n5. memory (VmRSS growth per invoice): adapter %.0f B (%.0f -> %.0f MiB), controller %.0f B (%.0f -> %.0f MiB)\n",
		r.AdapterBytesPerInvoice, mib(d.AdapterRSS0), mib(d.AdapterRSS),
		r.ControllerBytesPerInvoice, mib(d.ManagerRSS0), mib(d.ManagerRSS))
	r.printScale(out)
	r.printMillion(out)
	printf(out, "\nTook %.0f s.\n", d.Seconds)
}

// printMillion prints measurement 11, when it ran.
func (r *Report) printMillion(out io.Writer) {
	d, m := r.Details.MillionDetails, r.Million
	if d.MillionInvoices == 0 {
		return
	}
	printf(out, "\n11. a million: %d invoices (%d generated and sealed in %d seals of %d families, a month of %d "+
		"sealed by the manager, %d live and open); history written in %.0f s, taken in by the binaries in %.0f s\n",
		d.MillionInvoices, d.MillionGenerated, d.MillionSeals, d.MillionPerSeal, d.MillionMonth, d.MillionLive,
		d.MillionHistoryS, d.MillionTakenS)
	printf(out, "   resident: %.0f MiB in all (API server %.0f, etcd %.0f, manager %.0f, adapter %.0f)\n",
		mib(m.TotalRSS), mib(m.APIServerRSS), mib(m.EtcdRSS), mib(m.ManagerRSS), mib(m.AdapterRSS))
	printf(out, "   ready after a restart, API server up: manager %.1f s, adapter %.1f s\n", m.ManagerReadyS, m.AdapterReadyS)
	printf(out, "   issue ratio %.2f (%.0f issued vs. %.0f created/s), while sealing %.2f; sealing %.0f records/s\n",
		m.IssueRatio, d.MillionRates["issue_issued"], d.MillionRates["issue_created"], m.IssueRatioWhileSealing,
		r.SealRecordsPerSec)
	printf(out, "   etcd database %.0f MiB after compaction and defragmentation (%.0f MiB before)\n",
		mib(m.EtcdDBBytes), mib(d.MillionEtcdBeforeDefrag.EtcdDB))
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	printf(w, "read\tp50 ms at %d\tp99 ms at %d\tp50 ms\tp99 ms\tp99 ratio\t\n", d.MillionBaselineInvoices,
		d.MillionBaselineInvoices)
	for _, name := range slices.Sorted(maps.Keys(d.MillionPages)) {
		l := d.MillionPages[name]
		printf(w, "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.2f\t\n", name, l.BaselineP50, l.BaselineP99, l.P50, l.P99,
			d.MillionPageRatios[name])
	}
	_ = w.Flush()
	printf(out, "   (feed pages after sequence %d at full size, %d at the baseline; the worst page ratio %.2f)\n",
		d.MillionFeedDepth["full"], d.MillionFeedDepth["baseline"], m.PageP99Ratio)
}

// printNoisy prints measurement 7: the adapter's creates, quiet and while
// the neighbour writes, without and with the APF objects.
func (r *Report) printNoisy(out io.Writer) {
	d := r.Details
	printf(out, "\n7. noisy neighbour: %d ConfigMap writers of another identity; %d adapter creates per cell\n\n",
		d.NeighbourWriters, d.NoisyInvoices)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	printf(w, "APF objects\tquiet/s\tnoisy/s\tratio\tquiet p99 ms\tnoisy p99 ms\tneighbour writes/s\t\n")
	printf(w, "without\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t%.0f\t\n", d.QuietPerSec, d.NoisyPerSec,
		r.NoisyRateRatio, r.QuietCreateP99Ms, r.NoisyCreateP99Ms, d.NeighbourWritesPerSec)
	printf(w, "with\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t%.0f\t\n", d.QuietPerSecAPF, d.NoisyPerSecAPF,
		r.NoisyRateRatioAPF, r.QuietCreateP99MsAPF, r.NoisyCreateP99MsAPF, d.NeighbourWritesPerSecAPF)
	_ = w.Flush()
}

// printScale prints the control plane's memory (measurement 5), the
// invoice's parts, and the restarts (measurement 9).
func (r *Report) printScale(out io.Writer) {
	d := r.Details
	printf(out, "   kube-apiserver %.0f B (%.0f -> %.0f MiB), etcd %.0f B (%.0f -> %.0f MiB), "+
		"etcd database %.0f B (%.0f -> %.0f MiB, %.0f MiB in use); filled at %.0f created/s, %.0f issued/s\n",
		r.APIServerBytesPerInvoice, mib(d.Plane0.APIServerRSS), mib(d.Plane.APIServerRSS),
		r.EtcdBytesPerInvoice, mib(d.Plane0.EtcdRSS), mib(d.Plane.EtcdRSS),
		r.EtcdDBBytesPerInvoice, mib(d.Plane0.EtcdDB), mib(d.Plane.EtcdDB), mib(d.Plane.EtcdDBInUse),
		d.FillCreatedPerSec, d.FillIssuedPerSec)
	if len(d.InvoiceJSON) > 0 {
		keys := slices.Sorted(maps.Keys(d.InvoiceJSON))
		printf(out, "   one issued invoice, bytes of JSON:")
		for _, k := range keys {
			printf(out, " %s %d", k, d.InvoiceJSON[k])
		}
		printf(out, "\n")
	}
	if len(d.Restarts) == 0 {
		return
	}
	printf(out, "\n9. restart at size (seconds until ready; API server until it serves a list of invoices)\n\n")
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	printf(w, "invoices\twatch cache\tAPI server start\tmanager, adapter after it\tmanager, adapter (serving), API server up\t"+
		"API server MiB\tetcd MiB\tkubectl get workspace s (rows)\t\n")
	for _, x := range d.Restarts {
		printf(w, "%d\t%t\t%.1f\t%.1f, %.1f\t%.1f, %.1f (%.1f)\t%.0f\t%.0f\t%.1f (%d)\t\n", x.Invoices, x.WatchCache,
			x.APIServerStartS, x.StackManagerReadyS, x.StackAdapterReadyS, x.ManagerReadyS, x.AdapterReadyS,
			x.AdapterServingS, mib(x.Plane.APIServerRSS), mib(x.Plane.EtcdRSS), x.KubectlGetS, x.KubectlRows)
	}
	_ = w.Flush()
	printf(out, "   at a million by a linear fit: manager %.0f s, adapter %.0f s (serving %.1f s), API server %.0f s\n",
		r.ManagerReadyAfterRestart1MS, r.AdapterReadyAfterRestart1MS, r.AdapterServingAfterRestart1MS,
		r.APIServerStart1MS)
	printf(out, "   API server per invoice after the restart: %.0f B with the watch cache, %.0f B without\n",
		r.APIServerBytesPerInvoiceAfterRestart, r.APIServerBytesPerInvoiceNoWatchCache)
	printf(out, "   at %d invoices, watch cache on / off: create ratio %.2f / %.2f, controller ratio %.2f / %.2f\n",
		d.ReducedInvoices, r.CreateRatioWatchCache, r.CreateRatioNoWatchCache,
		r.ControllerRatioWatchCache, r.ControllerRatioNoWatchCache)
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func printf(w io.Writer, format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) }
