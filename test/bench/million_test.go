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
	"math"
	"testing"

	. "github.com/onsi/gomega"
)

// millionKeys are the report.json keys of measurement 11 that the issue
// on a million invoices pins.
var millionKeys = []string{
	"million_total_rss_bytes", "million_apiserver_rss_bytes", "million_etcd_rss_bytes",
	"million_manager_rss_bytes", "million_adapter_rss_bytes", "million_ours_rss_bytes",
	"million_manager_ready_s", "million_adapter_ready_s",
	"million_issue_ratio", "million_issue_ratio_while_sealing",
	"seal_records_per_s",
	"million_sealed_get_p99_ms", "million_page_p99_ratio",
	"million_etcd_db_bytes",
}

// TestSmallMillionRunWritesEveryKey runs measurement 11 (`make bench
// BENCH_ONLY=million`) at 10,000 invoices against freshly built binaries,
// so that the measurement at a million cannot rot: it must build the
// installation (generated seals, live invoices, a month sealed by the
// manager) and write every key. It checks no figure against a target.
func TestSmallMillionRunWritesEveryKey(t *testing.T) {
	g := NewWithT(t)
	got, data := smokeReport(t, g, func(c *Config) {
		c.MillionInvoices, c.Only = 10_000, []string{"million"}
	})
	for _, key := range millionKeys {
		v, ok := got[key].(float64)
		g.Expect(ok).To(BeTrue(), "report.json has no number %s: %s", key, data)
		g.Expect(v > 0 && !math.IsInf(v, 0)).To(BeTrue(), "%s is %v", key, v)
	}
	// The live objects are counted by kind: the live and open invoices
	// (with the baseline's and the warm-up's), the sealed ones not.
	live, ok := got["million_live_objects"].(map[string]any)
	g.Expect(ok).To(BeTrue(), "report.json has no million_live_objects by kind: %s", data)
	g.Expect(live).To(HaveKeyWithValue("Invoice", BeNumerically(">=", 500)))
	g.Expect(live).To(HaveKeyWithValue("Invoice", BeNumerically("<", 8_000)))
	g.Expect(live).To(HaveKey("LedgerSeal"))
	// The installation holds what was planned: generated sealed history,
	// the month sealed by the manager, live open invoices.
	g.Expect(got["details"]).To(And(
		HaveKeyWithValue("million_invoices", BeNumerically("==", 10_000)),
		HaveKeyWithValue("million_generated_invoices", BeNumerically(">", 8_000)),
		HaveKeyWithValue("million_live_open_invoices", BeNumerically("==", 500)),
		HaveKeyWithValue("million_seals", BeNumerically(">=", 5))))
}
