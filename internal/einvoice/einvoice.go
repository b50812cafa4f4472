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

// Package einvoice writes an issued invoice as a structured electronic
// invoice of EN 16931, the European standard for e-invoicing: in the UBL
// 2.1 syntax (an Invoice) or the UN/CEFACT Cross Industry Invoice syntax
// (D16B), under one of the specifications of EN 16931 (a profile): EN 16931
// itself, Peppol BIS Billing 3.0 or XRechnung 3.0.
//
// Its figures are the invoice's own: the lines, the tax breakdown and the
// totals frozen when it was issued. It never writes a document its profile
// would reject: when the invoice lacks what the profile needs (a tax
// category on a line, the issuer's country, ...), it answers an
// *UnavailableError naming every missing piece. It is pure: it reads only
// the objects it is given.
package einvoice

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Format is the syntax of an e-invoice.
type Format string

// The formats.
const (
	// UBL is OASIS UBL 2.1.
	UBL Format = "ubl"
	// CII is UN/CEFACT Cross Industry Invoice D16B.
	CII Format = "cii"
)

// Profile is the specification an e-invoice follows, named by its
// specification identifier (BT-24).
type Profile string

// The profiles.
const (
	// EN16931 is the core of EN 16931 itself.
	EN16931 Profile = "en16931"
	// Peppol is Peppol BIS Billing 3.0.
	Peppol Profile = "peppol"
	// XRechnung is XRechnung 3.0, Germany's standard for public buyers.
	XRechnung Profile = "xrechnung"
)

// Profiles are the profiles this package writes, the default first. Each
// is written in both syntaxes: Peppol BIS Billing 3.0 is exchanged in UBL
// on the Peppol network, but OpenPEPPOL publishes its rules for CII too.
var Profiles = []Profile{EN16931, Peppol, XRechnung}

// Formats are the formats this package writes.
var Formats = []Format{UBL, CII}

// customizationIDs are the specification identifiers (BT-24).
var customizationIDs = map[Profile]string{
	EN16931:   "urn:cen.eu:en16931:2017",
	Peppol:    "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
	XRechnung: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
}

// peppolProfileID is the business process type (BT-23) of Peppol BIS
// Billing 3.0.
const peppolProfileID = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"

// ErrNotIssued is returned for an invoice that is not issued: it has no
// number and no issue date yet.
var ErrNotIssued = errors.New("the invoice is not issued")

// UnavailableError is returned when a document lacks what its profile
// needs: Missing names each piece, for the person who can add it.
type UnavailableError struct {
	Profile Profile
	Missing []string
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("the document cannot be written under profile %s: it lacks %s",
		e.Profile, strings.Join(e.Missing, "; "))
}

// Supported reports whether profile is one this package writes.
func (p Profile) Supported() bool {
	return slices.Contains(Profiles, p)
}

// Supported reports whether format is one this package writes.
func (f Format) Supported() bool {
	return slices.Contains(Formats, f)
}
