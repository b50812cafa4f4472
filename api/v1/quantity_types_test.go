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

package v1

import (
	"encoding/json"
	"testing"
)

func TestDecimalQuantityReadsAndWritesJSONNumbersExactly(t *testing.T) {
	tests := []struct {
		name, in, out string
		scaled        int64
		ok            bool
	}{
		{"a whole number reads and writes unchanged", "3", "3", 30000, true},
		{"7.5 is 7.5", "7.5", "7.5", 75000, true},
		{"trailing zeros are dropped", "7.5000", "7.5", 75000, true},
		{"four decimals are kept", "1234.5678", "1234.5678", 12345678, true},
		{"the smallest step is 0.0001", "0.0001", "0.0001", 1, true},
		{"an exponent is read exactly", "7.5e2", "750", 7500000, true},
		{"a small exponent within 4 decimals is read", "25e-4", "0.0025", 25, true},
		{"a whole number with a point and zeros is whole", "3.0", "3", 30000, true},
		{"five decimals are refused", "7.50001", "", 0, false},
		{"a string is refused", "\"7.5\"", "", 0, false},
		{"a bare point is refused", "7.", "", 0, false},
		{"a number beyond int64 is refused", "1e30", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var q DecimalQuantity
			err := json.Unmarshal([]byte(tt.in), &q)
			if (err == nil) != tt.ok {
				t.Fatalf("Unmarshal(%s) error = %v, want ok %v", tt.in, err, tt.ok)
			}
			if !tt.ok {
				return
			}
			out, _ := json.Marshal(q)
			if q.Scaled() != tt.scaled || string(out) != tt.out {
				t.Errorf("Unmarshal(%s) = %d, writes %s; want %d, %s", tt.in, q.Scaled(), out, tt.scaled, tt.out)
			}
		})
	}
}
