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

package document

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestPDFA3RefusesAFileItCannotRewrite(t *testing.T) {
	doc, err := PDF(twoRates(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := pdfA{Date: time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)}
	withCatalog := func(entry string) []byte {
		// The same length, so that the xref offsets stay right.
		return bytes.Replace(doc, []byte("/Pages 2 0 R"), []byte(entry), 1)
	}
	for _, c := range []struct {
		name, want string
		src        []byte
	}{
		{"not a PDF", "no startxref", []byte("hello")},
		{"a PDF cut before its end", "no startxref", doc[:len(doc)/2]},
		{"a startxref pointing elsewhere", "does not point to an xref table", bytes.Replace(doc, []byte("startxref\n"), []byte("startxref\n1"), 1)},
		{"an encrypted PDF", "encrypted", bytes.Replace(doc, []byte("/Root 1 0 R"), []byte("/Encrypt 9 0 R /Root 1 0 R"), 1)},
		{"a catalogue with metadata already", "already has /Metadata", withCatalog("/Metadata 20")},
	} {
		out, err := pdfA3(c.src, a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %d bytes and %v, want an error saying %q", c.name, len(out), err, c.want)
		}
	}
}

func TestATextStringAndANameKeepWhatPDFSyntaxWouldBreak(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{textString("Rechnung Ä €"), "<FEFF0052006500630068006E0075006E0067002000C4002020AC>"},
		{literalString(`a(b)\c`), `(a\(b\)\\c)`},
		{nameChars("text/xml"), "text#2Fxml"},
		{pdfDate(time.Date(2026, 3, 1, 11, 0, 0, 0, time.FixedZone("CET", 3600))), "D:20260301100000+00'00'"},
		{xmpDate(time.Date(2026, 3, 1, 11, 0, 0, 0, time.FixedZone("CET", 3600))), "2026-03-01T10:00:00+00:00"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}
