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

package jsonscan

import "testing"

func TestSkipSpaceStopsAtTheFirstByteThatIsNotWhiteSpace(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		from int
		want int
	}{
		{"no white space stays put", `{}`, 0, 0},
		{"spaces, tabs and line ends are skipped", " \t\r\n{", 0, 4},
		{"skipping starts at the index given", `{  }`, 1, 3},
		{"all white space ends at the end", "  ", 0, 2},
		{"a form feed is not JSON white space", "\f{", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SkipSpace([]byte(tc.data), tc.from); got != tc.want {
				t.Errorf("SkipSpace(%q, %d) = %d, want %d", tc.data, tc.from, got, tc.want)
			}
		})
	}
}

func TestStringEndFindsTheClosingQuoteAndTellsEscapes(t *testing.T) {
	for _, tc := range []struct {
		name        string
		data        string
		wantEnd     int
		wantEscaped bool
	}{
		{"a plain string ends after its quote", `"acme",`, 6, false},
		{"an escaped quote does not end it", `"a\"b"`, 6, true},
		{"an escaped backslash before the quote does", `"a\\"x`, 5, true},
		{"an unterminated string has no end", `"acme`, -1, false},
		{"a raw control character is refused", "\"a\nb\"", -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			end, escaped := StringEnd([]byte(tc.data), 0)
			if end != tc.wantEnd || escaped != tc.wantEscaped {
				t.Errorf("StringEnd(%q) = %d, %v; want %d, %v", tc.data, end, escaped, tc.wantEnd, tc.wantEscaped)
			}
		})
	}
}

func TestValueEndFindsTheEndOfEachKindOfValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want int
	}{
		{"a string", `"x" ,`, 3},
		{"a number ends at a comma", `12.5e3,`, 6},
		{"a literal ends at a closing bracket", `true}`, 4},
		{"a value running to the end has no end", `123`, -1},
		{"an object ends at its matching brace", `{"a":{"b":[1,2]}},`, 17},
		{"brackets inside strings do not count", `{"a":"}]"}x`, 10},
		{"an unclosed array has no end", `[1,[2]`, -1},
		{"nothing where a value should be", `,`, -1},
		{"past the end", ``, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ValueEnd([]byte(tc.data), 0); got != tc.want {
				t.Errorf("ValueEnd(%q) = %d, want %d", tc.data, got, tc.want)
			}
		})
	}
}
