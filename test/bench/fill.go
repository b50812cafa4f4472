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

// Filling the cluster up to a number of invoices for the measurements at
// size (5 and 8): created straight through the Kubernetes API by many
// clients at once and issued by the manager, so that each invoice has the
// size of an issued one (its number, amounts, ledger and event).

import (
	"context"
	"time"
)

// fillWorkspaces are the workspaces the fill spreads its invoices over:
// those the other measurements do not count in.
func (b *bench) fillWorkspaces() []string { return b.workspaces()[3:] }

// fillTo creates invoices in the fill workspaces until the cluster holds
// total, and waits until the manager has issued them. It returns the
// invoices created per second and issued per second (from the first
// create to the last Issued).
func (b *bench) fillTo(ctx context.Context, total int) (created, issued float64, err error) {
	return b.fill(ctx, b.fillWorkspaces(), total-int(b.created.Load()))
}

// fill creates n invoices spread over spaces straight through the
// Kubernetes API and waits until the manager has issued them and made its
// last writes after issuing.
func (b *bench) fill(ctx context.Context, spaces []string, n int) (created, issued float64, err error) {
	if n <= 0 {
		return 0, 0, nil
	}
	w, err := b.watchIssued(ctx, "")
	if err != nil {
		return 0, 0, err
	}
	defer w.stop()
	b.logf("Filling %d invoices into %d workspaces with %d clients", n, len(spaces), b.fillWorkers())
	start := time.Now()
	res, err := b.parallelWith(ctx, b.fillWorkers(), n, func(ctx context.Context, i int) error {
		_, err := b.createDirect(ctx, spaces[i%len(spaces)])
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	b.created.Add(int64(n))
	if _, err := w.await(ctx, n, time.Duration(n)*40*time.Millisecond+5*time.Minute); err != nil {
		return 0, 0, err
	}
	took := time.Since(start)
	// The manager's writes after issuing (the status's field ownership
	// dropped from a queue) end before anything is measured at this size.
	if err := b.awaitSettled(ctx, time.Duration(n)*40*time.Millisecond+5*time.Minute, spaces...); err != nil {
		return 0, 0, err
	}
	b.logf("Filled %d invoices: %.0f created/s, %.0f issued/s", n, res.perSec(), float64(n)/took.Seconds())
	return res.perSec(), float64(n) / took.Seconds(), nil
}

// fillWorkers is how many clients create at once during a fill.
func (b *bench) fillWorkers() int { return 4 * b.cfg.Workers }
