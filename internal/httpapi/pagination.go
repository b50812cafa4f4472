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

package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
)

// cursor is what a next_cursor stands for: the id after which the next
// page starts. Ids are object names and pages are ordered by them, so a
// cursor never expires and a walk sees every object that existed when it
// began exactly once, however many are created meanwhile.
type cursor struct {
	After string `json:"after"`
}

func encodeCursor(after string) string {
	b, _ := json.Marshal(cursor{After: after}) // a struct of one string always marshals
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a next_cursor; anything else is 400 parameter_invalid.
func decodeCursor(s string) (string, *Error) {
	bad := errorf(http.StatusBadRequest, CodeParameterInvalid, queryCursor,
		"cursor must be the next_cursor of a previous page.")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", bad
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var c cursor
	if err := dec.Decode(&c); err != nil || dec.More() || !validName(c.After) {
		return "", bad
	}
	return c.After, nil
}

var limitPattern = regexp.MustCompile(`^[0-9]{1,3}$`)

// pageParams reads the limit (1-100, default 20) and cursor of a list.
func pageParams(q url.Values) (limit int, after string, e *Error) {
	limit = listLimitDefault
	if q.Has(queryLimit) {
		s := q.Get(queryLimit)
		n, err := strconv.Atoi(s)
		if !limitPattern.MatchString(s) || err != nil || n < 1 || n > listLimitMax {
			return 0, "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryLimit,
				"limit must be a whole number from 1 to %d.", listLimitMax)
		}
		limit = n
	}
	if q.Has(queryCursor) {
		if after, e = decodeCursor(q.Get(queryCursor)); e != nil {
			return 0, "", e
		}
	}
	return limit, after, nil
}
