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

// The pages of measurement 3's raw walks: a client that decodes nothing,
// reads each page's body to the end into a reused buffer and finds only
// the next page's token, and the number of invoices, by searching bytes.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// rawPage is one page of a raw walk: how many invoices it held and the
// token of the next page ("" on the last).
type rawPage struct {
	count int
	next  string
}

// rawBuffers are the bodies' buffers, reused across pages and workers.
var rawBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Byte patterns of the raw pages: the adapter's cursor and one per invoice
// (its "object"), the API server's continue token and one per item (its
// kind).
var (
	rawAdapterNext    = []byte(`"next_cursor":"`)
	rawAdapterInvoice = []byte(`"object":"invoice"`)
	rawDirectNext     = []byte(`"continue":"`)
	rawDirectInvoice  = []byte(`"kind":"Invoice"`)
)

// pageHTTPRaw reads a page of the adapter's GET /v1/invoices without
// decoding it.
func (b *bench) pageHTTPRaw(ctx context.Context, ns, cursor string) (rawPage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.apiURL+"/v1/invoices?"+rawQuery("cursor", cursor), nil)
	if err != nil {
		return rawPage{}, err
	}
	req.Header.Set("Authorization", "Bearer "+b.token)
	req.Header.Set(v1client.WorkspaceHeader, ns)
	// The cursor is the page's last member: search from the end.
	return readRawPage(b.http, req, rawAdapterNext, rawAdapterInvoice, true)
}

// pageDirectRaw reads a page of the Kubernetes API's list of invoices
// without decoding it, as pageHTTPRaw reads the adapter's.
func (b *bench) pageDirectRaw(ctx context.Context, ns, cont string) (rawPage, error) {
	u := strings.TrimSuffix(b.directHost, "/") + "/apis/" + billingv1.GroupVersion.String() + "/namespaces/" +
		url.PathEscape(ns) + "/invoices?" + rawQuery("continue", cont)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return rawPage{}, err
	}
	req.Header.Set("Accept", "application/json")
	// The token is in the list's metadata, before the items.
	return readRawPage(b.directHTTP, req, rawDirectNext, rawDirectInvoice, false)
}

// rawQuery is the query of a page of 100 after the one whose token is
// token, sent as the parameter param (none for the first page).
func rawQuery(param, token string) string {
	q := url.Values{"limit": {"100"}}
	if token != "" {
		q.Set(param, token)
	}
	return q.Encode()
}

// readRawPage sends req with hc, reads the whole body into a pooled
// buffer, and finds the string after next (searching from the end when
// last) and the number of times each is in it.
func readRawPage(hc *http.Client, req *http.Request, next, each []byte, last bool) (rawPage, error) {
	resp, err := hc.Do(req)
	if err != nil {
		return rawPage{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	buf, _ := rawBuffers.Get().(*bytes.Buffer)
	defer rawBuffers.Put(buf)
	buf.Reset()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return rawPage{}, err
	}
	body := buf.Bytes()
	if resp.StatusCode != http.StatusOK {
		return rawPage{}, fmt.Errorf("listing invoices: %s: %.200s", resp.Status, body)
	}
	p := rawPage{count: bytes.Count(body, each)}
	at := bytes.Index(body, next)
	if last {
		at = bytes.LastIndex(body, next)
	}
	if at < 0 {
		return p, nil
	}
	token := body[at+len(next):]
	end := bytes.IndexByte(token, '"')
	if end < 0 {
		return rawPage{}, errors.New("a list page ends inside its next page's token")
	}
	if bytes.IndexByte(token[:end], '\\') >= 0 {
		return rawPage{}, fmt.Errorf("a next page's token with an escape: %.100s", token[:end])
	}
	p.next = string(token[:end])
	return p, nil
}

// rawWalk is a worker's walk of all invoices of bench-0 by raw pages: it
// must count want invoices.
func rawWalk(next func(ctx context.Context, ns, token string) (rawPage, error), want int) func(context.Context, int) error {
	return func(ctx context.Context, _ int) error {
		seen, token := 0, ""
		for {
			p, err := next(ctx, "bench-0", token)
			if err != nil {
				return err
			}
			seen += p.count
			if token = p.next; token == "" {
				break
			}
		}
		if seen != want {
			return fmt.Errorf("a raw walk counted %d invoices, not %d", seen, want)
		}
		return nil
	}
}
