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
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// Sealed records are kept compressed (sealed.go): a seal's records, in
// their order, in blocks of blockRecords lines compressed together with
// DEFLATE at its fastest level. Records of one seal are alike, so a block
// compresses about nine times (a sealed invoice and its payment take some
// 270 bytes instead of some 2,400 as JSON, or some 10 KB decoded), and a
// record is read back by inflating its block (some 30 µs; the blocks read
// last stay inflated, recentBlocks) and decoding its line. A million
// sealed invoices cost the adapter a few hundred MB, not ten GB.

// blockRecords is how many records a block holds: more compresses better
// and costs more to read one record back.
const blockRecords = 16

// recentBlocks is how many blocks stay inflated after a read. A seal's
// records alternate between its kinds (an invoice, its payment, the next
// invoice), so a page of invoices in seal order reads each block about
// eight times in a row: kept inflated, a block is inflated once per page
// instead of once per record, which was half of a list's CPU at a million
// sealed invoices (docs/performance.md). A few dozen serve that many
// pages read at once; each costs some 40 KB.
const recentBlocks = 64

// sealedBlock is one compressed block of JSON lines, each ended by '\n'.
type sealedBlock struct {
	data []byte
	// lines holds the block's lines inflated while it is among the
	// recentBlocks read last (inflatedBlocks), else nil.
	lines atomic.Pointer[[][]byte]
}

// inflatedBlocks is the ring of the blocks kept inflated, the oldest
// evicted (its lines dropped) when another is kept.
var inflatedBlocks struct {
	mu   sync.Mutex
	ring [recentBlocks]*sealedBlock
	next int
}

// sealedRef is where a sealed record is kept: its block, its place in it,
// and its seal's name.
type sealedRef struct {
	block *sealedBlock
	index int
	seal  string
}

var (
	deflaters = sync.Pool{New: func() any {
		w, err := flate.NewWriter(io.Discard, flate.BestSpeed)
		if err != nil {
			panic(err) // only for a level out of range
		}
		return w
	}}
	inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
)

// compressBlocks compresses lines, blockRecords at a time, and returns
// each line's block.
func compressBlocks(lines [][]byte) ([]*sealedBlock, error) {
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	out := make([]*sealedBlock, len(lines))
	var buf bytes.Buffer
	for i := 0; i < len(lines); i += blockRecords {
		buf.Reset()
		w.Reset(&buf)
		end := min(i+blockRecords, len(lines))
		for _, line := range lines[i:end] {
			if _, err := w.Write(line); err != nil {
				return nil, err
			}
			if _, err := w.Write([]byte{'\n'}); err != nil {
				return nil, err
			}
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
		b := &sealedBlock{data: bytes.Clone(buf.Bytes())}
		for j := i; j < end; j++ {
			out[j] = b
		}
	}
	return out, nil
}

// line returns the block's index-th line, from its inflated lines while it
// is kept, else inflating it and keeping it. The line is shared with every
// other reader of the block: read it, never change it.
func (b *sealedBlock) line(index int) ([]byte, error) {
	lines := b.lines.Load()
	if lines == nil {
		inflated, err := b.inflate()
		if err != nil {
			return nil, err
		}
		lines = &inflated
		keepInflated(b, lines)
	}
	if index < 0 || index >= len(*lines) {
		return nil, fmt.Errorf("a block of sealed records has no line %d", index)
	}
	return (*lines)[index], nil
}

// inflate returns the block's lines, decompressed.
func (b *sealedBlock) inflate() ([][]byte, error) {
	r := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(b.data), nil); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("inflating a block of sealed records: %w", err)
	}
	lines := make([][]byte, 0, blockRecords)
	for len(raw) > 0 {
		line, rest, found := bytes.Cut(raw, []byte{'\n'})
		if !found {
			return nil, errors.New("a block of sealed records ends inside a line")
		}
		lines = append(lines, line)
		raw = rest
	}
	return lines, nil
}

// keepInflated keeps b's lines in the ring, evicting the oldest block's,
// unless another reader kept b first. A block is in the ring at most once:
// its lines are nil exactly when it is not.
func keepInflated(b *sealedBlock, lines *[][]byte) {
	inflatedBlocks.mu.Lock()
	defer inflatedBlocks.mu.Unlock()
	if !b.lines.CompareAndSwap(nil, lines) {
		return
	}
	if old := inflatedBlocks.ring[inflatedBlocks.next]; old != nil {
		old.lines.Store(nil)
	}
	inflatedBlocks.ring[inflatedBlocks.next] = b
	inflatedBlocks.next = (inflatedBlocks.next + 1) % recentBlocks
}
