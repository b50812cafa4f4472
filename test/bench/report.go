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

// report.json: the figures a run reports.

// Report is report.json: the ratios (adapter or controller over the
// Kubernetes API directly; higher is better), the p99s, the memory per
// invoice, and the per-second figures behind the ratios.
type Report struct {
	CreateRatio               float64 `json:"create_ratio"`
	GetRatio                  float64 `json:"get_ratio"`
	ListRatio                 float64 `json:"list_ratio"`
	ControllerRatio           float64 `json:"controller_ratio"`
	CreateP99Ms               float64 `json:"create_p99_ms"`
	GetP99Ms                  float64 `json:"get_p99_ms"`
	IssueLagP99Ms             float64 `json:"issue_lag_p99_ms"`
	AdapterBytesPerInvoice    float64 `json:"adapter_bytes_per_invoice"`
	ControllerBytesPerInvoice float64 `json:"controller_bytes_per_invoice"`

	CreateAdapterPerSec     float64 `json:"create_adapter_per_s"`
	CreateDirectPerSec      float64 `json:"create_direct_per_s"`
	GetAdapterPerSec        float64 `json:"get_adapter_per_s"`
	GetDirectPerSec         float64 `json:"get_direct_per_s"`
	ListAdapterPerSec       float64 `json:"list_adapter_invoices_per_s"`
	ListDirectPerSec        float64 `json:"list_direct_invoices_per_s"`
	ControllerIssuedPerSec  float64 `json:"controller_issued_per_s"`
	ControllerCreatedPerSec float64 `json:"controller_created_per_s"`

	// Measurement 3's walks with a client that decodes nothing: it reads
	// each page to the end and finds the next page's token by a search of
	// its bytes; invoices per second and their ratio.
	ListRawRatio         float64 `json:"list_raw_ratio"`
	ListRawAdapterPerSec float64 `json:"list_raw_adapter_invoices_per_s"`
	ListRawDirectPerSec  float64 `json:"list_raw_direct_invoices_per_s"`

	// Measurement 1 again, of invoices with a line that takes the
	// workspace's default tax (the adapter reads the BillingProfile).
	CreateRatioDefaultTax         float64 `json:"create_ratio_default_tax"`
	CreateDefaultTaxP99Ms         float64 `json:"create_default_tax_p99_ms"`
	CreateDefaultTaxAdapterPerSec float64 `json:"create_default_tax_adapter_per_s"`
	CreateDefaultTaxDirectPerSec  float64 `json:"create_default_tax_direct_per_s"`

	// Measurement 4 again, with the install's APF objects applied.
	ControllerRatioAPF         float64 `json:"controller_ratio_apf"`
	IssueLagP99MsAPF           float64 `json:"issue_lag_p99_ms_apf"`
	ControllerIssuedPerSecAPF  float64 `json:"controller_issued_per_s_apf"`
	ControllerCreatedPerSecAPF float64 `json:"controller_created_per_s_apf"`

	// Measurement 6: invoices created directly in one workspace, numbered
	// per second over created per second and the create-to-number p99;
	// then the controller's batched allocator alone over a naive one (one
	// number per round trip), numbers per second.
	NumberingRatio          float64 `json:"numbering_ratio"`
	NumberingLagP99Ms       float64 `json:"numbering_lag_p99_ms"`
	NumberingCreatedPerSec  float64 `json:"numbering_created_per_s"`
	NumberingNumberedPerSec float64 `json:"numbering_numbered_per_s"`
	BatchedNumbersPerSec    float64 `json:"batched_numbers_per_s"`
	NaiveNumbersPerSec      float64 `json:"naive_numbers_per_s"`
	BatchedOverNaive        float64 `json:"batched_over_naive"`

	// Measurement 7: the adapter's creates while a noisy neighbour writes,
	// rate over the quiet round's rate, and the p99s, without and with APF.
	NoisyRateRatio      float64 `json:"noisy_create_rate_ratio"`
	NoisyRateRatioAPF   float64 `json:"noisy_create_rate_ratio_apf"`
	NoisyCreateP99Ms    float64 `json:"noisy_create_p99_ms"`
	NoisyCreateP99MsAPF float64 `json:"noisy_create_p99_ms_apf"`
	QuietCreateP99Ms    float64 `json:"quiet_create_p99_ms"`
	QuietCreateP99MsAPF float64 `json:"quiet_create_p99_ms_apf"`

	// Measurement 8: the time from an invoice's create until its
	// invoice.issued event is read from GET /v1/events (eventlag.go).
	EventLagP50Ms float64 `json:"event_lag_p50_ms"`
	EventLagP99Ms float64 `json:"event_lag_p99_ms"`
	// Measurement 8's paced round, invoices created at half the rate at
	// which its full-rate round issued: the p99 from create to Issued and
	// to the invoice.issued event.
	IssueLagP99MsHalfRate float64 `json:"issue_lag_p99_ms_half_rate"`
	EventLagP99MsHalfRate float64 `json:"event_lag_p99_ms_half_rate"`

	// The adapter process's CPU time (user and system) during its creates
	// of measurement 1, per 1,000 creates.
	AdapterCPUPer1000Creates float64 `json:"adapter_cpu_s_per_1000_creates"`

	// Measurement 10 (sealing.go): records (invoices and their payments)
	// sealed per second, from the PeriodClose's create until no invoice of
	// the workspace is live; and the issue ratio of measurement 4's round
	// run meanwhile in another workspace.
	SealRecordsPerSec      float64 `json:"seal_records_per_s"`
	IssueRatioWhileSealing float64 `json:"issue_ratio_while_sealing"`

	// Measurement 12 (schedules.go), with the install's APF objects, as
	// installed: invoices issued per second when as many InvoiceSchedules
	// as measurement 1 has invoices come due at one moment, from that
	// moment to the last Issued; and the creates per second of other
	// clients of the adapter meanwhile over theirs alone.
	ScheduleIssuePerSec      float64 `json:"schedule_issue_per_s"`
	ScheduleOtherCreateRatio float64 `json:"schedule_other_create_ratio"`

	// Measurement 13 (banking.go): lines of one imported bank statement
	// matched per second against as many open invoices, from the import's
	// request to the last line Matched.
	BankMatchPerSec float64 `json:"bank_match_per_s"`

	Scale
	Million
	Details Details `json:"details"`
	path    string
}

// Details are the rest of what was measured, for reading the figures.
type Details struct {
	// Measurement 12: how many schedules came due at once, and each
	// variant's figures ("without_apf", "with_apf").
	Schedules    int                    `json:"schedules,omitempty"`
	ScheduleRuns map[string]scheduleRun `json:"schedule_runs,omitempty"`
	// Measurement 13: the statement's lines, and how long its import
	// took to answer.
	BankLines         int     `json:"bank_lines,omitempty"`
	BankImportSeconds float64 `json:"bank_import_seconds,omitempty"`
	// Measurement 10's round: created and issued per second, and the
	// seals made.
	SealingCreatedPerSec float64 `json:"sealing_created_per_s"`
	SealingIssuedPerSec  float64 `json:"sealing_issued_per_s"`
	Seals                int     `json:"seals"`

	Invoices int `json:"invoices"`
	// WatchCache is the kube-apiserver's --watch-cache at the start.
	WatchCache     bool    `json:"watch_cache"`
	Workers        int     `json:"workers"`
	MemoryInvoices int     `json:"memory_invoices"`
	Workspaces     int     `json:"memory_workspaces"`
	CreateP50Ms    float64 `json:"create_adapter_p50_ms"`
	CreateDirP50Ms float64 `json:"create_direct_p50_ms"`
	CreateDirP99Ms float64 `json:"create_direct_p99_ms"`
	// The p50 and the direct side's p50 and p99 of measurement 1's creates
	// with the default tax.
	CreateDefaultTaxP50Ms    float64 `json:"create_default_tax_adapter_p50_ms"`
	CreateDefaultTaxDirP50Ms float64 `json:"create_default_tax_direct_p50_ms"`
	CreateDefaultTaxDirP99Ms float64 `json:"create_default_tax_direct_p99_ms"`
	GetP50Ms                 float64 `json:"get_adapter_p50_ms"`
	GetDirP50Ms              float64 `json:"get_direct_p50_ms"`
	GetDirP99Ms              float64 `json:"get_direct_p99_ms"`
	PageP50Ms                float64 `json:"list_adapter_page_p50_ms"`
	PageP99Ms                float64 `json:"list_adapter_page_p99_ms"`
	PageDirP50Ms             float64 `json:"list_direct_page_p50_ms"`
	PageDirP99Ms             float64 `json:"list_direct_page_p99_ms"`
	// Measurement 3's walks again with every invoice of a page decoded
	// into its type on both sides (list_ratio's walks decode the ids only),
	// in invoices per second, and their ratio.
	ListTypedAdapterPerSec float64 `json:"list_typed_adapter_invoices_per_s"`
	ListTypedDirectPerSec  float64 `json:"list_typed_direct_invoices_per_s"`
	ListTypedRatio         float64 `json:"list_typed_ratio"`
	// The read barriers of measurement 3's last pages (read your writes
	// across replicas): barriers per second of the adapter's rounds, the
	// p50 and p99 of their time (the call for the API server's resource
	// version, then the wait for the informer; bucket upper bounds), and
	// the last pages read from the API server instead, by reason.
	BarriersPerSec   float64            `json:"list_barriers_per_s"`
	BarrierP50Ms     float64            `json:"list_barrier_p50_ms"`
	BarrierP99Ms     float64            `json:"list_barrier_p99_ms"`
	BarrierFallbacks map[string]float64 `json:"list_barrier_fallbacks"`
	// BarrierConfirmed are the last pages served from the cache after a
	// metadata-only read from the API server confirmed it, by reason.
	BarrierConfirmed map[string]float64 `json:"list_barrier_confirmed"`
	IssueLagP50Ms    float64            `json:"issue_lag_p50_ms"`
	IssueLagP50MsAPF float64            `json:"issue_lag_p50_ms_apf"`
	// Measurement 6's create-to-number p50, and each allocator's p99 per
	// number.
	NumberingLagP50Ms float64 `json:"numbering_lag_p50_ms"`
	BatchedP99Ms      float64 `json:"batched_number_p99_ms"`
	NaiveP99Ms        float64 `json:"naive_number_p99_ms"`
	// Measurement 7's invoices per variant and condition, its per-second
	// figures, and the neighbour's writers and writes per second.
	NoisyInvoices            int     `json:"noisy_invoices"`
	QuietPerSec              float64 `json:"quiet_create_per_s"`
	QuietPerSecAPF           float64 `json:"quiet_create_per_s_apf"`
	NoisyPerSec              float64 `json:"noisy_create_per_s"`
	NoisyPerSecAPF           float64 `json:"noisy_create_per_s_apf"`
	NeighbourWriters         int     `json:"neighbour_writers"`
	NeighbourWritesPerSec    float64 `json:"neighbour_writes_per_s"`
	NeighbourWritesPerSecAPF float64 `json:"neighbour_writes_per_s_apf"`
	// The API server's mean queue wait per priority level during
	// measurements 4 and 7, without and with APF objects.
	APFWait map[string]map[string]apfLevelWait `json:"apf_queue_wait"`
	// Measurement 4's CPU milliseconds per invoice of the manager, the
	// kube-apiserver and etcd, from each round's first create to its last
	// Issued, without and with APF objects: what issuing costs, which the
	// ratios (two rates that share two cores) show only through noise.
	ControllerCPUMsPerInvoice map[string]map[string]float64 `json:"controller_cpu_ms_per_invoice"`
	// The adapter's CPU seconds during measurement 1's adapter rounds.
	AdapterCPUSecondsCreate float64 `json:"adapter_cpu_seconds_create"`
	// Measurement 8's creates per second.
	EventLagCreatedPerSec float64 `json:"event_lag_created_per_s"`
	// Measurement 8's full-rate round's issued per second (the saturation
	// rate), its paced round's created per second (half that), and the
	// paced round's p50s from create to Issued and to the event.
	EventLagIssuedPerSec  float64 `json:"event_lag_issued_per_s"`
	HalfRateCreatedPerSec float64 `json:"half_rate_created_per_s"`
	IssueLagP50MsHalfRate float64 `json:"issue_lag_p50_ms_half_rate"`
	EventLagP50MsHalfRate float64 `json:"event_lag_p50_ms_half_rate"`
	AdapterRSS0           int64   `json:"adapter_rss_start_bytes"`
	AdapterRSS            int64   `json:"adapter_rss_bytes"`
	ManagerRSS0           int64   `json:"controller_rss_start_bytes"`
	ManagerRSS            int64   `json:"controller_rss_bytes"`
	Seconds               float64 `json:"seconds"`
	// Failed is the error a run ended with; its report holds what the
	// steps before measured.
	Failed string `json:"failed,omitempty"`
	ScaleDetails
	MillionDetails
}
