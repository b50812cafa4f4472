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
	_ "embed"
	"encoding/json"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file writes postal addresses in the order of their country, from
// the address formats of Google's libaddressinput (addressformats.json,
// addressformats.NOTICE). A format is lines of fields: %A the street
// lines, %C the city, %S the state or province, %Z the postal code; %N
// (the name) and %O (the organisation) are printed by the document above
// the address, and %D and %X are fields our addresses do not have; text
// between fields ("%C, %S %Z") is printed only between fields that have a
// value.

// addressformats.json is generated from a copy of libaddressinput's
// RegionDataConstants.java: go run gen_addressformats.go -src <that file>.
//
//go:embed addressformats.json
var addressFormatsJSON []byte

// addressFormat is a country's entry of addressformats.json.
type addressFormat struct {
	// Fmt is the format in the country's script; Lfmt the format for an
	// address written in Latin script, when it differs (JP, CN, KR).
	Fmt, Lfmt string
	// Upper are the fields printed in capitals: "CS" in the US.
	Upper string
}

// addressFormats are the formats by ISO 3166 alpha-2 code, ZZ the default.
var addressFormats = func() map[string]addressFormat {
	var m map[string]addressFormat
	if err := json.Unmarshal(addressFormatsJSON, &m); err != nil {
		panic("locale: addressformats.json: " + err.Error())
	}
	return m
}()

// Address writes a's lines in the order of a's country (ISO 3166 alpha-2;
// libaddressinput's default order for one it does not know), then the
// country's name in p's language: "Friedrichstraße 1", "10117 Berlin",
// "Deutschland" for a German address in de; "1 Main Street",
// "SPRINGFIELD, IL 62701", "United States" in en. A Japanese address in
// Japanese script is written in Japan's order, postal code first; in
// Latin script, in Japan's Latin order. A field a's country's format has
// no place for is kept, with the street lines. Nil has no lines.
func (p *Printer) Address(a *billingv1.Address) []string {
	if a == nil {
		return nil
	}
	country := strings.ToUpper(strings.TrimSpace(a.Country))
	f := addressFormats[country]
	if f.Fmt == "" {
		// libaddressinput's default order; not its capitals, for an
		// address whose country is unknown.
		f.Fmt = addressFormats["ZZ"].Fmt
	}
	format := f.Fmt
	if f.Lfmt != "" && latin(a) {
		format = f.Lfmt
	}
	fields := map[byte]string{'C': a.City, 'S': a.State, 'Z': a.PostalCode}
	upper := cases.Upper(p.tag)
	for _, c := range []byte(f.Upper) {
		if v, ok := fields[c]; ok {
			fields[c] = upper.String(v)
		}
	}
	street := nonEmpty(a.Line1, a.Line2)
	// A city the format has no place for (JP's %A holds it) joins the
	// street lines: after them where the format writes the street first,
	// before them where it writes big to small (the postal code or state
	// above the street).
	if !strings.Contains(format, "%C") && fields['C'] != "" {
		if bigToSmall(format) {
			street = append([]string{fields['C']}, street...)
		} else {
			street = append(street, fields['C'])
		}
	}
	var out []string
	for _, l := range strings.Split(format, "%n") {
		out = append(out, formatLine(l, fields, street)...)
	}
	if name := countryName(p.tag, country); name != "" {
		out = append(out, name)
	}
	return out
}

// token is a part of a line of a format: a field, or text.
type token struct {
	field byte // 'A', 'C', ...; 0 for text
	text  string
}

// tokenize splits a line of a format into fields and text.
func tokenize(l string) []token {
	var tokens []token
	for i := 0; i < len(l); {
		if l[i] == '%' && i+1 < len(l) {
			tokens = append(tokens, token{field: l[i+1]})
			i += 2
			continue
		}
		j := strings.IndexByte(l[i+1:], '%')
		if j < 0 {
			j = len(l) - i - 1
		}
		tokens = append(tokens, token{text: l[i : i+1+j]})
		i += 1 + j
	}
	return tokens
}

// formatLine writes one line of a format: the lines it yields (%A yields
// one per street line), none when it has fields and none has a value.
func formatLine(l string, fields map[byte]string, street []string) []string {
	tokens := tokenize(l)
	value := func(t token) string {
		if t.field == 'A' {
			if len(street) == 0 {
				return ""
			}
			return street[len(street)-1]
		}
		return fields[t.field]
	}
	hasFields, hasValue := false, false
	for _, t := range tokens {
		if t.field != 0 {
			hasFields = true
			hasValue = hasValue || value(t) != ""
		}
	}
	if hasFields && !hasValue {
		return nil
	}
	var out []string
	var b strings.Builder
	for _, t := range withoutEmpty(tokens, value) {
		switch {
		case t.field == 'A' && len(street) > 1:
			// Every street line but the last is a line of its own.
			out = append(out, street[:len(street)-1]...)
			b.WriteString(value(t))
		case t.field != 0:
			b.WriteString(value(t))
		default:
			b.WriteString(t.text)
		}
	}
	if s := strings.TrimSpace(b.String()); s != "" {
		out = append(out, s)
	}
	return out
}

// withoutEmpty is tokens without the fields that have no value, each with
// its separator: the text before it, else the text after it. "%C, %S %Z"
// without a state is "%C %Z"; "%Z %C" without a postal code is "%C".
func withoutEmpty(tokens []token, value func(token) string) []token {
	kept := append([]token(nil), tokens...)
	for i := 0; i < len(kept); {
		if kept[i].field == 0 || value(kept[i]) != "" {
			i++
			continue
		}
		switch {
		case i > 0 && kept[i-1].field == 0:
			kept = append(kept[:i-1], kept[i+1:]...)
			i--
		case i+1 < len(kept) && kept[i+1].field == 0:
			kept = append(kept[:i], kept[i+2:]...)
		default:
			kept = append(kept[:i], kept[i+1:]...)
		}
	}
	return kept
}

// nonEmpty are those of lines that are not blank, trimmed.
func nonEmpty(lines ...string) []string {
	var out []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// latin is whether a's text is in Latin script (or has no letters).
func latin(a *billingv1.Address) bool {
	for _, r := range a.Line1 + a.Line2 + a.City + a.State + a.PostalCode {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return true
}

// bigToSmall is whether format writes the postal code or the state above
// the street lines, as Japan's, China's and Korea's do in their scripts.
func bigToSmall(format string) bool {
	a := strings.Index(format, "%A")
	for _, f := range []string{"%Z", "%S"} {
		if i := strings.Index(format, f); i >= 0 && i < a {
			return true
		}
	}
	return false
}

// countryName is the name of the ISO 3166 region code in the language of
// tag (CLDR, golang.org/x/text/language/display), the code itself when it
// is not a region; "" for none.
func countryName(tag language.Tag, code string) string {
	if code == "" {
		return ""
	}
	r, err := language.ParseRegion(code)
	if err != nil {
		return code
	}
	if name := display.Regions(tag).Name(r); name != "" {
		return name
	}
	return code
}
