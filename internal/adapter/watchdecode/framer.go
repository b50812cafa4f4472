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

package watchdecode

import (
	"bufio"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// framer splits a watch stream into its JSON values as json.Framer does,
// by matching brackets outside strings instead of running encoding/json's
// scanner over every byte: the values are decoded, and so checked, after.
type framer struct{}

var _ runtime.Framer = framer{}

func (framer) NewFrameWriter(w io.Writer) io.Writer { return json.Framer.NewFrameWriter(w) }

func (framer) NewFrameReader(r io.ReadCloser) io.ReadCloser {
	return &frameReader{body: r, in: bufio.NewReaderSize(r, 32<<10)}
}

type frameReader struct {
	body io.ReadCloser
	in   *bufio.Reader
	// frame is the last frame read, remaining what of it Read has not
	// handed out yet.
	frame, remaining []byte
}

func (r *frameReader) Close() error { return r.body.Close() }

// Read reads the next frame into data, or, when data is too short for it,
// as much as fits with io.ErrShortBuffer and the rest in the next Reads,
// as json.Framer's reader does.
func (r *frameReader) Read(data []byte) (int, error) {
	if len(r.remaining) == 0 {
		frame, err := r.next()
		if err != nil {
			return 0, err
		}
		r.remaining = frame
	}
	n := copy(data, r.remaining)
	r.remaining = r.remaining[n:]
	if len(r.remaining) > 0 {
		return n, io.ErrShortBuffer
	}
	return n, nil
}

// next reads the next object or array of the stream.
func (r *frameReader) next() ([]byte, error) {
	var c byte
	for {
		var err error
		if c, err = r.in.ReadByte(); err != nil {
			return nil, err // io.EOF between frames: the stream ended
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
	}
	if c != '{' && c != '[' {
		return nil, fmt.Errorf("invalid character %q looking for the beginning of a watch event", c)
	}
	frame := append(r.frame[:0], c)
	s := bracketScan{depth: 1}
	for s.depth > 0 {
		if _, err := r.in.Peek(1); err != nil {
			if err == io.EOF { //nolint:errorlint // bufio returns io.EOF itself.
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		buffered, _ := r.in.Peek(r.in.Buffered())
		n := s.scan(buffered)
		frame = append(frame, buffered[:n]...)
		_, _ = r.in.Discard(n) // n bytes are buffered
	}
	r.frame = frame
	return frame, nil
}

// bracketScan follows the nesting of JSON text across chunks.
type bracketScan struct {
	depth            int
	inString, escape bool
}

// scan reads b until the outermost value ends, and returns how many bytes
// of b it read.
func (s *bracketScan) scan(b []byte) int {
	for i, c := range b {
		switch {
		case s.inString:
			switch {
			case s.escape:
				s.escape = false
			case c == '\\':
				s.escape = true
			case c == '"':
				s.inString = false
			}
		case c == '"':
			s.inString = true
		case c == '{', c == '[':
			s.depth++
		case c == '}', c == ']':
			if s.depth--; s.depth == 0 {
				return i + 1
			}
		}
	}
	return len(b)
}
