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
