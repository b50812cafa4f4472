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
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// builtin is an XSD built-in datatype a simple type restricts.
type builtin string

// The built-in types this package checks; a schema with another fails to
// load.
const (
	xsString     builtin = "string"
	xsDecimal    builtin = "decimal"
	xsBoolean    builtin = "boolean"
	xsDate       builtin = "date"
	xsDateTime   builtin = "dateTime"
	xsTime       builtin = "time"
	xsGYear      builtin = "gYear"
	xsGYearMonth builtin = "gYearMonth"
)

// builtins is the set of supported built-in types.
var builtins = map[string]builtin{
	"string": xsString, "decimal": xsDecimal, "boolean": xsBoolean, "date": xsDate,
	"dateTime": xsDateTime, "time": xsTime, "gYear": xsGYear, "gYearMonth": xsGYearMonth,
}

// simpleType is a simple type: a built-in base and the facets of each
// restriction step down to it. A value must satisfy every step.
type simpleType struct {
	name  string
	base  builtin
	steps []*facets
}

// facets are the facets of one xs:restriction. A negative length, digit
// count or nil bound is absent.
type facets struct {
	patterns       []*regexp.Regexp
	patternSrc     []string
	enums          []string
	length         int
	minLength      int
	maxLength      int
	totalDigits    int
	fractionDigits int
	minInclusive   *bound
	maxInclusive   *bound
	minExclusive   *bound
	maxExclusive   *bound
}

// bound is a decimal bound of a range facet, as written and as a number.
type bound struct {
	src string
	val *big.Rat
}

func newFacets() *facets {
	return &facets{length: -1, minLength: -1, maxLength: -1, totalDigits: -1, fractionDigits: -1}
}

// check returns what is wrong with raw as a value of t, or "".
func (t *simpleType) check(raw string) string {
	v := raw
	if t.base != xsString {
		v = collapse(raw)
	}
	if !lexical(t.base, v) {
		return fmt.Sprintf("%s is not a valid xs:%s", quote(v), t.base)
	}
	for _, f := range t.steps {
		if what := f.check(t, v); what != "" {
			return what
		}
	}
	return ""
}

// check returns what is wrong with v under f, or "".
func (f *facets) check(t *simpleType, v string) string {
	if len(f.patterns) > 0 && !anyMatch(f.patterns, v) {
		return fmt.Sprintf("%s does not match the pattern %s", quote(v), strings.Join(f.patternSrc, " | "))
	}
	if len(f.enums) > 0 && !contains(f.enums, v) {
		if len(f.enums) <= 10 {
			return fmt.Sprintf("%s is not one of %s", quote(v), strings.Join(f.enums, ", "))
		}
		return fmt.Sprintf("%s is not a code of %s", quote(v), t.name)
	}
	if n := utf8.RuneCountInString(v); t.base == xsString {
		switch {
		case f.length >= 0 && n != f.length:
			return fmt.Sprintf("%s has %d characters, not %d", quote(v), n, f.length)
		case f.minLength >= 0 && n < f.minLength:
			return fmt.Sprintf("%s has %d characters, fewer than %d", quote(v), n, f.minLength)
		case f.maxLength >= 0 && n > f.maxLength:
			return fmt.Sprintf("%s has %d characters, more than %d", quote(v), n, f.maxLength)
		}
	}
	if t.base == xsDecimal {
		return f.checkDecimal(v)
	}
	return ""
}

// checkDecimal checks v, a lexically valid xs:decimal, against f's digit
// counts and bounds, which XSD applies to the value: 12.50 has three
// digits, two of them fraction digits.
func (f *facets) checkDecimal(v string) string {
	intPart, frac := splitDecimal(v)
	intPart = strings.TrimLeft(intPart, "0")
	frac = strings.TrimRight(frac, "0")
	total := len(intPart) + len(frac)
	if intPart == "" {
		total = len(strings.TrimLeft(frac, "0"))
	}
	switch {
	case f.fractionDigits >= 0 && len(frac) > f.fractionDigits:
		return fmt.Sprintf("%s has more than %d fraction digits", quote(v), f.fractionDigits)
	case f.totalDigits >= 0 && total > f.totalDigits:
		return fmt.Sprintf("%s has more than %d digits", quote(v), f.totalDigits)
	}
	if f.minInclusive == nil && f.maxInclusive == nil && f.minExclusive == nil && f.maxExclusive == nil {
		return ""
	}
	x, ok := new(big.Rat).SetString(strings.TrimPrefix(v, "+"))
	if !ok {
		return fmt.Sprintf("%s is not a valid xs:decimal", quote(v))
	}
	switch {
	case f.minInclusive != nil && x.Cmp(f.minInclusive.val) < 0:
		return fmt.Sprintf("%s is less than %s", quote(v), f.minInclusive.src)
	case f.maxInclusive != nil && x.Cmp(f.maxInclusive.val) > 0:
		return fmt.Sprintf("%s is greater than %s", quote(v), f.maxInclusive.src)
	case f.minExclusive != nil && x.Cmp(f.minExclusive.val) <= 0:
		return fmt.Sprintf("%s is not greater than %s", quote(v), f.minExclusive.src)
	case f.maxExclusive != nil && x.Cmp(f.maxExclusive.val) >= 0:
		return fmt.Sprintf("%s is not less than %s", quote(v), f.maxExclusive.src)
	}
	return ""
}

func anyMatch(res []*regexp.Regexp, v string) bool {
	for _, re := range res {
		if re.MatchString(v) {
			return true
		}
	}
	return false
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

// quote writes a value for an error message: quoted, and cut after 40
// characters.
func quote(v string) string {
	const most = 40
	if utf8.RuneCountInString(v) > most {
		return strconv.Quote(string([]rune(v)[:most])) + "…"
	}
	return strconv.Quote(v)
}

// collapse is XSD's whiteSpace collapse: runs of white space become one
// space, and none is left at either end.
func collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r'
	}), " ")
}

// splitDecimal splits a lexically valid decimal into its integer and
// fraction digits, without sign.
func splitDecimal(v string) (intPart, frac string) {
	v = strings.TrimLeft(v, "+-")
	intPart, frac, _ = strings.Cut(v, ".")
	return intPart, frac
}
