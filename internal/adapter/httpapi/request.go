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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// Headers of the idempotency protocol.
const (
	IdempotencyKeyHeader     = "Idempotency-Key"
	IdempotentReplayedHeader = "Idempotent-Replayed"
	maxIdempotencyKeyLength  = 255
)

// parseQuery parses a query string that may hold each of allowed once.
func parseQuery(raw string, allowed []string) (url.Values, *Error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, "", "The query string is malformed: %v.", err)
	}
	for name, values := range q {
		known := false
		for _, a := range allowed {
			known = known || a == name
		}
		if !known {
			return nil, errorf(http.StatusBadRequest, CodeParameterUnknown, name, "Unknown query parameter %s.", name)
		}
		if len(values) > 1 {
			return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, name, "Send %s once.", name)
		}
	}
	return q, nil
}

// readBody checks the content type and reads a JSON body of at most
// MaxBodyBytes.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *Error) {
	return readMediaBody(w, r, "application/json", MaxBodyBytes,
		"Send the body as JSON, with Content-Type: application/json.")
}

// readMediaBody checks that the body is of media type media (UTF-8 when it
// names a charset; hint says what to send otherwise) and reads at most
// limit bytes of it.
func readMediaBody(w http.ResponseWriter, r *http.Request, media string, limit int64, hint string) ([]byte, *Error) {
	got, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || got != media ||
		(params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8")) {
		return nil, errorf(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "Content-Type", "%s", hint)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errorf(http.StatusRequestEntityTooLarge, CodeBodyTooLarge, "",
				"The body exceeds %d bytes.", limit)
		}
		return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "", "The body could not be read.")
	}
	return body, nil
}

// readOptionalBody reads the body of a request whose body may be left out
// (a send): an empty body is {}, with or without a Content-Type; a body
// that is not empty is read as readBody reads it, and needs the JSON
// Content-Type.
func readOptionalBody(w http.ResponseWriter, r *http.Request) ([]byte, *Error) {
	if r.Header.Get("Content-Type") != "" {
		body, e := readBody(w, r)
		if e == nil && len(body) == 0 {
			body = []byte("{}")
		}
		return body, e
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	switch {
	case err != nil || len(body) > 0:
		// A body without its type, or one that cannot be read: as readBody
		// answers it.
		return readBody(w, r)
	default:
		return []byte("{}"), nil
	}
}

// idempotencyKey returns the request's Idempotency-Key, "" when it has none.
func idempotencyKey(h http.Header) (string, *Error) {
	values := h.Values(IdempotencyKeyHeader)
	if len(values) == 0 {
		return "", nil
	}
	if len(values) > 1 || !validIdempotencyKey(values[0]) {
		return "", errorf(http.StatusBadRequest, CodeParameterInvalid, IdempotencyKeyHeader,
			"The %s header must be sent once, 1 to %d printable ASCII characters.",
			IdempotencyKeyHeader, maxIdempotencyKeyLength)
	}
	return values[0], nil
}

func validIdempotencyKey(k string) bool {
	if k == "" || len(k) > maxIdempotencyKeyLength {
		return false
	}
	for _, c := range []byte(k) {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// requestHash is the hex SHA-256 of the method, the path and the validated
// parameters re-encoded as JSON: two bodies that differ only in white
// space, key order, the case of the currency or an explicit default (USD)
// are the same request. It is what an Idempotency-Key is bound to.
func requestHash(method, path string, params any) string {
	body, err := json.Marshal(params)
	if err != nil {
		panic(err) // params are plain structs of strings and numbers
	}
	h := sha256.New()
	_, _ = h.Write([]byte(method + "\n" + path + "\n")) // a hash never fails to write
	_, _ = h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// keyHash is requestHash when the request has an Idempotency-Key, and ""
// when it has none: only a key is bound to a hash, so a create without one
// does not re-encode its parameters.
func keyHash(key string, r *http.Request, params any) string {
	if key == "" {
		return ""
	}
	return requestHash(r.Method, r.URL.Path, params)
}
