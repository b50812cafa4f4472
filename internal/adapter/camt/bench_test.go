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

package camt_test

import (
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/adapter/camt"
)

// BenchmarkReadingAFiveMegabyteStatement reads a statement of the size
// the adapter accepts at most: the batch fixture's entries repeated.
func BenchmarkReadingAFiveMegabyteStatement(b *testing.B) {
	doc := fixture(b, "v02-batch.xml")
	start, end := strings.Index(doc, "<Ntry>"), strings.LastIndex(doc, "</Ntry>")+len("</Ntry>")
	entries := doc[start:end]
	big := doc[:start] + strings.Repeat(entries, 5<<20/len(entries)) + doc[end:]
	b.SetBytes(int64(len(big)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := camt.Read([]byte(big)); err != nil {
			b.Fatal(err)
		}
	}
}
