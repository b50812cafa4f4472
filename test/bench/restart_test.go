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

import (
	"math"
	"testing"
)

func TestTheLinearFitExtrapolatesTheRestartTimes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		xs, ys []float64
		at     float64
		want   float64
	}{
		{"two sizes give the line through both", []float64{100_000, 200_000}, []float64{10, 18}, 1_000_000, 82},
		{"one size gives the line through the origin", []float64{100_000}, []float64{5}, 1_000_000, 50},
		{"no size gives nothing", nil, nil, 1_000_000, 0},
		{"three sizes give the least-squares line", []float64{1, 2, 3}, []float64{1, 3, 2}, 4, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := linearAt(tc.xs, tc.ys, tc.at); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("linearAt(%v, %v, %v) = %v, want %v", tc.xs, tc.ys, tc.at, got, tc.want)
			}
		})
	}
}

func TestExtrapolationLeavesOutTheRunsWithoutTheWatchCache(t *testing.T) {
	runs := []restartRun{
		{Invoices: 100, WatchCache: true, AdapterReadyS: 1},
		{Invoices: 200, WatchCache: true, AdapterReadyS: 2},
		{Invoices: 200, WatchCache: false, AdapterReadyS: 50},
	}
	if got := extrapolate(runs, 1000, func(r restartRun) float64 { return r.AdapterReadyS }); math.Abs(got-10) > 1e-9 {
		t.Errorf("extrapolated %v, want 10", got)
	}
}
