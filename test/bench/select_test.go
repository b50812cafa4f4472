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

import "testing"

func TestSelectedRunsTheAskedMeasurementsAndWhatTheyRead(t *testing.T) {
	cases := []struct {
		name string
		only []string
		step string
		want bool
	}{
		{"nothing asked runs every measurement", nil, "4. controller", true},
		{"the warm-up always runs", []string{"4"}, "warm-up", true},
		{"an asked measurement runs", []string{"4", "6"}, "6. numbering", true},
		{"a measurement not asked is skipped", []string{"4"}, "1. create", false},
		{"get runs create, whose invoices it reads", []string{"2"}, "1. create", true},
		{"list runs create, whose invoices it reads", []string{"3"}, "1. create", true},
		{"get does not run list", []string{"2"}, "3. list", false},
		{"a full run leaves out the million", nil, millionStep, false},
		{"the million runs when named", []string{"million"}, millionStep, true},
		{"the million runs by its number", []string{"11"}, millionStep, true},
		{"the million alone runs nothing else", []string{"million"}, "5. memory", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := selected(tc.only, tc.step); got != tc.want {
				t.Errorf("selected(%q, %q) = %v, want %v", tc.only, tc.step, got, tc.want)
			}
		})
	}
}
