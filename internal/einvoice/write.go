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

package einvoice

import (
	"fmt"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Invoice writes an issued invoice as an e-invoice in format under
// profile. It returns ErrNotIssued for an invoice that is not issued, and
// an *UnavailableError when the invoice lacks what the profile needs.
func Invoice(inv *billingv1.Invoice, format Format, profile Profile) ([]byte, error) {
	return write(format, profile, func() (*document, error) { return fromInvoice(inv, profile) }, ubl)
}

// CreditNote writes an issued credit note as an e-invoice in format under
// profile: a UBL CreditNote or a CII CrossIndustryInvoice of type code 381,
// referring to the credited invoice's number and issue date (BT-25,
// BT-26). Its errors are those of Invoice.
func CreditNote(cn *billingv1.CreditNote, format Format, profile Profile) ([]byte, error) {
	return write(format, profile, func() (*document, error) { return fromCreditNote(cn, profile) }, ublCredit)
}

// write writes the document that build makes in format under profile:
// with writeUBL in UBL, in CII as every document is.
func write(format Format, profile Profile, build func() (*document, error),
	writeUBL func(*document) ([]byte, error)) ([]byte, error) {
	if !format.Supported() || !profile.Supported() {
		return nil, fmt.Errorf("format %q under profile %q is not written", format, profile)
	}
	d, err := build()
	if err != nil {
		return nil, err
	}
	switch format {
	case UBL:
		return writeUBL(d)
	case CII:
		return cii(d)
	default:
		return nil, fmt.Errorf("format %q is not written yet", format)
	}
}
