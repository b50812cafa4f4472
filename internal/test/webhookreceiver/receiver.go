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

// Package webhookreceiver is the test suites' one receiver of webhook
// deliveries: an HTTP server on loopback that records every attempt, checks
// its signature, and can be told to fail or stall, as a real receiver would.
package webhookreceiver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

// Attempt is one delivery attempt as the receiver saw it.
type Attempt struct {
	// EventID, Type and EventSequence (the event's "sequence") are read
	// from the body; Sequence is its object's "sequence" (an invoice's
	// invoice sequence) and ObjectID its object's "id".
	EventID       string
	Type          string
	EventSequence int64
	Sequence      int64
	ObjectID      string
	// SignatureValid is whether Invoicing-Signature matches the body and
	// the secret, with a timestamp within five minutes of arrival.
	SignatureValid bool
	// Status is what the receiver answered.
	Status int
}

// Receiver records deliveries. Its methods are safe for concurrent use.
type Receiver struct {
	// URL is where to deliver: http://127.0.0.1:port/hooks.
	URL string

	server *httptest.Server
	secret []byte
	mu     sync.Mutex
	// failFirst is how many attempts still fail with 503.
	failFirst int
	delay     time.Duration
	attempts  []Attempt
}

// Option configures a Receiver.
type Option func(*Receiver)

// FailingFirst makes the first n attempts fail with 503.
func FailingFirst(n int) Option { return func(r *Receiver) { r.failFirst = n } }

// Slow makes every answer wait d.
func Slow(d time.Duration) Option { return func(r *Receiver) { r.delay = d } }

// Start starts a receiver on loopback that verifies signatures with secret.
func Start(secret []byte, opts ...Option) *Receiver {
	r := &Receiver{secret: secret}
	for _, o := range opts {
		o(r)
	}
	r.server = httptest.NewServer(http.HandlerFunc(r.serve))
	r.URL = r.server.URL + "/hooks"
	return r
}

// Close stops the receiver.
func (r *Receiver) Close() { r.server.Close() }

// FailNext makes the next n attempts fail with 503.
func (r *Receiver) FailNext(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failFirst = n
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var event struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Sequence int64  `json:"sequence"`
		Data     struct {
			Object struct {
				ID       string `json:"id"`
				Sequence *int64 `json:"sequence"`
			} `json:"object"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &event)
	var sequence int64
	if event.Data.Object.Sequence != nil {
		sequence = *event.Data.Object.Sequence
	}
	attempt := Attempt{
		EventID:        event.ID,
		Type:           event.Type,
		EventSequence:  event.Sequence,
		Sequence:       sequence,
		ObjectID:       event.Data.Object.ID,
		SignatureValid: r.valid(req.Header.Get(delivery.SignatureHeader), body, time.Now()),
		Status:         http.StatusNoContent,
	}
	r.mu.Lock()
	if r.failFirst > 0 {
		r.failFirst--
		attempt.Status = http.StatusServiceUnavailable
	}
	delay := r.delay
	r.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-req.Context().Done():
			return
		}
	}
	r.mu.Lock()
	r.attempts = append(r.attempts, attempt)
	r.mu.Unlock()
	w.WriteHeader(attempt.Status)
}

// valid checks a signature header by recomputing it for its timestamp.
func (r *Receiver) valid(header string, body []byte, now time.Time) bool {
	ts, _, _ := strings.Cut(strings.TrimPrefix(header, "t="), ",")
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	t := time.Unix(unix, 0)
	if now.Sub(t).Abs() > 5*time.Minute {
		return false
	}
	return header == delivery.Sign(r.secret, t, body)
}

// Attempts returns every attempt answered so far, in arrival order.
func (r *Receiver) Attempts() []Attempt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Attempt(nil), r.attempts...)
}

// Accepted returns the object sequences (an invoice's invoice sequence)
// of the attempts answered 2xx, in arrival order, repeats included.
func (r *Receiver) Accepted() []int64 {
	var seqs []int64
	for _, a := range r.Attempts() {
		if a.Status < 300 {
			seqs = append(seqs, a.Sequence)
		}
	}
	return seqs
}

// AcceptedEvents returns the attempts answered 2xx, in arrival order,
// repeats included.
func (r *Receiver) AcceptedEvents() []Attempt {
	var accepted []Attempt
	for _, a := range r.Attempts() {
		if a.Status < 300 {
			accepted = append(accepted, a)
		}
	}
	return accepted
}

// AcceptedEventSequences returns the event sequences of the attempts
// answered 2xx, in arrival order, repeats included.
func (r *Receiver) AcceptedEventSequences() []int64 {
	accepted := r.AcceptedEvents()
	seqs := make([]int64, 0, len(accepted))
	for _, a := range accepted {
		seqs = append(seqs, a.EventSequence)
	}
	return seqs
}
