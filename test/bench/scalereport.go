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

// report.json's figures at size: memory per invoice in the control plane
// (measurement 5), restarts and the API server without its watch cache
// (measurement 9). Embedded in Report and Details, so their keys sit
// beside the others.

// Scale are the figures at size.
type Scale struct {
	// Measurement 5: VmRSS growth per invoice of the kube-apiserver and
	// etcd, and the growth of etcd's database, over the invoices in the
	// cluster.
	APIServerBytesPerInvoice float64 `json:"apiserver_bytes_per_invoice"`
	EtcdBytesPerInvoice      float64 `json:"etcd_bytes_per_invoice"`
	EtcdDBBytesPerInvoice    float64 `json:"etcd_db_bytes_per_invoice"`

	// Measurement 9, at its largest size: the API server's VmRSS over
	// its VmRSS after a restart with no invoices, per invoice, once the manager and the adapter
	// are ready after a restart of the API server, with its watch cache
	// and without (--watch-cache=false).
	APIServerBytesPerInvoiceAfterRestart float64 `json:"apiserver_bytes_per_invoice_after_restart"`
	APIServerBytesPerInvoiceNoWatchCache float64 `json:"apiserver_bytes_per_invoice_no_watch_cache"`
	// Seconds until the adapter's and the manager's /readyz answer after
	// a restart of both with the API server up, and the API server's own
	// start (until it serves a list of invoices), at the largest size;
	// and each extrapolated to a million invoices by a linear fit over
	// the sizes measured.
	AdapterReadyAfterRestartS   float64 `json:"adapter_ready_after_restart_s"`
	ManagerReadyAfterRestartS   float64 `json:"manager_ready_after_restart_s"`
	APIServerStartS             float64 `json:"apiserver_start_s"`
	AdapterReadyAfterRestart1MS float64 `json:"adapter_ready_after_restart_s_at_1m"`
	ManagerReadyAfterRestart1MS float64 `json:"manager_ready_after_restart_s_at_1m"`
	APIServerStart1MS           float64 `json:"apiserver_start_s_at_1m"`
	// Seconds until the restarted adapter answered a page of a whole
	// workspace (from the API server while its cache warms, before it is
	// ready), at the largest size and at a million.
	AdapterServingAfterRestartS   float64 `json:"adapter_serving_after_restart_s"`
	AdapterServingAfterRestart1MS float64 `json:"adapter_serving_after_restart_s_at_1m"`
	// Measurements 1 and 4 again at the largest size, at a reduced size
	// (Details.ReducedInvoices), with the watch cache and without; and
	// `kubectl get invoices -n bench-3`, seconds.
	CreateRatioWatchCache       float64 `json:"create_ratio_watch_cache"`
	CreateRatioNoWatchCache     float64 `json:"create_ratio_no_watch_cache"`
	ControllerRatioWatchCache   float64 `json:"controller_ratio_watch_cache"`
	ControllerRatioNoWatchCache float64 `json:"controller_ratio_no_watch_cache"`
	KubectlGetS                 float64 `json:"kubectl_get_workspace_s"`
	KubectlGetSNoWatchCache     float64 `json:"kubectl_get_workspace_s_no_watch_cache"`
}

// ScaleDetails are the rest of the figures at size.
type ScaleDetails struct {
	Plane0 planeUsage `json:"control_plane_start"`
	Plane  planeUsage `json:"control_plane"`
	// PlaneEmpty and PlaneEmptyNoWatchCache: the control plane after a
	// restart of the API server before the binaries started, with the
	// watch cache and without: the bases of measurement 9's memory.
	PlaneEmpty             planeUsage `json:"control_plane_restarted_empty"`
	PlaneEmptyNoWatchCache planeUsage `json:"control_plane_restarted_empty_no_watch_cache"`
	// The fill of measurement 5: invoices created per second by its
	// clients, and issued per second from its first create to its last
	// Issued.
	FillCreatedPerSec float64 `json:"fill_created_per_s"`
	FillIssuedPerSec  float64 `json:"fill_issued_per_s"`
	// InvoiceJSON is one issued invoice as the API server returns it,
	// bytes of JSON by part.
	InvoiceJSON     invoiceParts `json:"invoice_json_bytes"`
	Restarts        []restartRun `json:"restarts"`
	ReducedInvoices int          `json:"reduced_invoices"`
	// The pairs behind the reduced ratios, per second.
	ReducedPerSec map[string]float64 `json:"reduced_per_s"`
}

// restartRun is one restart at a size.
type restartRun struct {
	Invoices   int  `json:"invoices"`
	WatchCache bool `json:"watch_cache"`
	// APIServerStartS: the API server's start, until it served a list of
	// invoices (the manager and the adapter stopped).
	APIServerStartS float64 `json:"apiserver_start_s"`
	// StackManagerReadyS and StackAdapterReadyS: the binaries started
	// right after the API server's start, until their /readyz answered.
	StackManagerReadyS float64 `json:"stack_manager_ready_s"`
	StackAdapterReadyS float64 `json:"stack_adapter_ready_s"`
	// ManagerReadyS and AdapterReadyS: the binaries restarted again, the
	// API server up and warm.
	ManagerReadyS float64 `json:"manager_ready_s"`
	AdapterReadyS float64 `json:"adapter_ready_s"`
	// AdapterServingS: the same restart, until the adapter answered a
	// page of a whole workspace.
	AdapterServingS float64 `json:"adapter_serving_s"`
	// Plane is the control plane once the binaries were ready after the
	// API server's start.
	Plane       planeUsage `json:"control_plane"`
	KubectlGetS float64    `json:"kubectl_get_workspace_s"`
	KubectlRows int        `json:"kubectl_get_workspace_rows"`
}
