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
	"sync"
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

// testBlocks compresses n blocks of blockRecords lines each and returns the
// first line's block of each, and the lines.
func testBlocks(t testing.TB, n int) ([]*sealedBlock, [][]byte) {
	lines := make([][]byte, n*blockRecords)
	for i := range lines {
		lines[i] = fmt.Appendf(nil, `{"kind":"Invoice","metadata":{"name":"inv-%06d"},"spec":{"amount":%d}}`, i, i*100)
	}
	perLine, err := compressBlocks(lines)
	if err != nil {
		t.Fatal(err)
	}
	blocks := make([]*sealedBlock, n)
	for i := range blocks {
		blocks[i] = perLine[i*blockRecords]
	}
	return blocks, lines
}

func TestABlockStaysInflatedUntilRecentBlocksOthersAreRead(t *testing.T) {
	blocks, lines := testBlocks(t, recentBlocks+1)
	first := blocks[0]
	if _, err := first.line(3); err != nil {
		t.Fatal(err)
	}
	kept := first.lines.Load()
	if kept == nil {
		t.Fatal("a block just read is not kept inflated")
	}
	if _, err := first.line(5); err != nil || first.lines.Load() != kept {
		t.Fatalf("a kept block was inflated again (err %v)", err)
	}
	for _, b := range blocks[1:] {
		if _, err := b.line(0); err != nil {
			t.Fatal(err)
		}
	}
	if first.lines.Load() != nil {
		t.Errorf("the block read %d blocks ago is still kept inflated", recentBlocks)
	}
	if got, err := first.line(7); err != nil || string(got) != string(lines[7]) {
		t.Errorf("line 7 of an evicted block = %s, %v; want %s", got, err, lines[7])
	}
}

func TestBlocksReadAtOnceGiveBackEachOfTheirLines(t *testing.T) {
	blocks, lines := testBlocks(t, 2*recentBlocks)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			for i := range 4 * len(lines) {
				n := (i*7 + w*131) % len(lines)
				got, err := blocks[n/blockRecords].line(n % blockRecords)
				if err == nil && string(got) != string(lines[n]) {
					err = fmt.Errorf("line %d is %s, want %s", n, got, lines[n])
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// BenchmarkReadingSealedRecords reads a block's every line in turn, as a
// page in seal order does (the block stays inflated), beside reading each
// line from a block other than the last recentBlocks (inflated every time).
func BenchmarkReadingSealedRecords(b *testing.B) {
	blocks, _ := testBlocks(b, 4*recentBlocks)
	b.Run("a block's lines in turn", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := blocks[(i/blockRecords)%len(blocks)].line(i % blockRecords); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("each line from another block", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := blocks[i%len(blocks)].line(i % blockRecords); err != nil {
				b.Fatal(err)
			}
		}
	})
}
