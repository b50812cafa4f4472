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

package locale

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/bojanz/currency"
	"github.com/go-playground/locales"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Printer writes text and values for one locale: the texts in its
// language (or the nearest translated parent's), the values in the
// formats of the full tag.
type Printer struct {
	tag   language.Tag
	text  *message.Printer
	fmts  locales.Translator
	money *currency.Formatter
	// printable, when set, is whether a rune can be printed: a currency
	// symbol with a rune it refuses is written as the ISO code instead.
	printable func(rune) bool
}

// New returns the Printer of tag; the zero Tag is English.
func New(tag language.Tag) *Printer {
	if tag == language.Und {
		tag = language.English
	}
	return &Printer{
		tag:   tag,
		text:  message.NewPrinter(catalogTag(tag), message.Catalog(messages)),
		fmts:  translatorFor(tag),
		money: currency.NewFormatter(currency.NewLocale(tag.String())),
	}
}

// Printable returns a copy of p whose Money writes a currency's ISO code
// where its symbol has a rune printable refuses: a PDF's font may lack
// "₹", whose amounts then read "INR 1,234.56".
func (p *Printer) Printable(printable func(rune) bool) *Printer {
	c := *p
	c.printable = printable
	return &c
}

// Tag is the locale p writes for.
func (p *Printer) Tag() language.Tag { return p.tag }

// T is the text of the message key in p's language, its placeholders
// filled with args in order (each message's placeholders are in
// catalogs/en/messages.gotext.json). A message the language lacks comes
// from its parent's catalog (de-AT from de), then from English; an
// unknown key is returned as it is.
func (p *Printer) T(key string, args ...any) string {
	return p.text.Sprintf(key, args...)
}

// Money writes minor units of the ISO 4217 currency code in p's locale:
// its symbol, its placement and its separators from CLDR ("1.234,56 €" in
// de, "1 234,56 €" in fr with a narrow no-break space, "€1,234.56" in
// en). The number of decimals is the currency's (billing.ParseCurrency);
// a code ISO 4217 does not know is written as it is, upper-cased, with two
// decimals where the locale puts a currency code ("XYZ 1,234.56" in en).
func (p *Printer) Money(code string, minor int64) string {
	cur, err := billing.ParseCurrency(code)
	known := err == nil && currency.IsValid(cur.Code)
	if !known {
		cur = billing.Currency{Code: strings.ToUpper(strings.TrimSpace(code)), Digits: 2}
	}
	f := *p.money
	f.MinDigits, f.MaxDigits = uint8(cur.Digits), uint8(cur.Digits) //nolint:gosec // ISO 4217 has at most 4 decimals
	as := cur.Code
	if !known {
		// The number as the locale writes an amount of a two-decimal
		// currency shown by its code; then that code replaced.
		as = "EUR"
		f.CurrencyDisplay = currency.DisplayCode
	} else if symbol, _ := currency.GetSymbol(cur.Code, f.Locale()); p.printable != nil && !p.canPrint(symbol) {
		f.CurrencyDisplay = currency.DisplayCode
	}
	amount, err := currency.NewAmount(decimal(minor, cur.Digits), as)
	if err != nil {
		return cur.Code + " " + decimal(minor, cur.Digits)
	}
	s := f.Format(amount)
	if !known {
		s = strings.Replace(s, "EUR", cur.Code, 1)
	}
	return s
}

// canPrint is whether p.printable accepts every rune of s.
func (p *Printer) canPrint(s string) bool {
	for _, r := range s {
		if !p.printable(r) {
			return false
		}
	}
	return true
}

// decimal writes minor units with digits decimals: 68050, 2 is "680.50".
func decimal(minor int64, digits int) string {
	s := strconv.FormatInt(minor, 10)
	if digits == 0 {
		return s
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if len(s) <= digits {
		s = strings.Repeat("0", digits-len(s)+1) + s
	}
	s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	if neg {
		s = "-" + s
	}
	return s
}

// maxExact is the largest integer a float64 holds exactly.
const maxExact = 1 << 53

// Number writes a quantity with the grouping of p's locale ("1.234" in de,
// "1’234" in de-CH, "1 234" in fr with a narrow no-break space).
func (p *Printer) Number(n int64) string {
	if n > maxExact || n < -maxExact {
		// Beyond what the formats' float64 holds: the grouping of an
		// amount, which is CLDR's too.
		f := *p.money
		f.CurrencyDisplay, f.MinDigits, f.MaxDigits = currency.DisplayNone, 0, 0
		amount, _ := currency.NewAmount(strconv.FormatInt(n, 10), "EUR")
		return f.Format(amount)
	}
	return p.fmts.FmtNumber(float64(n), 0)
}

// Percent writes a tax rate as the API stores it, a decimal string of
// percent ("19", "7.5", "5.50"), in its shortest form in p's locale: "19 %"
// in de, "19%" in en, "7,5 %" in de. A rate that does not parse is
// returned as it is.
func (p *Printer) Percent(rate string) string {
	short := billing.ShortRate(rate)
	f, err := strconv.ParseFloat(short, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return rate
	}
	decimals := 0
	if _, frac, ok := strings.Cut(short, "."); ok {
		decimals = len(frac)
	}
	return p.fmts.FmtPercent(f, uint64(decimals)) //nolint:gosec // a length
}

// Date writes the day of t (in t's location) in the medium date format of
// p's locale: "27.11.2026" in de, "Nov 27, 2026" in en, "27 nov. 2026" in
// fr, "2026/11/27" in ja.
func (p *Printer) Date(t time.Time) string {
	return strings.TrimFunc(p.fmts.FmtDateMedium(t), unicode.IsSpace)
}
