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

package numbering

import (
	"errors"
	"testing"
)

func TestFormat(t *testing.T) {
	cases := []struct {
		name     string
		prefix   string
		sequence int64
		want     string
		wantErr  error
	}{
		{name: "the first sequence is padded to six digits", prefix: "INV-", sequence: 1, want: "INV-000001"},
		{name: "a two-digit sequence is padded to six digits", prefix: "INV-", sequence: 42, want: "INV-000042"},
		{name: "a six-digit sequence is printed as it is", prefix: "INV-", sequence: 999999, want: "INV-999999"},
		{name: "a seven-digit sequence keeps all its digits", prefix: "INV-", sequence: 1234567, want: "INV-1234567"},
		{name: "the largest sequence keeps all its digits", prefix: "INV-", sequence: 1<<63 - 1, want: "INV-9223372036854775807"},
		{name: "an empty prefix gives the bare padded sequence", prefix: "", sequence: 7, want: "000007"},
		{name: "a prefix with slashes and dots is kept as it is", prefix: "2026/A.", sequence: 12, want: "2026/A.000012"},
		{name: "sequence zero is refused", prefix: "INV-", sequence: 0, wantErr: ErrInvalidSequence},
		{name: "a negative sequence is refused", prefix: "INV-", sequence: -42, wantErr: ErrInvalidSequence},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Format(tc.prefix, tc.sequence)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Format(%q, %d) error = %v, want %v", tc.prefix, tc.sequence, err, tc.wantErr)
			}
			if got != tc.want {
				t.Fatalf("Format(%q, %d) = %q, want %q", tc.prefix, tc.sequence, got, tc.want)
			}
		})
	}
}
