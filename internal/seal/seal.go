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

// Package seal is the pinned format of a LedgerSeal (docs/ledger.md#seals):
// how sealed records are written into a payload, how the payload and the
// chain are hashed, and how a seal is checked and read back. The manager
// writes seals with it, the adapter serves sealed records and verifies the
// chain with it, and cmd/verifyseals checks a chain from YAML with it; the
// adapter's store, the manager's index of sealed records and
// cmd/verifyseals read each link with one reader (chain.go: ReadLink,
// PreviousHash, ReadChain).
// Nothing here talks to the API server.
package seal

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// MaxPayloadBytes is the size of encoded payload (base64 of the gzip) a
// seal aims at: etcd refuses a request above 1.5 MiB, and a seal this size
// leaves room for the rest of the object. A family is never split, so a
// seal may pass it by one family; MaxEncodedBytes is the hard limit (the
// CRD's).
const MaxPayloadBytes = 512 * 1024

// MaxEncodedBytes is the largest spec.payload the CRD admits.
const MaxEncodedBytes = 1024 * 1024

// Name is the name of a workspace's seal of the given sequence:
// "seal-000042".
func Name(sequence int64) string {
	return fmt.Sprintf("%s%06d", billingv1.SealNamePrefix, sequence)
}

// SequenceOf parses a seal's name back to its sequence; ok is false for a
// name that is not a seal's.
func SequenceOf(name string) (int64, bool) {
	digits, found := strings.CutPrefix(name, billingv1.SealNamePrefix)
	if !found || len(digits) < 6 {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n < 1 || Name(n) != name {
		return 0, false
	}
	return n, true
}

// ChainHash is spec.hash: the lower-case hex SHA-256 of
// "<namespace>\n<sequence>\n<previousHash>\n<payloadSHA256>\n".
func ChainHash(namespace string, sequence int64, previousHash, payloadSHA256 string) string {
	sum := sha256.Sum256([]byte(namespace + "\n" + strconv.FormatInt(sequence, 10) + "\n" +
		previousHash + "\n" + payloadSHA256 + "\n"))
	return hex.EncodeToString(sum[:])
}

// Encoded is a payload ready for a seal's spec.
type Encoded struct {
	// Payload is spec.payload: standard base64 of the gzip.
	Payload string
	// SHA256 is spec.payloadSHA256: of the uncompressed bytes.
	SHA256 string
}

// Encode compresses the JSON lines (each one record, without its newline)
// into a seal's payload. The gzip header carries no time and no name, so
// the same lines always give the same payload.
func Encode(lines [][]byte) (Encoded, error) {
	raw := Join(lines)
	var gz bytes.Buffer
	w, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return Encoded{}, fmt.Errorf("starting the gzip: %w", err)
	}
	if _, err := w.Write(raw); err != nil {
		return Encoded{}, fmt.Errorf("compressing the payload: %w", err)
	}
	if err := w.Close(); err != nil {
		return Encoded{}, fmt.Errorf("compressing the payload: %w", err)
	}
	sum := sha256.Sum256(raw)
	return Encoded{Payload: base64.StdEncoding.EncodeToString(gz.Bytes()), SHA256: hex.EncodeToString(sum[:])}, nil
}

// Join is the uncompressed payload of lines: each line followed by "\n".
func Join(lines [][]byte) []byte {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	raw := make([]byte, 0, n)
	for _, l := range lines {
		raw = append(raw, l...)
		raw = append(raw, '\n')
	}
	return raw
}

// Gzip is the gzip a seal's spec.payload holds, as stored: what
// GET /v1/seals/{name}/payload answers.
func Gzip(spec *billingv1.LedgerSealSpec) ([]byte, error) {
	gz, err := base64.StdEncoding.DecodeString(spec.Payload)
	if err != nil {
		return nil, fmt.Errorf("spec.payload is not standard base64: %w", err)
	}
	return gz, nil
}

// Uncompressed is a seal's payload: the JSON lines, each ending in "\n".
func Uncompressed(spec *billingv1.LedgerSealSpec) ([]byte, error) {
	gz, err := Gzip(spec)
	if err != nil {
		return nil, err
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("spec.payload is not a gzip: %w", err)
	}
	var raw bytes.Buffer
	// A payload is at most MaxEncodedBytes compressed; no honest one
	// inflates beyond 64 MiB.
	const limit = 64 << 20
	// The gzip's trailer says how long the payload is: the buffer is
	// made that long at once, not doubled a dozen times over the read
	// (a process reads hundreds of seals when it starts).
	if n := len(gz); n >= 4 {
		if size := binary.LittleEndian.Uint32(gz[n-4:]); size <= limit {
			raw.Grow(int(size) + bytes.MinRead)
		}
	}
	n, err := raw.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("spec.payload is not a gzip: %w", err)
	}
	if n > limit {
		return nil, fmt.Errorf("spec.payload inflates beyond %d bytes", limit)
	}
	return raw.Bytes(), nil
}
