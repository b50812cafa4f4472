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
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// emailOfLength returns a valid-looking address of exactly n characters
// (runes), its local part made of local repeated.
func emailOfLength(n int, local string) string {
	const domain = "@example.com"
	return strings.Repeat(local, n-utf8.RuneCountInString(domain)) + domain
}

func TestValidEmail(t *testing.T) {
	tests := []struct {
		name  string
		email string
		want  bool
	}{
		{"a plain address is accepted", "ada@example.com", true},
		{"dots, plus tags and sub-domains are accepted", "ada.lovelace+invoices@mail.example.co.uk", true},
		{"a single-label domain is accepted", "ada@localhost", true},
		{"upper-case letters are accepted as they are", "Ada@Example.COM", true},
		{"a display name with angle brackets is refused", "Ada <ada@example.com>", false},
		{"a quoted display name is refused", `"Ada Lovelace" <ada@example.com>`, false},
		{"an address in angle brackets is refused", "<ada@example.com>", false},
		{"a trailing comment is refused", "ada@example.com (Ada)", false},
		{"a quoted local part is refused", `"ada"@example.com`, false},
		{"a domain literal is refused", "ada@[192.0.2.1]", false},
		{"two addresses separated by a comma are refused", "ada@example.com,bob@example.com", false},
		{"a space inside the local part is refused", "ada lovelace@example.com", false},
		{"a leading space is refused", " ada@example.com", false},
		{"a trailing space is refused", "ada@example.com ", false},
		{"a tab is refused", "ada@example.com\t", false},
		{"a trailing newline is refused", "ada@example.com\n", false},
		{"an address without @ is refused", "ada.example.com", false},
		{"an address with two @ is refused", "ada@lovelace@example.com", false},
		{"an address with @@ is refused", "ada@@example.com", false},
		{"an empty local part is refused", "@example.com", false},
		{"an empty domain is refused", "ada@", false},
		{"two dots in a row are refused", "ada..lovelace@example.com", false},
		{"the empty string is refused", "", false},
		{"an address of 254 characters is accepted", emailOfLength(254, "a"), true},
		{"an address of 255 characters is refused", emailOfLength(255, "a"), false},
		{"a unicode local part and domain are accepted", "jörg@bücher.example", true},
		{"254 non-ASCII characters are accepted although they take more bytes", emailOfLength(254, "é"), true},
		{"255 non-ASCII characters are refused", emailOfLength(255, "é"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := billing.ValidEmail(tt.email); got != tt.want {
				t.Errorf("ValidEmail(%q) = %v, want %v", tt.email, got, tt.want)
			}
		})
	}
}

func TestEmailOfLength(t *testing.T) {
	for _, n := range []int{254, 255} {
		for _, local := range []string{"a", "é"} {
			if got := utf8.RuneCountInString(emailOfLength(n, local)); got != n {
				t.Errorf("emailOfLength(%d, %q) has %d characters", n, local, got)
			}
		}
	}
}

func TestMessageID(t *testing.T) {
	for _, c := range []struct{ name, uid, from, want string }{
		{"takes the domain of the sender's address", "0f6c", "billing@example.com", "<0f6c@example.com>"},
		{"takes the last at sign's domain", "u1", "a@b@example.org", "<u1@example.org>"},
		{"falls back to a reserved domain without one", "u2", "billing", "<u2@invoicing.invalid>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := billing.MessageID(c.uid, c.from); got != c.want {
				t.Errorf("MessageID(%q, %q) = %q, want %q", c.uid, c.from, got, c.want)
			}
		})
	}
}

func TestRecipients(t *testing.T) {
	for _, c := range []struct {
		name               string
		to                 []string
		customer, issuedTo string
		want               []string
	}{
		{"the addresses asked for win", []string{"cfo@example.com"}, "ap@example.com", "old@example.com", []string{"cfo@example.com"}},
		{"none asked for: the customer's e-mail now", nil, "ap@example.com", "old@example.com", []string{"ap@example.com"}},
		{"no customer: the address it was issued to", nil, "", "old@example.com", []string{"old@example.com"}},
		{"nothing at all: none", nil, "", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := billing.Recipients(c.to, c.customer, c.issuedTo); !slices.Equal(got, c.want) {
				t.Errorf("Recipients = %v, want %v", got, c.want)
			}
		})
	}
}
