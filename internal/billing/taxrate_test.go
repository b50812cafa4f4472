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
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// rateOf parses s, which the test knows to be a valid rate.
func rateOf(t testing.TB, s string) billing.Rate {
	t.Helper()
	r, err := billing.ParseRate(s)
	if err != nil {
		t.Fatalf("ParseRate(%q): %v", s, err)
	}
	return r
}

func TestParseRate(t *testing.T) {
	tests := []struct {
		name string
		in   string
		// want and canonical are the Rate and its String when in is valid.
		want      billing.Rate
		canonical string
		// refused, when not empty, is a part of the error message.
		refused string
	}{
		{name: "a whole percentage is read as it is written", in: "19", want: 190_000, canonical: "19"},
		{name: "trailing zeros are read and dropped when written", in: "19.0000", want: 190_000, canonical: "19"},
		{name: "one decimal is kept", in: "5.5", want: 55_000, canonical: "5.5"},
		{name: "a trailing zero after a decimal is dropped", in: "5.50", want: 55_000, canonical: "5.5"},
		{name: "three decimals are kept", in: "8.875", want: 88_750, canonical: "8.875"},
		{name: "four decimals are kept", in: "12.3456", want: 123_456, canonical: "12.3456"},
		{name: "the smallest rate above zero has four decimals", in: "0.0001", want: 1, canonical: "0.0001"},
		{name: "zero is a rate", in: "0", want: 0, canonical: "0"},
		{name: "zero with decimals is written as zero", in: "0.000", want: 0, canonical: "0"},
		{name: "a hundred percent is the largest rate", in: "100", want: 1_000_000, canonical: "100"},
		{name: "a hundred with zero decimals is accepted", in: "100.0000", want: 1_000_000, canonical: "100"},
		{name: "a rate just below a hundred is accepted", in: "99.9999", want: 999_999, canonical: "99.9999"},
		{name: "a rate just above a hundred is refused", in: "100.0001", refused: "above 100"},
		{name: "a rate of a thousand is refused", in: "1000", refused: "above 100"},
		{name: "a rate too long for an int64 is refused, not wrapped", in: "99999999999999999999999", refused: "above 100"},
		{name: "five decimals are refused", in: "19.12345", refused: "more than 4 decimals"},
		{name: "five decimals are refused even when zeros", in: "19.00000", refused: "more than 4 decimals"},
		{name: "a negative rate is refused", in: "-1", refused: "minus sign"},
		{name: "minus zero is refused", in: "-0", refused: "minus sign"},
		{name: "a leading plus sign is refused", in: "+19", refused: "without a sign"},
		{name: "an exponent is refused", in: "1e2", refused: "exponent"},
		{name: "an upper-case exponent is refused", in: "1.9E1", refused: "exponent"},
		{name: "an empty rate is refused", in: "", refused: "empty"},
		{name: "a point without decimals is refused", in: "1.", refused: "no digit after"},
		{name: "a point without a whole part is refused", in: ".5", refused: `write "0.5"`},
		{name: "a lone point is refused", in: ".", refused: "not a decimal number"},
		{name: "a leading zero is refused", in: "019.5", refused: `leading zero; write "19.5"`},
		{name: "two zeros are refused", in: "00", refused: `leading zero; write "0"`},
		{name: "a percent sign is refused", in: "19%", refused: "not a decimal number"},
		{name: "surrounding spaces are refused", in: " 19", refused: "not a decimal number"},
		{name: "a decimal comma is refused", in: "5,5", refused: "not a decimal number"},
		{name: "two points are refused", in: "1.2.3", refused: "not a decimal number"},
		{name: "non-ASCII digits are refused", in: "١٩", refused: "not a decimal number"},
		{name: "words are refused", in: "NaN", refused: "not a decimal number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := billing.ParseRate(tt.in)
			if tt.refused != "" {
				var fe *billing.TaxFieldError
				if !errors.As(err, &fe) || fe.Field != billing.TaxFieldRate {
					t.Fatalf("ParseRate(%q) = %d, %v; want a TaxFieldError on rate", tt.in, got, err)
				}
				if !strings.Contains(err.Error(), tt.refused) {
					t.Errorf("ParseRate(%q) error %q does not say %q", tt.in, err, tt.refused)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseRate(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
			if s := got.String(); s != tt.canonical {
				t.Errorf("ParseRate(%q).String() = %q, want %q", tt.in, s, tt.canonical)
			}
			if again, err := billing.ParseRate(got.String()); err != nil || again != got {
				t.Errorf("ParseRate(%q) = %d, %v; want %d back", got.String(), again, err, got)
			}
		})
	}
}

func TestRateString(t *testing.T) {
	for _, tt := range []struct {
		name string
		rate billing.Rate
		want string
	}{
		{"zero is written without decimals", 0, "0"},
		{"one unit is a ten-thousandth of a percent", 1, "0.0001"},
		{"ten units drop the trailing zero", 10, "0.001"},
		{"a whole percentage has no point", 190_000, "19"},
		{"trailing zeros are dropped", 55_000, "5.5"},
		{"inner zeros are kept", 50_005, "5.0005"},
		{"a hundred percent is written whole", billing.MaxRate, "100"},
		{"a rate above a hundred, though invalid, is written exactly", 1_000_001, "100.0001"},
		{"a negative rate, though invalid, is written exactly", -15_000, "-1.5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rate.String(); got != tt.want {
				t.Errorf("Rate(%d).String() = %q, want %q", int64(tt.rate), got, tt.want)
			}
		})
	}
}

func TestRateJSON(t *testing.T) {
	type body struct {
		Rate *billing.Rate `json:"rate,omitempty"`
	}
	for _, tt := range []struct {
		name string
		in   string
		// want is the rate read, when valid; absent means no rate.
		want   string
		absent bool
		// refused means an error.
		refused bool
	}{
		{name: "a JSON number is read", in: `{"rate": 19}`, want: "19"},
		{name: "a JSON number with decimals is read", in: `{"rate": 5.50}`, want: "5.5"},
		{name: "a JSON string is read", in: `{"rate": "8.875"}`, want: "8.875"},
		{name: "a JSON string with an escaped digit is read by its content", in: `{"rate": "\u0031\u0039"}`, want: "19"},
		{name: "null is no rate", in: `{"rate": null}`, absent: true},
		{name: "a missing rate is no rate", in: `{}`, absent: true},
		{name: "a JSON number with an exponent is refused", in: `{"rate": 1e2}`, refused: true},
		{name: "a negative JSON number is refused", in: `{"rate": -1}`, refused: true},
		{name: "a JSON number with five decimals is refused", in: `{"rate": 19.12345}`, refused: true},
		{name: "a JSON string with spaces is refused", in: `{"rate": " 19"}`, refused: true},
		{name: "an empty JSON string is refused", in: `{"rate": ""}`, refused: true},
		{name: "a JSON boolean is refused", in: `{"rate": true}`, refused: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b body
			err := json.Unmarshal([]byte(tt.in), &b)
			switch {
			case tt.refused:
				if err == nil {
					t.Fatalf("Unmarshal(%s) = %v, want an error", tt.in, b.Rate)
				}
			case err != nil:
				t.Fatalf("Unmarshal(%s): %v", tt.in, err)
			case tt.absent:
				if b.Rate != nil {
					t.Errorf("Unmarshal(%s) = %s, want no rate", tt.in, b.Rate)
				}
			case b.Rate == nil || b.Rate.String() != tt.want:
				t.Errorf("Unmarshal(%s) = %v, want %s", tt.in, b.Rate, tt.want)
			}
		})
	}
	t.Run("a rate is written as a JSON string in its shortest form", func(t *testing.T) {
		r := rateOf(t, "5.50")
		got, err := json.Marshal(body{Rate: &r})
		if err != nil || string(got) != `{"rate":"5.5"}` {
			t.Errorf("Marshal = %s, %v; want {\"rate\":\"5.5\"}", got, err)
		}
	})
	t.Run("a rate above a hundred is not written", func(t *testing.T) {
		r := billing.MaxRate + 1
		if got, err := json.Marshal(body{Rate: &r}); err == nil {
			t.Errorf("Marshal = %s, want an error", got)
		}
	})
}

// rateForm is the form ParseRate documents, before its bound of 100.
var rateForm = regexp.MustCompile(`^(0|[1-9][0-9]*)(\.[0-9]{1,4})?$`)

// FuzzParseRate checks ParseRate against the documented form and exact
// rational arithmetic: it accepts a string exactly when the string is in
// the form and its value is from 0 to 100, reads it as that value in
// ten-thousandths of a percent, and String writes a form read back as the
// same rate.
func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"19", "5.5", "19.0000", "0", "100", "100.0001", "-1", "1e2", "1.", ".5", "019", "19.12345"} {
		f.Add(s)
	}
	hundred := big.NewRat(100, 1)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := billing.ParseRate(s)
		if !rateForm.MatchString(s) {
			if err == nil {
				t.Fatalf("ParseRate(%q) = %d; want it refused, as it is not in the form", s, r)
			}
			return
		}
		exact, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("big.Rat cannot read %q", s)
		}
		if exact.Cmp(hundred) > 0 {
			if err == nil {
				t.Fatalf("ParseRate(%q) = %d; want it refused, as it is above 100", s, r)
			}
			return
		}
		if err != nil {
			t.Fatalf("ParseRate(%q): %v; want it accepted", s, err)
		}
		if got := big.NewRat(int64(r), int64(billing.RateScale)); got.Cmp(exact) != 0 {
			t.Fatalf("ParseRate(%q) = %d ten-thousandths, want %s percent", s, r, exact.FloatString(4))
		}
		back, err := billing.ParseRate(r.String())
		if err != nil || back != r {
			t.Fatalf("ParseRate(%q) = %d written %q, read back as %d, %v", s, r, r.String(), back, err)
		}
	})
}

func TestShortRateWritesARateInItsShortestForm(t *testing.T) {
	for _, tc := range []struct{ name, rate, want string }{
		{"trailing zeros go", "19.00", "19"},
		{"a decimal keeps its significant digits", "5.50", "5.5"},
		{"a rate in its shortest form is kept", "8.875", "8.875"},
		{"zero is 0", "0.0", "0"},
		{"a rate that does not parse is written as it is", "19%", "19%"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := billing.ShortRate(tc.rate); got != tc.want {
				t.Errorf("ShortRate(%q) = %q, want %q", tc.rate, got, tc.want)
			}
		})
	}
}
