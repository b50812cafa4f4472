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

package banktransfer

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The limits of an EPC QR code (EPC069-12 version 002).
const (
	// MaxEPCAmount is the largest amount a code can ask for, in cents
	// (EUR 999,999,999.99).
	MaxEPCAmount = 99_999_999_999
	// MaxEPCName is how many characters of the beneficiary's name a code
	// carries.
	MaxEPCName = 70
	// MaxEPCText is the longest unstructured remittance text.
	MaxEPCText = 140
	// maxEPCPayload is the most bytes a code's payload may hold.
	maxEPCPayload = 331
)

// ErrNoEPCCode is why a transfer has no EPC QR code.
var ErrNoEPCCode = errors.New("no EPC QR code")

// EPCTransfer is what an EPC QR code asks a banking app to pay: a SEPA
// credit transfer in euros.
type EPCTransfer struct {
	// BIC of the beneficiary's bank; optional within the EEA.
	BIC string
	// Name of the beneficiary, cut to MaxEPCName characters.
	Name string
	// IBAN of the beneficiary's account.
	IBAN string
	// Cents is the amount in euro cents, 1 to MaxEPCAmount.
	Cents int64
	// Reference is the ISO 11649 reference; when empty, Text is sent as
	// the unstructured remittance instead (a code carries one of the two).
	Reference string
	// Text is the unstructured remittance, at most MaxEPCText characters.
	Text string
}

// EPCPayload is the text an EPC QR code (EPC069-12 version 002, UTF-8,
// SEPA credit transfer) encodes: one element per line, BCD, 002, 1, SCT,
// the BIC, the name, the IBAN, EUR and the amount with two decimals, an
// empty purpose, the structured reference or else the text; nothing after
// the last element that is set. It is an error wrapping ErrNoEPCCode when
// t cannot be a code: no IBAN or name, an amount out of range, a reference
// that is not ISO 11649, a text too long.
func EPCPayload(t EPCTransfer) (string, error) {
	name := strings.TrimSpace(t.Name)
	if r := []rune(name); len(r) > MaxEPCName {
		name = strings.TrimSpace(string(r[:MaxEPCName]))
	}
	switch {
	case t.IBAN == "":
		return "", fmt.Errorf("%w: no IBAN", ErrNoEPCCode)
	case name == "":
		return "", fmt.Errorf("%w: no beneficiary name", ErrNoEPCCode)
	case t.Cents < 1 || t.Cents > MaxEPCAmount:
		return "", fmt.Errorf("%w: the amount %d cents is outside 0.01 to 999999999.99", ErrNoEPCCode, t.Cents)
	case t.Reference != "" && !Valid(t.Reference):
		return "", fmt.Errorf("%w: %q is not an ISO 11649 reference", ErrNoEPCCode, t.Reference)
	case utf8.RuneCountInString(t.Text) > MaxEPCText:
		return "", fmt.Errorf("%w: the remittance text is longer than %d characters", ErrNoEPCCode, MaxEPCText)
	}
	lines := []string{"BCD", "002", "1", "SCT", t.BIC, name, t.IBAN,
		fmt.Sprintf("EUR%d.%02d", t.Cents/100, t.Cents%100), ""}
	if t.Reference != "" {
		lines = append(lines, Normalize(t.Reference))
	} else {
		lines = append(lines, "", t.Text)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	payload := strings.Join(lines, "\n")
	if len(payload) > maxEPCPayload {
		return "", fmt.Errorf("%w: the payload is %d bytes, more than %d", ErrNoEPCCode, len(payload), maxEPCPayload)
	}
	return payload, nil
}
