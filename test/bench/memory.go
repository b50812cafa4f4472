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

// Measurement 5: resident memory per invoice of the manager, the adapter,
// the kube-apiserver and etcd (and etcd's database), as the workspaces fill
// up, and what each part of an issued invoice costs in bytes of JSON.

import (
	"context"
	"time"
)

// measureMemory fills the cluster up to MemoryInvoices invoices (by
// default the other measurements' and Invoices more in each fill
// workspace), waits until the controller has issued them all, and reads
// every process's resident memory: its growth since the start over the
// invoices in the cluster.
func (b *bench) measureMemory(ctx context.Context, r *Report) error {
	target := b.cfg.MemoryInvoices
	if target == 0 {
		target = int(b.created.Load()) + len(b.fillWorkspaces())*b.cfg.Invoices
	}
	var err error
	if r.Details.FillCreatedPerSec, r.Details.FillIssuedPerSec, err = b.fillTo(ctx, target); err != nil {
		return err
	}
	time.Sleep(5 * time.Second) // let the garbage of the load be collected
	if r.Details.AdapterRSS, err = b.adapter.rss(); err != nil {
		return err
	}
	if r.Details.ManagerRSS, err = b.manager.rss(); err != nil {
		return err
	}
	if r.Details.Plane, err = b.plane.usage(ctx); err != nil {
		return err
	}
	if b.cfg.Profile {
		for _, p := range []struct {
			proc         *process
			binary, name string
		}{{b.adapter, b.cfg.Adapter, "adapter-heap"}, {b.manager, b.cfg.Manager, "manager-heap"}} {
			if err := b.heapProfile(ctx, p.proc, p.binary, p.name); err != nil {
				return err
			}
		}
	}
	total := b.created.Load()
	r.Details.MemoryInvoices = int(total)
	r.AdapterBytesPerInvoice = float64((r.Details.AdapterRSS - r.Details.AdapterRSS0) / total)
	r.ControllerBytesPerInvoice = float64((r.Details.ManagerRSS - r.Details.ManagerRSS0) / total)
	p0, p := r.Details.Plane0, r.Details.Plane
	r.APIServerBytesPerInvoice = float64((p.APIServerRSS - p0.APIServerRSS) / total)
	r.EtcdBytesPerInvoice = float64((p.EtcdRSS - p0.EtcdRSS) / total)
	r.EtcdDBBytesPerInvoice = float64((p.EtcdDB - p0.EtcdDB) / total)
	r.Details.InvoiceJSON, err = b.invoiceParts(ctx)
	return err
}
