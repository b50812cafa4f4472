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

// Package jsonscan finds where JSON text's white space, strings and values
// end, without decoding them. The adapter's request body parser and its
// watch decoder read JSON with it, and so does the field scan of sealed
// records (seal.Indexed); none relies on it to validate: the body parser
// runs after encoding/json has accepted the body, the watch decoder hands
// anything it cannot read fully to the standard decoder, and a seal's
// lines are read only once its hash has proved them the ones written.
package jsonscan

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space, or len(data).
func SkipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// StringEnd returns the index after the closing quote of the string that
// starts (with its opening quote) at data[i], and whether it has escapes;
// -1 when it does not end or holds a raw control character.
func StringEnd(data []byte, i int) (end int, escaped bool) {
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '\\':
			escaped = true
			j++
		case c == '"':
			return j + 1, escaped
		case c < 0x20:
			return -1, false
		}
	}
	return -1, false
}

// ValueEnd returns the index after the value that starts at data[i], or -1.
// Objects and arrays are matched by their brackets only: their contents are
// checked by whoever decodes them.
func ValueEnd(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		end, _ := StringEnd(data, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, _ := StringEnd(data, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			if j == i {
				return -1
			}
			return j
		}
		j++
	}
	return -1
}
