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

func TestXSDPatternsAreAnchoredAndReadInXSDsDialect(t *testing.T) {
	cases := []struct {
		name    string
		pattern string
		match   []string
		noMatch []string
	}{
		{"a pattern matches the whole value, not a part", "[A-Z]{3,3}",
			[]string{"EUR"}, []string{"EURO", "xEUR", "EU", "eur"}},
		{"an IBAN's pattern takes letters and digits after the check digits", "[A-Z]{2,2}[0-9]{2,2}[a-zA-Z0-9]{1,30}",
			[]string{"DE89370400440532013000", "FR1420041010050500013M02606"}, []string{"DE89 3704", "de89370400440532013000"}},
		{"an optional group may be absent or present once", "[A-Z0-9]{4,4}[A-Z]{2,2}[A-Z0-9]{2,2}([A-Z0-9]{3,3}){0,1}",
			[]string{"COBADEFF", "COBADEFFXXX"}, []string{"COBADEFFXX", "COBADEFFXXXX"}},
		{"a class may exclude a letter by its ranges", "[A-Z]{6,6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3,3}){0,1}",
			[]string{"BYLADEM1001", "ABNANL2A", "BYLADEO1"}, []string{"BYLADEMO", "BYLADE1M"}},
		{"an escaped plus and an escaped minus in a class are literal", `\+[0-9]{1,3}-[0-9()+\-]{1,30}`,
			[]string{"+49-(0)30-1234", "+1-555"}, []string{"49-30", "+49 30"}},
		{"a class holding an escaped plus takes the plus", `[\+]{0,1}[0-9]{1,15}`,
			[]string{"+12", "12"}, []string{"-12", "++12"}},
		{"a UUID's pattern fixes its version nibble", "[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89ab][a-f0-9]{3}-[a-f0-9]{12}",
			[]string{"3f2b8c1e-6a4d-4f0b-9a7e-1c2d3e4f5a6b"}, []string{"3f2b8c1e-6a4d-5f0b-9a7e-1c2d3e4f5a6b"}},
		{`\d is any Unicode decimal digit, as in XSD`, `\d{2}`,
			[]string{"12", "١٢"}, []string{"1a"}},
		{"^ and $ are ordinary characters in XSD", `\d\^$|^$`,
			[]string{"1^$", "^$"}, []string{"1", ""}},
		{". is any character but a line break", "a.c",
			[]string{"abc", "a c", "a€c"}, []string{"a\nc", "a\rc"}},
		{"a negated class takes what it does not list", "[^0-9]+",
			[]string{"abc"}, []string{"a1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			re, err := compilePattern(c.pattern)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range c.match {
				if !re.MatchString(v) {
					t.Errorf("%q does not match %s (as %s)", v, c.pattern, re)
				}
			}
			for _, v := range c.noMatch {
				if re.MatchString(v) {
					t.Errorf("%q matches %s (as %s)", v, c.pattern, re)
				}
			}
		})
	}
}

func TestAnXSDPatternConstructThatIsNotTranslatedFailsLoudly(t *testing.T) {
	cases := []struct{ name, pattern, err string }{
		{"class subtraction", "[a-z-[aeiou]]", "subtraction"},
		{"the white space escape, which differs from RE2's", `\s+`, `escape \s`},
		{"the word escape, which differs from RE2's", `\w+`, `escape \w`},
		{"XML name escapes", `\i\c*`, `escape \i`},
		{"Unicode block escapes", `\p{IsBasicLatin}`, `escape \p`},
		{"an RE2 group syntax", "(?i)abc", "(?"},
		{"a lazy quantifier, which XSD does not have", "a*?", "follows no atom"},
		{"a quantifier at the start", "*a", "follows no atom"},
		{"an unbalanced parenthesis", "(ab", "unbalanced"},
		{"an unescaped closing bracket", "a]", "unescaped ]"},
		{"an unterminated class", "[abc", "unterminated"},
		{"an empty class", "[]", "in a character class"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := compilePattern(c.pattern)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("compilePattern(%q) = %v, want an error with %q", c.pattern, err, c.err)
			}
		})
	}
}
