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

package v1client

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Event is one Server-Sent Event of a stream.
type Event struct {
	Type string
	ID   string
	Data []byte
	// Fields are the names of the event's fields (event, data, id), in the
	// order they came.
	Fields []string
}

// EventStream reads the events of a stream, in order. Close it when done.
type EventStream struct {
	body  io.ReadCloser
	lines *bufio.Scanner
	// Comments counts the comment lines read so far (heartbeats).
	Comments int
}

// StreamIssuedInvoices opens GET /v1/invoices?status=issued&order=sequence
// with Accept: text/event-stream (p's other fields, such as AfterSequence,
// are sent too). An answer other than 200 is returned as the *Error, with
// the whole response.
func (c *Client) StreamIssuedInvoices(ctx context.Context, p ListParams, opts ...Option) (*EventStream, *Response, error) {
	p.Status, p.Order = "issued", "sequence"
	return c.stream(ctx, "/v1/invoices"+p.query(), opts)
}

// StreamEvents opens GET /v1/events with Accept: text/event-stream; query
// is the query string, such as "?after=3&type=invoice.paid" (or "").
func (c *Client) StreamEvents(ctx context.Context, query string, opts ...Option) (*EventStream, *Response, error) {
	return c.stream(ctx, "/v1/events"+query, opts)
}

// stream opens the stream of GET path, or returns the answer other than 200
// as the *Error, with the whole response.
func (c *Client) stream(ctx context.Context, path string, opts []Option) (*EventStream, *Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	for _, o := range c.opts {
		o(req)
	}
	for _, o := range opts {
		o(req)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer func() { _ = resp.Body.Close() }()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, nil, err
		}
		r := &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
		return nil, r, r.Err()
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		_ = resp.Body.Close()
		return nil, r, fmt.Errorf("the stream answered Content-Type %q", ct)
	}
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(make([]byte, 64<<10), 4<<20)
	return &EventStream{body: resp.Body, lines: lines}, r, nil
}

// Next returns the next event, skipping comments; io.EOF when the server
// ended the stream.
func (s *EventStream) Next() (Event, error) {
	var e Event
	started := false
	for s.lines.Scan() {
		line := s.lines.Text()
		switch {
		case line == "":
			if started {
				return e, nil
			}
		case strings.HasPrefix(line, ":"):
			s.Comments++
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			started = true
			e.Fields = append(e.Fields, field)
			switch field {
			case "event":
				e.Type = value
			case "id":
				e.ID = value
			case "data":
				if e.Data != nil {
					e.Data = append(e.Data, '\n')
				}
				e.Data = append(e.Data, value...)
			}
		}
	}
	if err := s.lines.Err(); err != nil {
		return Event{}, err
	}
	return Event{}, io.EOF
}

// Close ends the stream.
func (s *EventStream) Close() error { return s.body.Close() }
