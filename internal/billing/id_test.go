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

package billing_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// ulidLength is the length of a ULID in Crockford base 32.
const ulidLength = 26

func TestNewID(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
	}{
		{"a customer id starts with cus-", recordkind.Customer.IDPrefix},
		{"an invoice id starts with inv-", recordkind.Invoice.IDPrefix},
		{"a credit note id starts with cn-", recordkind.CreditNote.IDPrefix},
		{"a payment id starts with pay-", recordkind.Payment.IDPrefix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := billing.NewID(tt.prefix)
			if !strings.HasPrefix(id, tt.prefix) {
				t.Errorf("NewID(%q) = %q, want the prefix", tt.prefix, id)
			}
			if got := len(id) - len(tt.prefix); got != ulidLength {
				t.Errorf("NewID(%q) = %q has %d characters after the prefix, want %d", tt.prefix, id, got, ulidLength)
			}
			if id != strings.ToLower(id) {
				t.Errorf("NewID(%q) = %q is not lower-case", tt.prefix, id)
			}
			if errs := validation.IsDNS1123Subdomain(id); len(errs) > 0 {
				t.Errorf("NewID(%q) = %q is not a valid object name: %v", tt.prefix, id, errs)
			}
			if errs := validation.IsDNS1123Label(id); len(errs) > 0 {
				t.Errorf("NewID(%q) = %q is not a valid DNS-1123 label: %v", tt.prefix, id, errs)
			}
		})
	}
}

func TestNewIDSortsInCreationOrder(t *testing.T) {
	// Many ids fall in the same millisecond, so this also checks that the
	// entropy within one millisecond increases. Strictly increasing ids are
	// also all different.
	const n = 10_000
	previous := billing.NewID(recordkind.Invoice.IDPrefix)
	for i := 1; i < n; i++ {
		id := billing.NewID(recordkind.Invoice.IDPrefix)
		if id <= previous {
			t.Fatalf("id %d %q does not sort after the one before it, %q", i, id, previous)
		}
		previous = id
	}
}
