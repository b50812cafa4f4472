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

package httpapi

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

// The CRD's bounds of a customer (config/crd/bases), in characters; the
// tests compare them with the CRD.
const (
	maxCustomerNameLength = 256
	maxTaxIDLength        = 64
)

// addressFields are the fields of an address and their CRD bounds, in the
// order they are checked; country has its own rule.
var addressFields = []struct {
	name   string
	maxLen int
}{
	{"line1", 256}, {"line2", 256}, {"city", 128}, {"postal_code", 32}, {"state", 128},
}

// countryCodes are the officially assigned ISO 3166-1 alpha-2 codes, the
// CRD's enum of address.country.
var countryCodes = func() map[string]bool {
	codes := map[string]bool{}
	for _, c := range strings.Fields(`
		AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ
		BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR
		CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
		GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
		ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ
		LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ
		MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF
		PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
		SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR
		TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
	`) {
		codes[c] = true
	}
	return codes
}()

// CustomerParams is a validated POST /v1/customers body. Address and TaxID
// are left out of the request hash when absent, so that the hash of a
// request without them is what it was before they existed.
type CustomerParams struct {
	Name    string         `json:"name"`
	Email   string         `json:"email"`
	Address *AddressParams `json:"address,omitempty"`
	TaxID   string         `json:"tax_id,omitempty"`
	// ElectronicAddress is left out of the request hash when absent, like
	// Address.
	ElectronicAddress *ElectronicAddressParams `json:"electronic_address,omitempty"`
	// PreferredLocale is the BCP 47 tag of the customer's language, as
	// locale.Parse accepts it; left out of the request hash when absent.
	PreferredLocale string `json:"preferred_locale,omitempty"`
}

// ElectronicAddressParams is a validated electronic address: an EAS
// scheme code of four digits and a value of 1 to 128 characters without
// white space (the CRD's bounds).
type ElectronicAddressParams struct {
	Scheme string `json:"scheme"`
	Value  string `json:"value"`
}

// The CRD's bounds of an electronic address's value.
const maxElectronicAddressLength = 128

// easScheme is the shape of a code of the CEF Electronic Address Scheme
// code list: four digits.
var easScheme = regexp.MustCompile(`^[0-9]{4}$`)

// spec is the electronic address as the CRD stores it.
func (e *ElectronicAddressParams) spec() *billingv1.ElectronicAddress {
	if e == nil {
		return nil
	}
	return &billingv1.ElectronicAddress{Scheme: e.Scheme, Value: e.Value}
}

// AddressParams is a validated address: each field is absent (empty) or 1
// to its bound characters long.
type AddressParams struct {
	Line1      string `json:"line1,omitempty"`
	Line2      string `json:"line2,omitempty"`
	City       string `json:"city,omitempty"`
	PostalCode string `json:"postal_code,omitempty"`
	State      string `json:"state,omitempty"`
	Country    string `json:"country,omitempty"`
}

// spec is the address as the CRD stores it.
func (a *AddressParams) spec() *billingv1.Address {
	if a == nil {
		return nil
	}
	return &billingv1.Address{Line1: a.Line1, Line2: a.Line2, City: a.City, PostalCode: a.PostalCode,
		State: a.State, Country: a.Country}
}

// DecodeCustomer parses and validates a POST /v1/customers body. It never
// panics: it returns either the parameters or an *Error with status 400 (the
// body is not JSON, has an unknown or duplicated field, or a value of the
// wrong JSON type) or 422 (a value is missing or out of bounds).
func DecodeCustomer(body []byte) (*CustomerParams, *Error) {
	fields, e := bodyFields(body, map[string]kind{
		"name": kindString, "email": kindString, "address": kindObject, "tax_id": kindString,
		"electronic_address": kindObject, "preferred_locale": kindString,
	})
	if e != nil {
		return nil, e
	}
	// All 400s (structure and JSON types) come before any 422 (values).
	var address map[string]*node
	if a := fields["address"]; a != nil {
		known := map[string]kind{"country": kindString}
		for _, f := range addressFields {
			known[f.name] = kindString
		}
		if address, e = checkObject(a, "address", known); e != nil {
			return nil, e
		}
	}
	var electronic map[string]*node
	if ea := fields["electronic_address"]; ea != nil {
		if electronic, e = checkObject(ea, "electronic_address", electronicAddressFields); e != nil {
			return nil, e
		}
	}
	p := &CustomerParams{}
	if p.Name, e = requiredString(fields, "", "name", maxCustomerNameLength); e != nil {
		return nil, e
	}
	if p.Email, e = requiredString(fields, "", "email", billing.MaxEmailLength); e != nil {
		return nil, e
	}
	if !billing.ValidEmail(p.Email) {
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "email",
			"email must be a plain e-mail address such as ada@example.com, of at most %d characters.",
			billing.MaxEmailLength)
	}
	if address != nil {
		if p.Address, e = decodeAddress(address); e != nil {
			return nil, e
		}
	}
	if p.TaxID, e = optionalString(fields, "", "tax_id", maxTaxIDLength); e != nil {
		return nil, e
	}
	if electronic != nil {
		if p.ElectronicAddress, e = decodeElectronicAddress(electronic, "electronic_address"); e != nil {
			return nil, e
		}
	}
	if p.PreferredLocale, e = decodeLocale(fields, "preferred_locale"); e != nil {
		return nil, e
	}
	return p, nil
}

// maxLocaleLength is the CRD's bound of a locale tag.
const maxLocaleLength = 35

// decodeLocale validates the optional BCP 47 tag at name: 422
// parameter_invalid for a malformed tag or one the documents cannot
// format (locale.Parse). It returns the tag in its canonical form.
func decodeLocale(fields map[string]*node, name string) (string, *Error) {
	s, e := optionalString(fields, "", name, maxLocaleLength)
	if e != nil || s == "" {
		return "", e
	}
	tag, err := locale.Parse(s)
	if err != nil {
		return "", errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, name,
			"%s must be a BCP 47 language tag such as de, fr-CA or pt-BR: %s", name, err.Error())
	}
	return tag.String(), nil
}

var electronicAddressFields = map[string]kind{"scheme": kindString, "value": kindString}

// decodeElectronicAddress validates the fields of the electronic address
// at path: both are required.
func decodeElectronicAddress(fields map[string]*node, path string) (*ElectronicAddressParams, *Error) {
	a := &ElectronicAddressParams{}
	var e *Error
	if a.Scheme, e = requiredString(fields, path, "scheme", 4); e != nil {
		return nil, e
	}
	if !easScheme.MatchString(a.Scheme) {
		p := join(path, "scheme")
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p,
			"%s must be a code of the Electronic Address Scheme (EAS) list: four digits, such as 0088 or 9930.", p)
	}
	if a.Value, e = requiredString(fields, path, "value", maxElectronicAddressLength); e != nil {
		return nil, e
	}
	if strings.ContainsFunc(a.Value, unicode.IsSpace) {
		p := join(path, "value")
		return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p,
			"%s must not contain white space.", p)
	}
	return a, nil
}

// decodeAddress validates the fields of an address object; an address
// without any field is absent (nil).
func decodeAddress(fields map[string]*node) (*AddressParams, *Error) {
	a := &AddressParams{}
	values := []*string{&a.Line1, &a.Line2, &a.City, &a.PostalCode, &a.State}
	for i, f := range addressFields {
		v, e := optionalString(fields, "address", f.name, f.maxLen)
		if e != nil {
			return nil, e
		}
		*values[i] = v
	}
	if c := fields["country"]; c != nil {
		if !countryCodes[c.s] {
			return nil, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "address.country",
				"address.country must be an officially assigned ISO 3166-1 alpha-2 code in upper case, such as DE or US.")
		}
		a.Country = c.s
	}
	if *a == (AddressParams{}) {
		return nil, nil
	}
	return a, nil
}

// emailFilter reads the email filter of GET /v1/customers: absent (""), or
// an address a customer can have; any other value could match nothing and
// is 400 parameter_invalid.
func emailFilter(q url.Values) (string, *Error) {
	if !q.Has(queryEmail) {
		return "", nil
	}
	email := q.Get(queryEmail)
	if !billing.ValidEmail(email) {
		return "", errorf(http.StatusBadRequest, CodeParameterInvalid, queryEmail,
			"email must be a plain e-mail address such as ada@example.com, of at most %d characters.",
			billing.MaxEmailLength)
	}
	return email, nil
}
