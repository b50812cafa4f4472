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

package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Server-Sent Events: GET of a sequence-ordered list (the invoice feed,
// feed_stream.go; the events, events_stream.go) with Accept:
// text/event-stream answers every item after the start in sequence order,
// then each one as it is seen, until the client goes away.

const (
	eventStreamType = "text/event-stream"
	// lastEventIDHeader is where an EventSource that reconnects says the id
	// (the sequence) of the last event it received.
	lastEventIDHeader = "Last-Event-ID"
	// streamPage is how many items a stream reads from the store at once.
	streamPage = 100
)

// sse is one Server-Sent Event: its type, its id (a sequence) and its data,
// one line of JSON.
type sse struct {
	typ  string
	id   int64
	data []byte
}

// appendSSE appends the frame of e to b. The id line comes last, just
// before the blank line that ends the event: some clients (the eventsource
// npm package before v3) take the id as soon as they read its line, so with
// the id first a connection cut within the event would resume after an
// event they never delivered.
func appendSSE(b []byte, e sse) []byte {
	return fmt.Appendf(b, "event: %s\ndata: %s\nid: %d\n\n", e.typ, e.data, e.id)
}

// streamSource is what a stream sends.
type streamSource struct {
	// name is the comment that opens the stream.
	name string
	// param is the query parameter of the sequence a stream without a
	// cursor or Last-Event-ID starts after (sequenceStart).
	param string
	// changed returns a channel closed once there may be more to read;
	// called before each read, so that nothing is missed in between.
	changed func() <-chan struct{}
	// read returns the events after after, in order, the sequence to read
	// after next time, and whether to read again at once rather than wait
	// for changed.
	read func(ctx context.Context, after int64) (events []sse, next int64, again bool, err error)
}

// wantsEventStream reports whether the request's Accept header asks for
// text/event-stream (with a quality above 0).
func wantsEventStream(r *http.Request) bool {
	return acceptQuality(r.Header.Values("Accept"), eventStreamType) > 0
}

// streams counts the open streams per caller and ends them all when the
// server shuts down.
type streams struct {
	mu      sync.Mutex
	open    map[string]int
	closing chan struct{}
	closed  bool
}

func newStreams() *streams {
	return &streams{open: map[string]int{}, closing: make(chan struct{})}
}

// acquire counts a new stream of caller, or reports false when the caller
// has max open already.
func (s *streams) acquire(caller string, limit int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[caller] >= limit {
		return false
	}
	s.open[caller]++
	return true
}

func (s *streams) release(caller string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[caller]--; s.open[caller] <= 0 {
		delete(s.open, caller)
	}
}

// shutdown ends every stream: registered with http.Server.RegisterOnShutdown,
// so that a graceful shutdown does not wait for streams that never end.
func (s *streams) shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.closing)
	}
}

// streamStart is where a stream of src starts: after Last-Event-ID when
// an EventSource reconnects, else where the list's page would, after the
// cursor's sequence (cursorAfter) or src.param's (sequenceStart).
func streamStart(r *http.Request, c *call, cursorAfter string, src streamSource) (int64, *Error) {
	if id := r.Header.Get(lastEventIDHeader); id != "" {
		n, ok := parseSequence(id)
		if !ok {
			return 0, errorf(http.StatusBadRequest, CodeParameterInvalid, lastEventIDHeader,
				"Last-Event-ID must be the id of an event of this stream (a sequence).")
		}
		return n, nil
	}
	return sequenceStart(c.query, src.param, cursorAfter)
}

// serveStream serves src as Server-Sent Events, after where it starts
// (streamStart: the cursor's sequence is cursorAfter), until the
// client goes away, stops reading (a write blocked for
// StreamWriteTimeout), or the server shuts down. Comments every
// StreamHeartbeat keep idle connections open through proxies. A caller has
// at most MaxStreamsPerCaller streams open, of all kinds together.
func (a *Adapter) serveStream(w http.ResponseWriter, r *http.Request, c *call, cursorAfter string,
	src streamSource) *Error {
	after, e := streamStart(r, c, cursorAfter, src)
	if e != nil {
		return e
	}
	caller := callerKey(c.user)
	if !a.streams.acquire(caller, a.opts.MaxStreamsPerCaller) {
		return &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimited, RetryAfter: 10,
			Message: fmt.Sprintf("Too many open streams: at most %d per caller.", a.opts.MaxStreamsPerCaller)}
	}
	defer a.streams.release(caller)

	// The stream outlives the request timeout, but not the client: its
	// context ends when the connection does.
	ctx := infoFrom(r.Context()).untimed
	rc := http.NewResponseController(w)
	// The server's read timeout would end the connection of a stream.
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", eventStreamType)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: pass events on at once
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)

	// write sends b within StreamWriteTimeout, so that a client that stops
	// reading is dropped instead of holding the stream.
	write := func(b []byte) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(a.opts.StreamWriteTimeout)); err != nil {
			return false
		}
		if _, err := w.Write(b); err != nil { //nolint:gosec // text/event-stream with nosniff; data is encoding/json output, which escapes <, > and &
			return false
		}
		return rc.Flush() == nil
	}
	if !write([]byte(": " + src.name + "\n\n")) {
		return nil
	}
	heartbeat := time.NewTicker(a.opts.StreamHeartbeat)
	defer heartbeat.Stop()
	var frames []byte
	for {
		changed := src.changed()
		events, next, again, err := src.read(ctx, after)
		if err != nil {
			if ctx.Err() == nil { // else the client went away
				logFrom(r.Context()).Error(err, "Reading the stream failed; ending it", "stream", src.name)
			}
			return nil
		}
		after = next
		for _, e := range events {
			if frames = appendSSE(frames[:0], e); !write(frames) {
				return nil
			}
		}
		if again {
			continue
		}
		select {
		case <-changed:
		case <-heartbeat.C:
			if !write([]byte(": heartbeat\n\n")) {
				return nil
			}
		case <-ctx.Done():
			return nil
		case <-a.streams.closing:
			return nil
		}
	}
}
