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

// Measurement 12, schedules due at one midnight: n InvoiceSchedules of one
// workspace come due at the same moment and the controller issues one
// invoice for each, while other clients create invoices through the
// adapter in another workspace.
//
// The moment is made, not waited for: the schedules name a customer that
// does not exist yet, so each stalls (CustomerNotFound) with its first
// period due; creating the customer then hands the controller all n at
// once, through its customer watch. That is the controller's midnight: at
// 00:00 every schedule's RequeueAfter fires together and the same n
// reconciles, each creating one invoice, wait in its queue.

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

const (
	// scheduleStep is the measurement's name for -only.
	scheduleStep = "12. schedules due at one midnight"
	// scheduleWorkspace holds the measurement's schedules alone, so that
	// every invoice issued in it is one of theirs.
	scheduleWorkspace = "bench-schedules"
	// scheduleCustomer is the customer the schedules wait for.
	scheduleCustomer = "midnight"
	// otherWorkspace is where the other clients create.
	otherWorkspace = clientNS
	// otherClients is how many clients create there, each one request at
	// a time: an installation's ordinary traffic, not a flood.
	otherClients = 4
	// quietWindow is how long the other clients' rate is measured alone.
	quietWindow = 5 * time.Second
)

// measureSchedules is measurement 12, without the install's APF objects
// and then with them, as installed (the report's keys): schedules issued
// per second from the moment they come due until the last invoice is
// Issued, and the other clients' creates per second meanwhile over theirs
// alone.
func (b *bench) measureSchedules(ctx context.Context, r *Report) error {
	r.Details.Schedules = b.cfg.Invoices
	r.Details.ScheduleRuns = map[string]scheduleRun{}
	for _, applied := range []bool{false, true} {
		if err := b.setAPF(ctx, applied); err != nil {
			return err
		}
		ns, variant := scheduleWorkspace, "without_apf"
		if applied {
			ns, variant = scheduleWorkspace+"-apf", "with_apf"
		}
		run, err := b.schedulesAtOnce(ctx, ns, b.cfg.Invoices)
		if err != nil {
			return err
		}
		r.Details.ScheduleRuns[variant] = run
		b.logf("%s: %d schedules due at once, issued at %.0f/s; other clients %.0f creates/s meanwhile, %.0f alone",
			variant, b.cfg.Invoices, run.IssuedPerSec, run.BusyCreatesPerSec, run.QuietCreatesPerSec)
	}
	if err := b.setAPF(ctx, false); err != nil {
		return err
	}
	installed := r.Details.ScheduleRuns["with_apf"]
	r.ScheduleIssuePerSec, r.ScheduleOtherCreateRatio = installed.IssuedPerSec, installed.OtherCreateRatio
	return nil
}

// scheduleRun is one variant of measurement 12.
type scheduleRun struct {
	IssuedPerSec       float64 `json:"issued_per_s"`
	QuietCreatesPerSec float64 `json:"other_creates_per_s_alone"`
	BusyCreatesPerSec  float64 `json:"other_creates_per_s_meanwhile"`
	OtherCreateRatio   float64 `json:"other_create_ratio"`
}

// schedulesAtOnce makes n schedules of ns come due at one moment, and
// measures their issuing and the other clients' creates meanwhile.
func (b *bench) schedulesAtOnce(ctx context.Context, ns string, n int) (scheduleRun, error) {
	var run scheduleRun
	if err := b.stalledSchedules(ctx, ns, n); err != nil {
		return run, err
	}
	quiet, err := b.otherCreates(ctx, func() <-chan struct{} {
		done := make(chan struct{})
		time.AfterFunc(quietWindow, func() { close(done) })
		return done
	})
	if err != nil {
		return run, err
	}
	if err := b.awaitSettled(ctx, 5*time.Minute, otherWorkspace); err != nil {
		return run, err
	}

	w, err := b.watchIssued(ctx, ns)
	if err != nil {
		return run, err
	}
	defer w.stop()
	issued := make(chan error, 1)
	var last time.Time
	start := time.Now()
	busy, err := b.otherCreates(ctx, func() <-chan struct{} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := b.admin.Create(ctx, builder.Customer(ns, scheduleCustomer)); err != nil {
				issued <- fmt.Errorf("creating the schedules' customer: %w", err)
				return
			}
			at, err := w.await(ctx, n, time.Duration(n)*100*time.Millisecond+5*time.Minute)
			for _, t := range at {
				last = maxTime(last, t)
			}
			issued <- err
		}()
		return done
	})
	if err := <-issued; err != nil {
		return run, err
	}
	if err != nil {
		return run, err
	}
	if err := b.awaitSettled(ctx, 5*time.Minute, otherWorkspace); err != nil {
		return run, err
	}
	b.created.Add(int64(n))
	run.IssuedPerSec = float64(n) / last.Sub(start).Seconds()
	run.QuietCreatesPerSec, run.BusyCreatesPerSec, run.OtherCreateRatio = quiet, busy, ratio(busy, quiet)
	return run, nil
}

// stalledSchedules creates n monthly schedules in ns whose first period
// started today, for scheduleCustomer, which does not exist yet, and waits
// until the controller has stalled each.
func (b *bench) stalledSchedules(ctx context.Context, ns string, n int) error {
	if err := b.admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil &&
		!apierrors.IsAlreadyExists(err) {
		return err
	}
	today := time.Now().UTC().Format(time.DateOnly)
	// The bench's invoice as the template: issuing computes its two tax
	// groups, as every measurement of issuing does (checkIssuedTax).
	inv := newInvoice(ns).Spec
	template := func(s *billingv1.InvoiceSchedule) {
		s.Spec.Template = billingv1.InvoiceTemplate{Currency: inv.Currency, Items: inv.Items,
			DefaultTaxFrom: inv.DefaultTaxFrom}
	}
	if _, err := b.parallel(ctx, n, func(ctx context.Context, i int) error {
		return b.admin.Create(ctx, builder.InvoiceSchedule(ns, "midnight-"+strconv.Itoa(i), scheduleCustomer, today,
			template))
	}); err != nil {
		return fmt.Errorf("creating the schedules: %w", err)
	}
	deadline := time.Now().Add(time.Duration(n)*50*time.Millisecond + 2*time.Minute)
	for {
		var list billingv1.InvoiceScheduleList
		if err := b.admin.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return err
		}
		stalled := 0
		for i := range list.Items {
			if list.Items[i].Status.Phase == billingv1.SchedulePhaseInvalid {
				stalled++
			}
		}
		if stalled == n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d schedules stalled waiting for their customer", stalled, n)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// otherCreates runs otherClients clients creating invoices through the
// adapter in otherWorkspace until the channel run returns is closed, and
// returns their creates per second.
func (b *bench) otherCreates(ctx context.Context, run func() <-chan struct{}) (float64, error) {
	var (
		creates atomic.Int64
		stopped atomic.Bool
		wg      sync.WaitGroup
		mu      sync.Mutex
		failed  error
	)
	start := time.Now()
	for range otherClients {
		wg.Go(func() {
			for !stopped.Load() && ctx.Err() == nil {
				if _, err := b.createHTTP(ctx, otherWorkspace); err != nil {
					mu.Lock()
					failed = fmt.Errorf("another client's create: %w", err)
					mu.Unlock()
					return
				}
				creates.Add(1)
			}
		})
	}
	<-run()
	elapsed := time.Since(start)
	stopped.Store(true)
	wg.Wait()
	b.created.Add(creates.Load())
	return float64(creates.Load()) / elapsed.Seconds(), failed
}
