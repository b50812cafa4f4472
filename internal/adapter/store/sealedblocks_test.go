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

package store

import (
	"fmt"
	"testing"
)

func TestABlockGivesBackEachOfItsLines(t *testing.T) {
	for _, n := range []int{1, blockRecords - 1, blockRecords, blockRecords + 1, 3*blockRecords + 5} {
		t.Run(fmt.Sprintf("%d lines", n), func(t *testing.T) {
			lines := make([][]byte, n)
			for i := range lines {
				lines[i] = fmt.Appendf(nil, `{"kind":"Invoice","metadata":{"name":"inv-%04d"},"spec":{"amount":%d}}`, i, i*100)
			}
			blocks, err := compressBlocks(lines)
			if err != nil {
				t.Fatal(err)
			}
			if len(blocks) != n {
				t.Fatalf("%d blocks for %d lines, want one per line", len(blocks), n)
			}
			for i, want := range lines {
				got, err := blocks[i].line(i % blockRecords)
				if err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
				if string(got) != string(want) {
					t.Errorf("line %d is %s, want %s", i, got, want)
				}
			}
			if n > blockRecords && blocks[0] == blocks[blockRecords] {
				t.Errorf("lines %d and 0 share a block of %d lines", blockRecords, blockRecords)
			}
		})
	}
}

func TestALinePastABlocksEndIsAnError(t *testing.T) {
	blocks, err := compressBlocks([][]byte{[]byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := blocks[0].line(1); err == nil {
		t.Error("line 1 of a block of one line: no error")
	}
}
