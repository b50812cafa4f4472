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

// Measurement 8, event lag: invoices created directly in one workspace as
// fast as the API server takes them, and the time from each create until
// its invoice.issued event is read from the adapter's GET /v1/events
// stream: the controller's issue, its event sequence, the adapter's
// informer and the stream together; then as many at half the rate at which
// issuing saturated, and the time from each create until it is Issued and
// until its event is read.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// eventLagWorkspace is where measurement 8 creates; no other measurement
// before it creates there.
const eventLagWorkspace = "bench-4"

// eventsSeen records when the events stream first delivered the
// invoice.issued event of each invoice, by invoice id.
type eventsSeen struct {
	mu   sync.Mutex
	seen map[string]time.Time
	err  error
}

// follow reads stream until it ends, recording each event's arrival.
func (s *eventsSeen) follow(stream *v1client.EventStream) {
	for {
		ev, err := stream.Next()
		now := time.Now()
		if err != nil {
			s.mu.Lock()
			if !errors.Is(err, io.EOF) && s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
			return
		}
		var event struct {
			Type string `json:"type"`
			Data struct {
				Object struct {
					ID string `json:"id"`
				} `json:"object"`
			} `json:"data"`
		}
		err = json.Unmarshal(ev.Data, &event)
		if err == nil && event.Type != string(billingv1.EventTypeInvoiceIssued) {
			err = fmt.Errorf("an event of type %q, not asked for", event.Type)
		}
		if err != nil {
			s.mu.Lock()
			s.err = fmt.Errorf("the events stream sent %q: %w", ev.Data, err)
			s.mu.Unlock()
			return
		}
		s.mu.Lock()
		if _, ok := s.seen[event.Data.Object.ID]; !ok {
			s.seen[event.Data.Object.ID] = now
		}
		s.mu.Unlock()
	}
}

// await waits until the events of every invoice in names were seen and
// returns when each was.
func (s *eventsSeen) await(ctx context.Context, names []string, timeout time.Duration) (map[string]time.Time, error) {
	deadline := time.Now().Add(timeout)
	for {
		s.mu.Lock()
		missing := 0
		for _, name := range names {
			if _, ok := s.seen[name]; !ok {
				missing++
			}
		}
		err := s.err
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("%d of %d invoice.issued events not in GET /v1/events after %s", missing, len(names), timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]time.Time, len(names))
	for _, name := range names {
		out[name] = s.seen[name]
	}
	return out, nil
}

// measureEventLag creates invoices in eventLagWorkspace directly, at the
// full create rate, while it follows the workspace's invoice.issued events
// on the adapter's stream: the time from each create until its event is
// read, p50 and p99. Then as many again, paced at half the rate at which
// that round issued (where issuing saturates): the time from each create
// until it is Issued and until its event is read.
func (b *bench) measureEventLag(ctx context.Context, r *Report) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The stream lasts the whole measurement: through a client without
	// the 30 s timeout of b.api's, bounded by ctx instead.
	streaming := v1client.New(b.apiURL, &http.Client{Transport: b.http.Transport}, v1client.Token(b.token))
	stream, _, err := streaming.StreamEvents(ctx, "?type="+string(billingv1.EventTypeInvoiceIssued),
		v1client.Workspace(eventLagWorkspace))
	if err != nil {
		return fmt.Errorf("opening the events stream: %w", err)
	}
	defer func() { _ = stream.Close() }()
	seen := &eventsSeen{seen: map[string]time.Time{}}
	go seen.follow(stream)

	full, err := b.eventLagRound(ctx, seen, b.cfg.Invoices, 0)
	if err != nil {
		return err
	}
	r.EventLagP50Ms, r.EventLagP99Ms = full.event.percentileMs(0.5), full.event.percentileMs(0.99)
	r.Details.EventLagCreatedPerSec, r.Details.EventLagIssuedPerSec = full.created.perSec(), full.issuedPerSec
	half, err := b.eventLagRound(ctx, seen, b.cfg.Invoices, full.issuedPerSec/2)
	if err != nil {
		return err
	}
	r.IssueLagP99MsHalfRate, r.Details.IssueLagP50MsHalfRate = half.issue.percentileMs(0.99), half.issue.percentileMs(0.5)
	r.EventLagP99MsHalfRate, r.Details.EventLagP50MsHalfRate = half.event.percentileMs(0.99), half.event.percentileMs(0.5)
	r.Details.HalfRateCreatedPerSec = half.created.perSec()
	return nil
}

// lagRound is what one round of measurement 8 measured.
type lagRound struct {
	created result // the creates: count and time
	// issuedPerSec is the invoices over the time from the first create to
	// the last Issued.
	issuedPerSec float64
	issue, event result // create to Issued, and to its event, per invoice
}

// eventLagRound creates n invoices in eventLagWorkspace directly, as fast
// as the API server takes them (rate 0) or at a steady rate per second,
// and waits until each is Issued (a watch) and its event read (seen).
func (b *bench) eventLagRound(ctx context.Context, seen *eventsSeen, n int, rate float64) (lagRound, error) {
	w, err := b.watchIssued(ctx, eventLagWorkspace)
	if err != nil {
		return lagRound{}, err
	}
	defer w.stop()
	createdAt := make([]time.Time, n)
	names := make([]string, n)
	start := time.Now()
	res, err := b.parallel(ctx, n, func(ctx context.Context, i int) (err error) {
		if rate > 0 {
			// Invoice i's turn: the workers take them in order, each
			// waiting for its own, so creates are spread evenly.
			if err := sleepUntil(ctx, start.Add(time.Duration(float64(i)/rate*float64(time.Second)))); err != nil {
				return err
			}
		}
		names[i], err = b.createDirect(ctx, eventLagWorkspace)
		createdAt[i] = time.Now()
		return err
	})
	if err != nil {
		return lagRound{}, err
	}
	b.created.Add(int64(n))
	timeout := time.Duration(n)*10*time.Millisecond + 2*time.Minute
	issued, err := w.awaitNames(ctx, eventLagWorkspace, names, timeout)
	if err != nil {
		return lagRound{}, err
	}
	at, err := seen.await(ctx, names, timeout)
	if err != nil {
		return lagRound{}, err
	}
	out := lagRound{created: res, issue: result{latencies: make([]time.Duration, n)},
		event: result{latencies: make([]time.Duration, n)}}
	var last time.Time
	for i, name := range names {
		last = maxTime(last, issued[name])
		out.issue.latencies[i] = max(issued[name].Sub(createdAt[i]), 0)
		out.event.latencies[i] = max(at[name].Sub(createdAt[i]), 0)
	}
	out.issuedPerSec = float64(n) / last.Sub(start).Seconds()
	return out, nil
}

// sleepUntil waits until t, or fails when ctx ends first.
func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// printEventLag prints measurement 8's lines under the table.
func (r *Report) printEventLag(out io.Writer) {
	d := r.Details
	printf(out, "\n8. event lag, create to its invoice.issued in GET /v1/events (stream), at %.0f creates/s: p50 %.1f ms, p99 %.1f ms\n",
		d.EventLagCreatedPerSec, r.EventLagP50Ms, r.EventLagP99Ms)
	printf(out, "   at half the rate issuing saturates (%.0f issued/s), %.0f creates/s: to Issued p50 %.1f ms, p99 %.1f ms; "+
		"to the event p50 %.1f ms, p99 %.1f ms\n", d.EventLagIssuedPerSec, d.HalfRateCreatedPerSec,
		d.IssueLagP50MsHalfRate, r.IssueLagP99MsHalfRate, d.EventLagP50MsHalfRate, r.EventLagP99MsHalfRate)
}
