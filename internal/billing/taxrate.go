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
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Rate is a tax rate, a percentage, held exactly as a whole number of
// ten-thousandths of a percent: 19% is 190000, 5.5% is 55000 and 8.875%
// is 88750. A valid Rate is from 0 (0%) to MaxRate (100%).
type Rate int64

// RateDecimals is the largest number of decimals a Rate is written with,
// and RateScale the number of Rate units in one percent (10^RateDecimals).
const (
	RateDecimals      = 4
	RateScale    Rate = 10_000
)

// MaxRate is the largest Rate, 100%.
const MaxRate = 100 * RateScale

// Valid reports whether r is from 0 to MaxRate.
func (r Rate) Valid() bool {
	return r >= 0 && r <= MaxRate
}

// String writes r in its shortest form: the percentage without trailing
// zeros in its decimals, and without a decimal point when it is whole:
// "19", "5.5", "8.875", "0.0001", "0", "100". ParseRate reads it back.
func (r Rate) String() string {
	sign := ""
	whole, frac := r/RateScale, r%RateScale
	if r < 0 {
		// Not a valid Rate, but written exactly rather than garbled. Neither
		// negation overflows: |whole| < 2^63/RateScale and |frac| < RateScale.
		sign, whole, frac = "-", -whole, -frac
	}
	if frac == 0 {
		return sign + strconv.FormatInt(int64(whole), 10)
	}
	decimals := strings.TrimRight(fmt.Sprintf("%0*d", RateDecimals, frac), "0")
	return sign + strconv.FormatInt(int64(whole), 10) + "." + decimals
}

// MarshalText writes r as String does, so that a Rate is a JSON string
// ("19", "5.5") and never a float.
func (r Rate) MarshalText() ([]byte, error) {
	if !r.Valid() {
		return nil, &TaxFieldError{Field: TaxFieldRate, Message: fmt.Sprintf("%s is not from 0 to 100", r)}
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads text with ParseRate.
func (r *Rate) UnmarshalText(text []byte) error {
	v, err := ParseRate(string(text))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// UnmarshalJSON reads a JSON number (19, 5.5) or a JSON string ("19",
// "5.5") with ParseRate: both must be in the form ParseRate accepts, so
// 1e2, 19.0 written as 1.9e1, and "19 " are refused. A JSON null leaves r
// unchanged, as encoding/json does for other types.
func (r *Rate) UnmarshalJSON(data []byte) error {
	text := string(data)
	switch {
	case text == "null":
		return nil
	case strings.HasPrefix(text, `"`):
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return &TaxFieldError{Field: TaxFieldRate, Message: "is not a valid JSON string"}
		}
		text = s
	}
	v, err := ParseRate(text)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// ParseRate reads a tax rate written as a percentage, either the literal
// text of a JSON number or the content of a JSON string. The accepted
// form is strict, a subset of the JSON number grammar:
//
//	rate     = integer [ "." decimals ]
//	integer  = "0" | digit1-9 { digit }      (no leading zeros: "019" is refused)
//	decimals = digit [ digit [ digit [ digit ] ] ]   (1 to 4 digits)
//
// with a value from 0 to 100. So "19", "5.5", "8.875", "0", "0.0001",
// "100", "19.0000" and "5.50" are accepted (the last two read as 19 and
// 5.5: trailing zeros within the 4 decimals are allowed). Refused, each
// with an error that says why: "" (empty), "+19" and "-1" (a sign),
// "1e2" and "1E2" (an exponent), "1." (no digit after the point), ".5"
// (no digit before it), "19.12345" and "19.00000" (more than 4 decimals,
// even zeros), "100.0001" (above 100), "019" (a leading zero), " 19"
// and "19%" (anything else). The error is a *TaxFieldError on "rate".
func ParseRate(s string) (Rate, error) {
	fail := func(format string, args ...any) (Rate, error) {
		return 0, &TaxFieldError{Field: TaxFieldRate, Message: fmt.Sprintf(format, args...)}
	}
	const hint = `write a percentage such as "19" or "5.5"`
	if s == "" {
		return fail("is empty; %s", hint)
	}
	switch s[0] {
	case '-':
		return fail("%q has a minus sign; a rate is from 0 to 100", s)
	case '+':
		return fail("%q must be written without a sign", s)
	}
	if strings.ContainsAny(s, "eE") {
		return fail("%q must be written without an exponent; %s", s, hint)
	}
	whole, frac, hasPoint := strings.Cut(s, ".")
	if !allDigits(whole) || !allDigits(frac) {
		return fail("%q is not a decimal number; %s", s, hint)
	}
	switch {
	case whole == "" && frac == "":
		return fail("%q is not a decimal number; %s", s, hint)
	case whole == "":
		return fail("%q has no digit before the decimal point; write %q", s, "0"+s)
	case hasPoint && frac == "":
		return fail("%q has no digit after the decimal point; write %q", s, whole)
	case len(whole) > 1 && whole[0] == '0':
		trimmed := strings.TrimLeft(whole, "0")
		if trimmed == "" {
			trimmed = "0"
		}
		return fail("%q has a leading zero; write %q", s, trimmed+s[len(whole):])
	case len(frac) > RateDecimals:
		return fail("%q has more than %d decimals", s, RateDecimals)
	case len(whole) > 3:
		// At least 1000: above 100, and kept from overflowing below.
		return fail("%q is above 100", s)
	}
	var r Rate
	for _, c := range whole {
		r = r*10 + Rate(c-'0')
	}
	r *= RateScale
	scale := RateScale
	for _, c := range frac {
		scale /= 10
		r += Rate(c-'0') * scale
	}
	if r > MaxRate {
		return fail("%q is above 100", s)
	}
	return r, nil
}

// allDigits reports whether s has only the ASCII digits 0 to 9 (true for "").
func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ShortRate writes rate, as the API holds it, in its shortest form: "19"
// for "19.00". A rate that ParseRate refuses is written as it is: the API
// server's pattern keeps such out of a spec, and what shows it had better
// show it than hide it. Every rendering of a rate (/v1 JSON, documents,
// e-invoices) goes through it.
func ShortRate(rate string) string {
	if r, err := ParseRate(rate); err == nil {
		return r.String()
	}
	return rate
}
