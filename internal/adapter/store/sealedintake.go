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
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/invoicing-dev/invoicing/internal/seal"
)

// Reading a verified seal's records for the indexes. A seal's records are
// read in chunks on as many goroutines as GOMAXPROCS allows: each chunk
// compresses its lines into blocks, decodes the fields its indexes read
// (seal.Indexed) and names each record's sets, none of which depends on
// another chunk. What depends
// on order, the chain's check against the previous seal's hash and the
// indexes, stays in takeSeal, one seal at a time, in the order the
// informer delivers them.

// minChunkRecords is the fewest records a chunk of its own is worth: a
// goroutine costs a few µs, a record some ten.
const minChunkRecords = 64 * blockRecords

// readSealed reads the records of raw, a verified payload of the seal
// sealName: each record's indexed fields, and where its line is kept.
func readSealed(raw []byte, sealName string) ([]sealedTake, error) {
	lines, err := seal.RawRecords(raw)
	if err != nil {
		return nil, err
	}
	out := make([]sealedTake, len(lines))
	var g errgroup.Group
	for _, c := range chunks(len(lines), runtime.GOMAXPROCS(0)) {
		g.Go(func() error { return readChunk(lines[c.from:c.to], out[c.from:c.to], sealName) })
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// chunk is the records [from, to) of a seal.
type chunk struct{ from, to int }

// chunks splits n records into at most workers chunks of whole blocks
// (each but the last a multiple of blockRecords long, so that each
// compresses into the blocks the whole seal would), none shorter than
// minChunkRecords unless it is the only one.
func chunks(n, workers int) []chunk {
	size := max(minChunkRecords, (n+workers-1)/max(workers, 1))
	size = (size + blockRecords - 1) / blockRecords * blockRecords
	var out []chunk
	for from := 0; from < n; from += size {
		out = append(out, chunk{from: from, to: min(from+size, n)})
	}
	return out
}

// readChunk reads lines, a chunk of a seal's records that starts at a
// block's first line, into out: each line kept compressed, and its
// indexed fields.
func readChunk(lines []seal.RawRecord, out []sealedTake, sealName string) error {
	raw := make([][]byte, len(lines))
	for i, l := range lines {
		raw[i] = l.Line
	}
	blocks, err := compressBlocks(raw)
	if err != nil {
		return err
	}
	for i, l := range lines {
		obj, err := seal.Indexed(l.Kind, l.Line)
		if err != nil {
			return err
		}
		out[i] = sealedTake{obj: obj, sets: setsOf(l.Kind)(obj),
			ref: &sealedRef{block: blocks[i], index: i % blockRecords, seal: sealName}}
	}
	return nil
}
