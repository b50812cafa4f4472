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
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// frames reads every frame of stream with a reader of framer f, through a
// buffer of size bytes, and the error that ended the stream.
func frames(newReader func(io.ReadCloser) io.ReadCloser, stream io.Reader, size int) ([]string, error) {
	r := newReader(io.NopCloser(stream))
	var out []string
	var frame []byte
	buf := make([]byte, size)
	for {
		n, err := r.Read(buf)
		frame = append(frame, buf[:n]...)
		switch {
		case errors.Is(err, io.ErrShortBuffer):
			continue
		case err != nil:
			return out, err
		}
		out = append(out, string(frame))
		frame = nil
	}
}

func TestFramerSplitsAsJSONFramerDoes(t *testing.T) {
	event := `{"type":"ADDED","object":` + invoiceJSON + `}`
	for _, tc := range []struct {
		name   string
		stream string
	}{
		{"events a line each split into events", event + "\n" + event + "\n"},
		{"events without separators split the same", event + event + " \t\r\n" + event},
		{"brackets and escaped quotes inside strings do not end a frame",
			`{"type":"ADDED","object":{"s":"}]{[\"}\\","t":["]"]}}` + "\n" + `[1,{"a":"\\\\"}]`},
		{"an empty stream has no frames", ""},
		{"a stream that stops inside a frame ends with the frame unread", event + "\n" + event[:100]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range []int{7, 64 << 10} {
				want, wantErr := frames(json.Framer.NewFrameReader, strings.NewReader(tc.stream), size)
				got, gotErr := frames(framer{}.NewFrameReader, iotest.OneByteReader(strings.NewReader(tc.stream)), size)
				if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
					t.Errorf("buffer of %d: frames\n%q\njson.Framer's\n%q", size, got, want)
				}
				if !errors.Is(gotErr, wantErr) {
					t.Errorf("buffer of %d: the stream ended with %v, json.Framer's with %v", size, gotErr, wantErr)
				}
			}
		})
	}
}

func TestFramerRefusesWhatIsNotAnObject(t *testing.T) {
	_, err := frames(framer{}.NewFrameReader, strings.NewReader(`"event"`), 64)
	if err == nil || errors.Is(err, io.EOF) {
		t.Errorf("a stream of a string ended with %v, not an error", err)
	}
}
