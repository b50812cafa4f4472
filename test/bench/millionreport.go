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

// report.json's figures of the million-invoice measurement (million.go),
// embedded in Report and Details so that their keys sit beside the others.

// Million are the figures at a million invoices.
type Million struct {
	// Resident memory of the four processes together and of each, once
	// the installation holds every invoice and the month is sealed, the
	// API server with its watch cache.
	TotalRSS     int64 `json:"million_total_rss_bytes"`
	APIServerRSS int64 `json:"million_apiserver_rss_bytes"`
	EtcdRSS      int64 `json:"million_etcd_rss_bytes"`
	ManagerRSS   int64 `json:"million_manager_rss_bytes"`
	AdapterRSS   int64 `json:"million_adapter_rss_bytes"`
	// OursRSS is the adapter's and the manager's together: what this
	// project's own processes hold (target: under 1.5 GB at a million).
	OursRSS int64 `json:"million_ours_rss_bytes"`
	// LiveObjects counts the objects the API server holds of each kind of
	// the record table (internal/recordkind), across the workspaces, at
	// the same moment: what the live set is made of.
	LiveObjects map[string]int64 `json:"million_live_objects"`
	// Seconds until the manager's and the adapter's /readyz answer after a
	// restart of both, the API server up.
	ManagerReadyS float64 `json:"million_manager_ready_s"`
	AdapterReadyS float64 `json:"million_adapter_ready_s"`
	// Issued over created per second, a round of measurement 4 at full
	// size, and another while a month is being sealed.
	IssueRatio             float64 `json:"million_issue_ratio"`
	IssueRatioWhileSealing float64 `json:"million_issue_ratio_while_sealing"`
	// GET /v1/invoices/{id} of sealed invoices, p99; the worst of the
	// list pages' p99s over their p99 at the baseline size.
	SealedGetP99Ms float64 `json:"million_sealed_get_p99_ms"`
	PageP99Ratio   float64 `json:"million_page_p99_ratio"`
	// etcd's database after a compaction and a defragmentation.
	EtcdDBBytes int64 `json:"million_etcd_db_bytes"`
}

// MillionDetails are the rest of the million-invoice measurement.
type MillionDetails struct {
	// Invoices in the installation, of them sealed (generated, and the
	// month the manager sealed) and live and open; the seals; the
	// families per generated seal.
	MillionInvoices  int `json:"million_invoices"`
	MillionGenerated int `json:"million_generated_invoices"`
	MillionMonth     int `json:"million_month_invoices"`
	MillionLive      int `json:"million_live_open_invoices"`
	MillionSeals     int `json:"million_seals"`
	MillionPerSeal   int `json:"million_families_per_generated_seal"`
	// Seconds the generated history took to write, and until the manager
	// had recorded every seal's ledger.sealed and the adapter served the
	// last invoice of each workspace.
	MillionHistoryS float64 `json:"million_history_s"`
	MillionTakenS   float64 `json:"million_history_taken_s"`
	// The fill of the live invoices and the month: created and issued per
	// second.
	MillionFillCreatedPerSec float64 `json:"million_fill_created_per_s"`
	MillionFillIssuedPerSec  float64 `json:"million_fill_issued_per_s"`
	// The rounds behind the issue ratios, per second, and their invoices.
	MillionRoundInvoices int                `json:"million_round_invoices"`
	MillionRates         map[string]float64 `json:"million_rates_per_s"`
	// The p50 and p99 of each page and of the sealed gets, at the baseline
	// size and at full size, in ms; the baseline's invoices and the
	// feed's depth at each.
	MillionBaselineInvoices int                      `json:"million_baseline_invoices"`
	MillionPages            map[string]pageLatencies `json:"million_pages_ms"`
	MillionFeedDepth        map[string]int64         `json:"million_feed_depth"`
	MillionPlane            map[string]planeUsage    `json:"million_control_plane"`
	MillionRSSAfterRestart  map[string]int64         `json:"million_rss_after_restart_bytes"`
	MillionSteps            map[string]float64       `json:"million_step_s"`
	MillionPageSamples      int                      `json:"million_page_samples"`
	MillionEtcdBeforeDefrag planeUsage               `json:"million_etcd_before_defragment"`
	MillionPageRatios       map[string]float64       `json:"million_page_p99_ratios"`
}

// pageLatencies are one kind of request's p50 and p99, at the baseline
// and at full size.
type pageLatencies struct {
	BaselineP50 float64 `json:"baseline_p50"`
	BaselineP99 float64 `json:"baseline_p99"`
	P50         float64 `json:"p50"`
	P99         float64 `json:"p99"`
}
