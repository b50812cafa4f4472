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
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/test/binaries"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// smokeInvoices is the size of each measurement in make test's smoke
// runs: enough for every measurement to have something to count, a
// third of `make bench BENCH_SMALL=1`'s 1,000, which took 19 of make
// test's minutes (it filled 26,000 invoices by its restart).
const smokeInvoices = 300

// TestSmallBenchmarkWritesACompleteReport runs the benchmark at
// smokeInvoices against freshly built binaries, so that the benchmark
// cannot rot: it must measure every pair and write every key of
// report.json. It checks no figure against a target: a benchmark run is
// not a test.
func TestSmallBenchmarkWritesACompleteReport(t *testing.T) {
	g := NewWithT(t)
	got, data := smokeReport(t, g, func(*Config) {})
	for _, key := range []string{
		"create_ratio", "get_ratio", "list_ratio", "controller_ratio",
		"create_ratio_default_tax", "create_default_tax_p99_ms",
		"create_default_tax_adapter_per_s", "create_default_tax_direct_per_s",
		"create_p99_ms", "get_p99_ms", "issue_lag_p99_ms",
		"adapter_bytes_per_invoice", "controller_bytes_per_invoice",
		"create_adapter_per_s", "create_direct_per_s", "get_adapter_per_s", "get_direct_per_s",
		"list_adapter_invoices_per_s", "list_direct_invoices_per_s",
		"list_raw_ratio", "list_raw_adapter_invoices_per_s", "list_raw_direct_invoices_per_s",
		"controller_issued_per_s", "controller_created_per_s",
		"controller_ratio_apf", "issue_lag_p99_ms_apf", "controller_issued_per_s_apf", "controller_created_per_s_apf",
		"noisy_create_rate_ratio", "noisy_create_rate_ratio_apf", "noisy_create_p99_ms", "noisy_create_p99_ms_apf",
		"quiet_create_p99_ms", "quiet_create_p99_ms_apf",
		"adapter_cpu_s_per_1000_creates",
		"issue_lag_p99_ms_half_rate", "event_lag_p99_ms_half_rate",
		"numbering_ratio", "numbering_lag_p99_ms", "numbering_created_per_s", "numbering_numbered_per_s",
		"batched_numbers_per_s", "naive_numbers_per_s", "batched_over_naive",
		"etcd_db_bytes_per_invoice", "apiserver_start_s", "adapter_ready_after_restart_s", "manager_ready_after_restart_s",
		"adapter_serving_after_restart_s",
		"create_ratio_watch_cache", "create_ratio_no_watch_cache",
		"controller_ratio_watch_cache", "controller_ratio_no_watch_cache",
		"kubectl_get_workspace_s", "kubectl_get_workspace_s_no_watch_cache",
		"seal_records_per_s", "issue_ratio_while_sealing",
		"schedule_issue_per_s", "schedule_other_create_ratio",
	} {
		v, ok := got[key].(float64)
		g.Expect(ok).To(BeTrue(), "report.json has no number %s: %s", key, data)
		g.Expect(v > 0 && !math.IsInf(v, 0)).To(BeTrue(), "%s is %v", key, v)
	}
	// Differences of resident memory: at the smoke size they may come out
	// below zero, so only their presence is checked.
	for _, key := range []string{
		"apiserver_bytes_per_invoice", "apiserver_bytes_per_invoice_after_restart",
		"apiserver_bytes_per_invoice_no_watch_cache", "etcd_bytes_per_invoice",
	} {
		g.Expect(got).To(HaveKeyWithValue(key, BeAssignableToTypeOf(0.0)))
	}
	// Measurement 9 restarts once at the size reached with the watch cache
	// and once without.
	g.Expect(got["details"]).To(HaveKeyWithValue("restarts", HaveLen(2)))
	for _, key := range []string{"controller_ratio", "controller_ratio_apf", "numbering_ratio"} {
		g.Expect(got[key]).To(BeNumerically("<=", 1.01), "%s: more invoices issued than created", key)
	}
	// With the objects applied, the API server put the manager's and the
	// adapter's requests into the install's priority levels.
	g.Expect(got["details"]).To(HaveKeyWithValue("apf_queue_wait", And(
		HaveKeyWithValue("controller_apf", HaveKey("invoicing-manager")),
		HaveKeyWithValue("noisy_apf", HaveKey("invoicing-adapter")),
		HaveKeyWithValue("noisy", Not(HaveKey("invoicing-adapter"))))))
	// Measurement 5 filled every fill workspace with a measurement's
	// size, after the invoices the others made.
	g.Expect(got["details"]).To(HaveKeyWithValue("memory_invoices", BeNumerically(">=", float64(workspaces*smokeInvoices))))
}

// smokeReport runs the benchmark at its smoke size (smokeInvoices, 16
// workers), with edit applied to its configuration, against freshly built
// binaries, prints its table, and returns report.json, decoded and as it
// was written.
func smokeReport(t *testing.T, g Gomega, edit func(*Config)) (map[string]any, []byte) {
	assets := testenv.Require(t)
	root := testenv.ModuleRoot()
	bins := t.TempDir()
	g.Expect(binaries.BuildPlain(t.Context(), bins, map[string]string{"manager": "./cmd", "adapter": "./cmd/adapter"})).To(Succeed())
	c := Config{
		Assets:   assets,
		CRDs:     filepath.Join(root, "config", "crd", "bases"),
		Install:  filepath.Join(root, "config", "default"),
		Manager:  filepath.Join(bins, "manager"),
		Adapter:  filepath.Join(bins, "adapter"),
		OutDir:   t.TempDir(),
		Invoices: smokeInvoices,
		Workers:  16,
		Log:      t.Output(),
	}
	edit(&c)
	report, err := Run(t.Context(), c)
	g.Expect(err).NotTo(HaveOccurred())
	report.PrintTable(t.Output())
	data, err := os.ReadFile(filepath.Join(c.OutDir, "report.json"))
	g.Expect(err).NotTo(HaveOccurred())
	var got map[string]any
	g.Expect(json.Unmarshal(data, &got)).To(Succeed())
	return got, data
}
