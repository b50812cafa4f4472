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

package billing

import (
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"
)

// MaxEmailLength is the longest e-mail address accepted (RFC 5321's path limit).
const MaxEmailLength = 254

// emailPattern is the Customer CRD's pattern for spec.email: one "@", no
// white space, no display-name or comment syntax. Keep it in step with the
// +kubebuilder:validation:Pattern marker on CustomerSpec.Email.
var emailPattern = regexp.MustCompile(`^[^@\s<>()\[\],;:"\\]+@[^@\s<>()\[\],;:"\\]+$`)

// ValidEmail reports whether s is a plain e-mail address such as
// "ada@example.com" that the Customer CRD accepts: at most MaxEmailLength
// characters, parsed by net/mail (the apiserver's "email" format) and matching
// the CRD's pattern, so display names ("Ada <ada@example.com>") are refused.
func ValidEmail(s string) bool {
	if utf8.RuneCountInString(s) > MaxEmailLength || !emailPattern.MatchString(s) {
		return false
	}
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address == s
}

// MessageID is the Message-ID header of the Email with uid sent from the
// address from: "<uid@domain of from>". It depends on nothing but the Email,
// so every copy of a message, sent again after a crash of the manager,
// carries the same one, and the adapter can answer it the moment the Email
// is created.
func MessageID(uid, from string) string {
	domain := "invoicing.invalid"
	if at := strings.LastIndexByte(from, '@'); at >= 0 && at < len(from)-1 {
		domain = from[at+1:]
	}
	return "<" + uid + "@" + domain + ">"
}

// Recipients are the addresses a message goes to: to when it names any,
// else the customer's e-mail as it is now, else the address the invoice or
// credit note was issued to (its bill-to, for a customer deleted since);
// none when all are empty. The adapter answers a send with them and the
// manager sends to them, by this one rule.
func Recipients(to []string, customerEmail, issuedTo string) []string {
	switch {
	case len(to) > 0:
		return to
	case customerEmail != "":
		return []string{customerEmail}
	case issuedTo != "":
		return []string{issuedTo}
	}
	return nil
}
