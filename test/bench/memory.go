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

// Measurement 5: the manager's and the adapter's resident memory per
// invoice, as every workspace fills up.

import (
	"context"
	"time"
)

// measureMemory fills every workspace up to Invoices invoices, waits until
// the controller has issued them all, and reads both processes' resident
// memory: its growth since the start over the invoices in the cluster.
func (b *bench) measureMemory(ctx context.Context, r *Report) error {
	w, err := b.watchIssued(ctx, "")
	if err != nil {
		return err
	}
	defer w.stop()
	n := b.cfg.Invoices
	todo := []string{}
	for _, ns := range b.workspaces()[3:] {
		for range n {
			todo = append(todo, ns)
		}
	}
	if _, err := b.parallel(ctx, len(todo), func(ctx context.Context, i int) error {
		_, err := b.createDirect(ctx, todo[i])
		return err
	}); err != nil {
		return err
	}
	b.created.Add(int64(len(todo)))
	if _, err := w.await(ctx, len(todo), time.Duration(len(todo))*10*time.Millisecond+2*time.Minute); err != nil {
		return err
	}
	time.Sleep(5 * time.Second) // let the garbage of the load be collected
	if r.Details.AdapterRSS, err = b.adapter.rss(); err != nil {
		return err
	}
	if r.Details.ManagerRSS, err = b.manager.rss(); err != nil {
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
	return nil
}
