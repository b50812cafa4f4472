/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package main

import (
	"fmt"
	"io"
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
	printf(w, "2. get (invoices/s)\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t\n",
		r.GetAdapterPerSec, r.GetDirectPerSec, r.GetRatio, d.GetP50Ms, r.GetP99Ms, d.GetDirP50Ms, d.GetDirP99Ms)
	printf(w, "3. list, pages of 100 (invoices/s)\t%.0f\t%.0f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t\n",
		r.ListAdapterPerSec, r.ListDirectPerSec, r.ListRatio, d.PageP50Ms, d.PageP99Ms, d.PageDirP50Ms, d.PageDirP99Ms)
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
	printf(out, "\nAdapter CPU: %.2f s per 1,000 creates (%.1f s during measurement 1's adapter rounds)\n",
		r.AdapterCPUPer1000Creates, d.AdapterCPUSecondsCreate)
	printf(out, "\n5. memory (VmRSS growth per invoice): adapter %.0f B (%.0f -> %.0f MiB), controller %.0f B (%.0f -> %.0f MiB)\n",
		r.AdapterBytesPerInvoice, mib(d.AdapterRSS0), mib(d.AdapterRSS),
		r.ControllerBytesPerInvoice, mib(d.ManagerRSS0), mib(d.ManagerRSS))
	printf(out, "\nTook %.0f s.\n", d.Seconds)
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

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func printf(w io.Writer, format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) }
