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

package watchdecode

import (
	"bytes"
	"unicode/utf8"

	"github.com/invoicing-dev/invoicing/internal/jsonscan"
)

// A scanner of the top level of a JSON object, for the two shapes the fast
// paths read: a watch event ({"type": ..., "object": {...}}) and the
// apiVersion and kind of an object. It finds where each member's value
// starts and ends without decoding it. It reports failure on anything it
// does not read fully (a key with an escape, malformed input); the caller
// then hands the data to the standard decoder, which reads it, or rejects
// it, as it always did.

// members calls fn with each member of the object data, key (without its
// quotes) and raw value, in order, and reports whether data is one object
// (with only white space around it) that it read fully and fn accepted
// every member.
func members(data []byte, fn func(key, value []byte) bool) bool {
	i := jsonscan.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = jsonscan.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return jsonscan.SkipSpace(data, i+1) == len(data)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return false
		}
		end, escaped := jsonscan.StringEnd(data, i)
		if end < 0 || escaped {
			return false
		}
		key := data[i+1 : end-1]
		i = jsonscan.SkipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = jsonscan.SkipSpace(data, i+1)
		vEnd := jsonscan.ValueEnd(data, i)
		if vEnd < 0 || !fn(key, data[i:vEnd]) {
			return false
		}
		i = jsonscan.SkipSpace(data, vEnd)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = jsonscan.SkipSpace(data, i+1)
		case '}':
			return jsonscan.SkipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
}

// plainString returns the contents of the JSON string v when it has no
// escapes and is valid UTF-8: then they are its value as is.
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	s := v[1 : len(v)-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	return string(s), true
}

// isASCII reports whether b has only ASCII bytes.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
