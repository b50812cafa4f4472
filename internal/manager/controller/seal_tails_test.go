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

package controller

import (
	"errors"
	"testing"

	. "github.com/onsi/gomega"
)

func TestTheTailsOfMovesRunOneAfterAnotherAndAFailureStopsTheRest(t *testing.T) {
	failed := errors.New("deleting failed")
	for _, tc := range []struct {
		name    string
		results []error // what each tail returns, in the order started
		ran     int     // how many tails ran
		wantErr error
	}{
		{"no tail is no error", nil, 0, nil},
		{"every tail runs, in order", []error{nil, nil, nil}, 3, nil},
		{"a failed tail stops the ones after it", []error{nil, failed, nil}, 2, failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			tails := &moveTails{}
			var order []int
			var startErr error
			for i, result := range tc.results {
				if startErr = tails.start(func() error {
					order = append(order, i)
					return result
				}); startErr != nil {
					break
				}
			}
			if err := errors.Join(startErr, tails.wait()); tc.wantErr == nil {
				g.Expect(err).NotTo(HaveOccurred())
			} else {
				g.Expect(err).To(MatchError(tc.wantErr))
			}
			g.Expect(order).To(HaveLen(tc.ran))
			for i, got := range order {
				g.Expect(got).To(Equal(i))
			}
		})
	}
}
