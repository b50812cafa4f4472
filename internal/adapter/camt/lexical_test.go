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

package camt

import (
	"strings"
	"testing"
)

func TestValuesAreCheckedAgainstTheLexicalSpaceOfTheirBuiltInType(t *testing.T) {
	cases := []struct {
		name  string
		typ   builtin
		valid []string
		not   []string
	}{
		{"a decimal has digits, at most one point and a sign in front", xsDecimal,
			[]string{"0", "12.34", "+1", "-0.5", ".5", "5.", "007.50"},
			[]string{"", ".", "1,5", "1e3", "1.2.3", "--1", " 1", "١"}},
		{"a date exists in the calendar", xsDate,
			[]string{"2026-03-11", "2024-02-29", "2000-02-29", "2026-03-11Z", "2026-03-11+14:00", "-0044-03-15", "12026-01-01"},
			[]string{"2026-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "0000-01-01", "26-03-11", "2026-3-11",
				"2026-03-11+14:30", "2026-03-11+15:00", "02026-01-01", "2026-03-11T00:00:00"}},
		{"a date and time has both, seconds, and an optional fraction and zone", xsDateTime,
			[]string{"2026-03-11T06:12:31", "2026-03-11T06:12:31.0+01:00", "2026-03-11T23:59:59.999Z"},
			[]string{"2026-03-11", "2026-03-11T06:12", "2026-03-11T24:00:00", "2026-03-11T06:60:00", "2026-03-11 06:12:31",
				"2026-03-11T06:12:31.", "2026-03-11T06:12:31+1:00"}},
		{"a boolean is true, false, 1 or 0", xsBoolean,
			[]string{"true", "false", "1", "0"}, []string{"TRUE", "yes", ""}},
		{"a year and month has a month of twelve", xsGYearMonth,
			[]string{"2026-03", "2026-12Z"}, []string{"2026-13", "2026", "2026-3"}},
		{"a year has four digits or more", xsGYear,
			[]string{"2026", "2026+01:00"}, []string{"26", "0000"}},
		{"a time has hours, minutes and seconds", xsTime,
			[]string{"06:12:31", "23:59:59.5Z"}, []string{"6:12:31", "24:00:01"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, v := range c.valid {
				if !lexical(c.typ, v) {
					t.Errorf("%q is refused as xs:%s", v, c.typ)
				}
			}
			for _, v := range c.not {
				if lexical(c.typ, v) {
					t.Errorf("%q is taken as xs:%s", v, c.typ)
				}
			}
		})
	}
}

func TestDecimalFacetsCountDigitsOfTheValue(t *testing.T) {
	f := newFacets()
	f.totalDigits, f.fractionDigits = 18, 5
	amount := &simpleType{name: "Amount", base: xsDecimal, steps: []*facets{f}}
	cases := []struct{ name, value, want string }{
		{"trailing zeros are not fraction digits", "12.5000000", ""},
		{"leading zeros are not digits", "000000000000000000001.5", ""},
		{"eighteen digits are the most", "1234567890123.45678", ""},
		{"nineteen digits are too many", "12345678901234.45678", `"12345678901234.45678" has more than 18 digits`},
		{"six fraction digits are too many", "0.123456", `"0.123456" has more than 5 fraction digits`},
		{"white space around a decimal is collapsed away", " 12.50\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := amount.check(c.value); got != c.want {
				t.Errorf("check(%q) = %q, want %q", c.value, got, c.want)
			}
		})
	}
}

func TestAmountsBecomeMinorUnitsOfTheirCurrency(t *testing.T) {
	cases := []struct {
		name, amount, currency string
		want                   int64
		err                    string
	}{
		{"euros have two minor digits", "1190.00", "EUR", 119000, ""},
		{"a whole number of euros", "7", "EUR", 700, ""},
		{"a leading point", ".5", "EUR", 50, ""},
		{"a trailing point", "5.", "EUR", 500, ""},
		{"a plus sign and leading zeros", "+0012.3", "EUR", 1230, ""},
		{"trailing zeros beyond the currency's digits", "12.340000", "EUR", 1234, ""},
		{"zero", "0.00", "EUR", 0, ""},
		{"minus zero is zero", "-0.0", "EUR", 0, ""},
		{"yen have no minor digits", "1500", "JPY", 1500, ""},
		{"dinars of Bahrain have three", "1.234", "BHD", 1234, ""},
		{"sixteen digits of euros and two of cents", "9999999999999999.99", "EUR", 999999999999999999, ""},
		{"cents of a yen", "1500.5", "JPY", 0, `"1500.5" has more than 0 fraction digits (JPY)`},
		{"thousandths of a euro", "1.005", "EUR", 0, `"1.005" has more than 2 fraction digits (EUR)`},
		{"nineteen digits of minor units", "99999999999999999.99", "EUR", 0, `"99999999999999999.99" is too large`},
		{"a negative amount", "-1.00", "EUR", 0, `"-1.00" is negative`},
		{"a currency ISO 4217 does not assign", "1.00", "XYZ", 0, `"XYZ" is not an ISO 4217 currency code`},
		{"a currency in lower case", "1.00", "eur", 0, `"eur" is not an ISO 4217 currency code`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := minorUnits(c.amount, c.currency)
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("minorUnits(%q, %s) = %d, %v; want error %q", c.amount, c.currency, got, err, c.err)
			case c.err == "" && (err != nil || got != c.want):
				t.Errorf("minorUnits(%q, %s) = %d, %v; want %d", c.amount, c.currency, got, err, c.want)
			}
		})
	}
}
