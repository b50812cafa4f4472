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
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// writeJSON is the one place that writes JSON responses.
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		// Only programming errors get here: every response type marshals.
		panic(fmt.Sprintf("marshalling %T: %v", v, err))
	}
	writeBody(w, r, status, body)
}

// writeBody writes body, JSON, with the headers every JSON answer carries.
func writeBody(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)+1))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	// A failed write means the client went away; there is no one to tell.
	_, _ = w.Write(append(body, '\n')) //nolint:gosec // JSON the API encoded, served as application/json with nosniff
}

// writeList answers 200 with a list envelope (apiobject.List) whose data
// are objects already encoded: the same bytes json.Marshal would write,
// without encoding (or even scanning) them again.
func writeList(w http.ResponseWriter, r *http.Request, data []json.RawMessage, more bool, next *string) {
	cursor := []byte("null")
	if next != nil {
		var err error
		if cursor, err = json.Marshal(*next); err != nil {
			panic(fmt.Sprintf("marshalling a cursor: %v", err))
		}
	}
	const head, tail = `{"object":"` + listObject + `","data":[`, `],"has_more":false,"next_cursor":}`
	n := len(head) + len(tail) + len(cursor) + 1 // and writeBody's newline
	for _, d := range data {
		n += len(d) + 1
	}
	// One allocation of the whole body, newline included: a page is some
	// hundred kilobytes, which growing would copy again.
	body := make([]byte, 0, n)
	body = append(body, head...)
	for i, d := range data {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, d...)
	}
	body = append(body, `],"has_more":`...)
	body = strconv.AppendBool(body, more)
	body = append(body, `,"next_cursor":`...)
	body = append(body, cursor...)
	body = append(body, '}')
	writeBody(w, r, http.StatusOK, body)
}

// writeCreated answers 201 with the object and its Location; replayed says
// an earlier request with the same Idempotency-Key created it.
func writeCreated(w http.ResponseWriter, r *http.Request, location string, replayed bool, v any) {
	w.Header().Set("Location", location)
	if replayed {
		w.Header().Set(IdempotentReplayedHeader, "true")
	}
	writeJSON(w, r, http.StatusCreated, v)
}

// writeAccepted answers 202 with v: a request whose work the controller
// does later (an Email queued to send), with no resource of its own to
// locate. Idempotent-Replayed says an earlier request with the key queued
// it.
func writeAccepted(w http.ResponseWriter, r *http.Request, replayed bool, v any) {
	if replayed {
		w.Header().Set(IdempotentReplayedHeader, "true")
	}
	writeJSON(w, r, http.StatusAccepted, v)
}
