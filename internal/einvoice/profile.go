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
	"regexp"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file says what Peppol BIS Billing 3.0 and XRechnung 3.0 need beyond
// EN 16931, from the rules of their Schematron (Peppol 3.0.19, KoSIT's
// XRechnung 2.5.0) and, for the electronic addresses XRechnung 3.0
// requires, its specification.

// easCodes are the codes of the Electronic Address Scheme code list that
// Peppol BIS 3.0.19 accepts (PEPPOL-EN16931-CL008), a subset of the list
// of CEN's rules (BR-CL-25): an electronic address in another scheme is
// written under no profile.
var easCodes = func() map[string]bool {
	codes := map[string]bool{}
	for _, c := range strings.Fields(`
		0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0151 0177 0183 0184 0188 0190
		0191 0192 0193 0195 0196 0198 0199 0200 0201 0202 0204 0208 0209 0210 0211 0212 0213 0215
		0216 0218 0221 0230 0235 9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927
		9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945
		9946 9947 9948 9949 9950 9951 9952 9953 9957 9959 0147 0154 0158 0170 0194 0203 0205 0217
		0225 0240`) {
		codes[c] = true
	}
	return codes
}()

// digits is a string of decimal digits.
var digits = regexp.MustCompile(`^[0-9]+$`)

// identifierChecks are the check-digit rules Peppol applies to an
// identifier of some schemes (PEPPOL-COMMON-R040 to R050, the fatal ones),
// with what the identifier must be.
var identifierChecks = map[string]struct {
	valid func(string) bool
	what  string
}{
	"0088": {gln, "a GS1 GLN with its check digit"},
	"0192": {norwegianOrgNumber, "a Norwegian organisation number of 9 digits with its check digit"},
	"0184": {danishCVR, "a Danish CVR number: 8 digits, or DK and 8 digits"},
	"0208": {belgianEnterpriseNumber, "a Belgian enterprise number of 10 digits with its check digits"},
	"0007": {swedishOrgNumber, "a Swedish organisation number of 10 digits with its check digit"},
	"0151": {australianBusinessNumber, "an Australian Business Number of 11 digits with its check digits"},
}

// profileLacks is what d lacks for its profile beyond EN 16931.
func profileLacks(d *document) missing {
	var lack missing
	if d.Profile == EN16931 {
		return lack
	}
	endpoint(&lack, d.Seller.Endpoint, d.Profile,
		"the issuer's electronic address (BT-34: spec.issuer.electronicAddress of the billing profile when the invoice was issued)")
	endpoint(&lack, d.Buyer.Endpoint, d.Profile,
		"the customer's electronic address (BT-49: electronic_address when the invoice was issued)")
	if d.Profile == Peppol && d.BuyerReference == "" && d.PurchaseOrder == "" {
		lack.add("a buyer reference or a purchase order (BT-10 or BT-13: the invoice's buyer_reference or purchase_order)")
	}
	if !germanRules(d) {
		return lack
	}
	if d.BuyerReference == "" {
		lack.add("a buyer reference (BT-10: the invoice's buyer_reference, for a German public buyer its Leitweg-ID)")
	}
	c := &d.Seller.Contact
	for _, f := range []struct{ value, what string }{
		{c.Name, "name"}, {c.Phone, "phone"}, {c.Email, "email"},
	} {
		if f.value == "" {
			lack.add("the issuer's contact %s (BT-4%d: spec.issuer.contact.%s of the billing profile when the invoice was issued)",
				f.what, map[string]int{"name": 1, "phone": 2, "email": 3}[f.what], f.what)
		}
	}
	if d.Payment == nil {
		lack.add("the account to pay to (BG-16, BT-84: spec.payment.iban of the billing profile when the invoice was issued)")
	}
	for _, p := range []struct {
		party *party
		who   string
	}{{&d.Seller, "issuer's"}, {&d.Buyer, "customer's"}} {
		if p.party.Address.City == "" {
			lack.add("the %s city (address.city when the invoice was issued)", p.who)
		}
		if p.party.Address.PostalCode == "" {
			lack.add("the %s post code (address.postal_code when the invoice was issued)", p.who)
		}
	}
	return lack
}

// germanRules reports whether XRechnung's rules apply to d: under
// XRechnung, and under Peppol between a German seller and a German buyer
// (its rules DE-R-001 to DE-R-031).
func germanRules(d *document) bool {
	return d.Profile == XRechnung ||
		d.Profile == Peppol && countryOf(&d.Seller) == "DE" && countryOf(&d.Buyer) == "DE"
}

// endpoint adds to lack what the electronic address e lacks under profile.
func endpoint(lack *missing, e *billingv1.ElectronicAddress, profile Profile, what string) {
	switch {
	case e == nil:
		lack.add("%s", what)
	case !easCodes[e.Scheme]:
		lack.add("%s in a scheme of the EAS code list (%s is not one)", what, e.Scheme)
	case profile == Peppol && identifierChecks[e.Scheme].valid != nil && !identifierChecks[e.Scheme].valid(e.Value):
		lack.add("%s that is %s (%q is not)", what, identifierChecks[e.Scheme].what, e.Value)
	}
}

// countryOf is a party's country as Peppol reads it: its VAT identifier's
// prefix, else its address's country.
func countryOf(p *party) string {
	if len(p.VATID) >= 2 {
		return strings.ToUpper(p.VATID[:2])
	}
	return p.Address.Country
}

// weighted is the sum of the digits of s, from its last but one to its
// first, each times weight(i), i from 0.
func weighted(s string, weight func(i int) int) int {
	sum := 0
	for i := 0; i < len(s)-1; i++ {
		sum += int(s[len(s)-2-i]-'0') * weight(i)
	}
	return sum
}

// gln reports whether s is a GS1 GLN (or any GTIN) with its check digit.
func gln(s string) bool {
	if !digits.MatchString(s) {
		return false
	}
	sum := weighted(s, func(i int) int { return 1 + (i+1)%2*2 })
	return (10-sum%10)%10 == int(s[len(s)-1]-'0')
}

func norwegianOrgNumber(s string) bool {
	if len(s) != 9 || !digits.MatchString(s) || strings.Trim(s, "0") == "" {
		return false
	}
	sum := weighted(s, func(i int) int { return i%6 + 2 })
	return (11-sum%11)%11 == int(s[8]-'0')
}

func danishCVR(s string) bool {
	if len(s) == 10 && strings.HasPrefix(s, "DK") {
		s = s[2:]
	}
	return len(s) == 8 && digits.MatchString(s)
}

func belgianEnterpriseNumber(s string) bool {
	if len(s) != 10 || !digits.MatchString(s) {
		return false
	}
	n, check := 0, 0
	for _, r := range s[:8] {
		n = n*10 + int(r-'0')
	}
	check = int(s[8]-'0')*10 + int(s[9]-'0')
	return 97-n%97 == check
}

func swedishOrgNumber(s string) bool {
	if len(s) != 10 || !digits.MatchString(s) {
		return false
	}
	sum := 0
	for pos := 1; pos <= 9; pos++ {
		d := int(s[9-pos] - '0')
		if pos%2 == 1 {
			d *= 2
			d = d%10 + d/10
		}
		sum += d
	}
	return (10-sum%10)%10 == int(s[9]-'0')
}

func australianBusinessNumber(s string) bool {
	if len(s) != 11 || !digits.MatchString(s) {
		return false
	}
	weights := []int{10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19}
	sum := (int(s[0]-'0') - 1) * weights[0]
	for i := 1; i < 11; i++ {
		sum += int(s[i]-'0') * weights[i]
	}
	return sum%89 == 0
}
