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
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/adapter/camt"
)

// FuzzRead reads any bytes: Read never panics, refuses with an
// *InvalidError of 1 to 20 reasons, each naming a path, and what it
// accepts holds amounts it could convert.
func FuzzRead(f *testing.F) {
	valid, _ := filepath.Glob("testdata/*.xml")
	invalid, _ := filepath.Glob("testdata/invalid/*")
	for _, name := range append(valid, invalid...) {
		doc, err := os.ReadFile(name) //nolint:gosec // a fixture
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		st, err := camt.Read(doc)
		if err != nil {
			var invalid *camt.InvalidError
			if !errors.As(err, &invalid) {
				t.Fatalf("Read = %v, not an *InvalidError", err)
			}
			if n := len(invalid.Reasons); n == 0 || n > 20 {
				t.Fatalf("%d reasons: %q", n, invalid.Reasons)
			}
			for _, r := range invalid.Reasons {
				if !strings.HasPrefix(r, "/") || !strings.Contains(r, ": ") {
					t.Fatalf("reason %q names no path", r)
				}
			}
			return
		}
		if len(st.SHA256) != 64 || len(st.Accounts) == 0 {
			t.Fatalf("statement %+v", st)
		}
		for _, a := range st.Accounts {
			for _, tx := range a.Transactions {
				if tx.Minor < 0 || (tx.Direction != camt.Credit && tx.Direction != camt.Debit) || tx.Currency == "" || tx.Entry < 1 {
					t.Fatalf("transaction %+v", tx)
				}
			}
		}
	})
}
