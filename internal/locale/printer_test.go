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
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"
)

func TestMoneyIsWrittenAsTheLocaleWritesIt(t *testing.T) {
	for _, tc := range []struct {
		name, tag, code string
		minor           int64
		want            string
	}{
		{"German puts the euro after, with a dot and a comma", "de", "EUR", 123456, "1.234,56\u00a0€"},
		{"French groups with a narrow no-break space", "fr", "EUR", 123456, "1\u202f234,56\u00a0€"},
		{"English puts the euro first", "en", "EUR", 123456, "€1,234.56"},
		{"English writes dollars with the dollar sign", "en", "USD", 68050, "$680.50"},
		{"A negative amount has its sign", "en", "USD", -68050, "-$680.50"},
		{"Swiss German writes francs first, grouped with an apostrophe", "de-CH", "CHF", 123456, "CHF\u00a01'234.56"},
		{"Japanese writes yen without decimals", "ja", "JPY", 1500, "￥1,500"},
		{"A currency of three decimals has three", "en", "BHD", 1234, "BHD\u00a01.234"},
		{"A currency of no decimals has none", "de", "JPY", 123456, "123.456\u00a0¥"},
		{"A lower-case code is read", "en", "usd", 100, "$1.00"},
		{"An unknown code is written as a code, with two decimals", "en", "xyz", 123456, "XYZ\u00a01,234.56"},
		{"An unknown code goes where the locale puts a code", "de", "XYZ", 123456, "1.234,56\u00a0XYZ"},
		{"Polish does not group four digits", "pl", "PLN", 123456, "1234,56\u00a0zł"},
		{"An amount beyond float precision is exact", "en", "USD", 1<<62 + 1, "$46,116,860,184,273,879.05"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(language.MustParse(tc.tag)).Money(tc.code, tc.minor); got != tc.want {
				t.Errorf("Money(%s, %d) in %s = %q, want %q", tc.code, tc.minor, tc.tag, got, tc.want)
			}
		})
	}
}

func TestMoneyWritesTheCodeWhereTheSymbolCannotBePrinted(t *testing.T) {
	ascii := func(r rune) bool { return r < 0x80 || r == 0xa0 }
	p := New(language.German).Printable(ascii)
	if got, want := p.Money("EUR", 123456), "1.234,56\u00a0EUR"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := p.Money("USD", 100), "1,00\u00a0$"; got != want {
		t.Errorf("a printable symbol: got %q, want %q", got, want)
	}
	if got, want := New(language.German).Money("EUR", 100), "1,00\u00a0€"; got != want {
		t.Errorf("the original printer changed: %q", got)
	}
}

func TestNumbersPercentagesAndDatesFollowTheFullTag(t *testing.T) {
	day := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		tag                         string
		number, percent, half, date string
	}{
		{"en", "1,234,567", "19%", "7.5%", "Nov 27, 2026"},
		{"de", "1.234.567", "19\u00a0%", "7,5\u00a0%", "27.11.2026"},
		{"de-CH", "1’234’567", "19%", "7.5%", "27.11.2026"},
		{"de-AT", "1\u00a0234\u00a0567", "19\u00a0%", "7,5\u00a0%", "27.11.2026"},
		{"fr", "1\u202f234\u202f567", "19\u00a0%", "7,5\u00a0%", "27 nov. 2026"},
		{"en-GB", "1,234,567", "19%", "7.5%", "27 Nov 2026"},
		{"ja", "1,234,567", "19%", "7.5%", "2026/11/27"},
		{"pl", "1\u00a0234\u00a0567", "19%", "7,5%", "27 lis 2026"},
		{"pt-PT", "1\u00a0234\u00a0567", "19%", "7,5%", "27/11/2026"},
	} {
		t.Run("In "+tc.tag+" a number, percentages and a date", func(t *testing.T) {
			p := New(language.MustParse(tc.tag))
			for _, c := range []struct{ got, want string }{
				{p.Number(1234567), tc.number}, {p.Percent("19.00"), tc.percent}, {p.Percent("7.5"), tc.half},
				{p.Date(day), tc.date},
			} {
				if c.got != c.want {
					t.Errorf("got %q, want %q", c.got, c.want)
				}
			}
		})
	}
}

func TestAPercentageThatDoesNotParseIsWrittenAsItIs(t *testing.T) {
	if got := New(language.German).Percent("abc"); got != "abc" {
		t.Errorf("got %q", got)
	}
}

func TestANumberBeyondFloatPrecisionIsExact(t *testing.T) {
	if got, want := New(language.English).Number(1<<62+1), "4,611,686,018,427,387,905"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTextsFallBackAlongTheTagsParents(t *testing.T) {
	for _, tc := range []struct {
		name, tag, want string
	}{
		{"Swiss German is written in German", "de-CH", "Rechnung"},
		{"Austrian German is written in German", "de-AT", "Rechnung"},
		{"Belgian French is written in French", "fr-BE", "Facture"},
		{"Mexican Spanish is written in Spanish", "es-MX", "Factura"},
		{"European Portuguese is written in Portuguese", "pt-PT", "Fatura"},
		{"Japanese, not translated, is written in English", "ja", "Invoice"},
		{"Swedish, not translated, is written in English", "sv-FI", "Invoice"},
		{"A tag with an extension is written in its language", "nl-NL-u-nu-latn", "Factuur"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(language.MustParse(tc.tag)).T("title.invoice"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTextsFillTheirPlaceholdersAndPlurals(t *testing.T) {
	for _, tc := range []struct {
		name, tag string
		days      int
		want      string
	}{
		{"English says one day", "en", 1, "Reminder: invoice N-1, €5.00 was due on D, 1 day ago"},
		{"English says seven days", "en", 7, "Reminder: invoice N-1, €5.00 was due on D, 7 days ago"},
		{"German says seven Tagen", "de", 7, "seit 7 Tagen überfällig"},
		{"Polish says one dzień", "pl", 1, "1 dzień temu"},
		{"Polish says three dni", "pl", 3, "3 dni temu"},
		{"Polish says seven dni", "pl", 7, "7 dni temu"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(language.MustParse(tc.tag))
			got := p.T("email.reminder.subject.overdue", "N-1", p.Money("EUR", 500), "D", tc.days)
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want it to contain %q", got, tc.want)
			}
		})
	}
	if got := New(language.English).T("no.such.key"); got != "no.such.key" {
		t.Errorf("an unknown key: %q", got)
	}
	if got := New(language.Polish).T("tax.category.Z"); got != "Stawka 0%" {
		t.Errorf("a percent sign in a translation: %q", got)
	}
}

func TestTheZeroTagIsEnglish(t *testing.T) {
	p := New(language.Tag{})
	if p.Tag() != language.English || p.T("title.invoice") != "Invoice" {
		t.Errorf("the zero tag: %s, %q", p.Tag(), p.T("title.invoice"))
	}
}
