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
	"regexp"
	"strings"
)

// XML Schema's regular expressions (XSD 1.0 Part 2, appendix F) differ from
// Go's RE2: a pattern matches the whole value (it is implicitly anchored),
// ^ and $ are ordinary characters, \d is any Unicode decimal digit, . is
// any character but CR and LF, and there are no flags, lazy quantifiers or
// (?...) groups. translatePattern writes the subset the ISO 20022 schemas
// use in RE2 and refuses the rest (character class subtraction, \s \w \i
// \c, \p{...} and the other multi-character escapes), so that a schema
// with a pattern this package would misread fails when it is loaded.

// compilePattern compiles an XSD pattern facet.
func compilePattern(pattern string) (*regexp.Regexp, error) {
	re, err := translatePattern(pattern)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	compiled, err := regexp.Compile(re)
	if err != nil {
		return nil, fmt.Errorf("pattern %q (as %q): %w", pattern, re, err)
	}
	return compiled, nil
}

// translatePattern writes an XSD pattern as an anchored RE2 expression.
func translatePattern(pattern string) (string, error) {
	rs := []rune(pattern)
	var b strings.Builder
	b.WriteString(`^(?:`)
	// atom is whether what precedes may take a quantifier: XSD refuses a
	// quantifier at the start of a branch or after another quantifier.
	atom := false
	depth := 0
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '\\':
			s, err := escapeOutside(rs, i)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			i++
			atom = true
		case '[':
			s, n, err := charClass(rs, i)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			i += n - 1
			atom = true
		case '.':
			b.WriteString(`[^\n\r]`)
			atom = true
		case '(':
			if i+1 < len(rs) && rs[i+1] == '?' {
				return "", fmt.Errorf("(? at %d is not XSD", i)
			}
			b.WriteString(`(?:`)
			depth++
			atom = false
		case ')':
			if depth == 0 {
				return "", fmt.Errorf("unbalanced ) at %d", i)
			}
			depth--
			b.WriteByte(')')
			atom = true
		case '|':
			b.WriteByte('|')
			atom = false
		case '*', '+', '?':
			if !atom {
				return "", fmt.Errorf("quantifier %c at %d follows no atom", c, i)
			}
			b.WriteRune(c)
			atom = false
		case '{':
			if !atom {
				return "", fmt.Errorf("quantifier at %d follows no atom", i)
			}
			n, err := quantifier(rs, i)
			if err != nil {
				return "", err
			}
			b.WriteString(string(rs[i : i+n]))
			i += n - 1
			atom = false
		case '}', ']':
			return "", fmt.Errorf("unescaped %c at %d", c, i)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
			atom = true
		}
	}
	if depth != 0 {
		return "", fmt.Errorf("unbalanced (")
	}
	b.WriteString(`)$`)
	return b.String(), nil
}

// quantifier checks the {n}, {n,} or {n,m} at rs[i] and returns its length.
func quantifier(rs []rune, i int) (int, error) {
	j := i + 1
	digits := func() int {
		k := j
		for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
			j++
		}
		return j - k
	}
	if digits() == 0 {
		return 0, fmt.Errorf("quantifier at %d has no minimum", i)
	}
	if j < len(rs) && rs[j] == ',' {
		j++
		digits()
	}
	if j >= len(rs) || rs[j] != '}' {
		return 0, fmt.Errorf("unterminated quantifier at %d", i)
	}
	return j + 1 - i, nil
}

// singleEscapes are XSD's single-character escapes and the character each
// stands for.
var singleEscapes = map[rune]rune{
	'n': '\n', 'r': '\r', 't': '\t', '\\': '\\', '|': '|', '.': '.', '?': '?', '*': '*', '+': '+',
	'(': '(', ')': ')', '{': '{', '}': '}', '-': '-', '[': '[', ']': ']', '^': '^',
}

// escapeOutside translates the escape at rs[i] outside a character class.
func escapeOutside(rs []rune, i int) (string, error) {
	if i+1 >= len(rs) {
		return "", fmt.Errorf("pattern ends in \\")
	}
	switch e := rs[i+1]; e {
	case 'd':
		return `\p{Nd}`, nil
	case 'D':
		return `\P{Nd}`, nil
	default:
		c, ok := singleEscapes[e]
		if !ok {
			return "", fmt.Errorf("escape \\%c at %d is not translated", e, i)
		}
		return regexp.QuoteMeta(string(c)), nil
	}
}

// charClass translates the character class at rs[i] and returns it and
// its length in rs.
func charClass(rs []rune, i int) (string, int, error) {
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(rs) && rs[j] == '^' {
		b.WriteByte('^')
		j++
	}
	start := j
	for {
		if j >= len(rs) {
			return "", 0, fmt.Errorf("unterminated character class at %d", i)
		}
		c := rs[j]
		switch {
		case c == ']' && j > start:
			b.WriteByte(']')
			return b.String(), j + 1 - i, nil
		case c == ']' || c == '[':
			return "", 0, fmt.Errorf("%c at %d in a character class", c, j)
		case c == '-' && j+1 < len(rs) && rs[j+1] == '[':
			return "", 0, fmt.Errorf("character class subtraction at %d is not translated", j)
		}
		s, n, err := classItemOrRange(rs, j)
		if err != nil {
			return "", 0, err
		}
		b.WriteString(s)
		j += n
	}
}

// classItemOrRange translates the character, escape or range at rs[j] in a
// class and returns it and its length in rs.
func classItemOrRange(rs []rune, j int) (string, int, error) {
	lo, n, err := classChar(rs, j)
	if err != nil {
		return "", 0, err
	}
	k := j + n
	if k+1 >= len(rs) || rs[k] != '-' || rs[k+1] == ']' || rs[k+1] == '[' {
		if lo.class != "" {
			return lo.class, n, nil
		}
		return quoteClassRune(lo.r), n, nil
	}
	if lo.class != "" {
		return "", 0, fmt.Errorf("range from an escape class at %d", k)
	}
	hi, m, err := classChar(rs, k+1)
	if err != nil {
		return "", 0, err
	}
	if hi.class != "" || hi.r < lo.r {
		return "", 0, fmt.Errorf("bad range at %d", k)
	}
	return quoteClassRune(lo.r) + "-" + quoteClassRune(hi.r), n + 1 + m, nil
}

// classItem is one character of a class, or an escape class (\d).
type classItem struct {
	r     rune
	class string
}

// classChar reads the character or escape at rs[j] in a class.
func classChar(rs []rune, j int) (classItem, int, error) {
	if rs[j] != '\\' {
		return classItem{r: rs[j]}, 1, nil
	}
	if j+1 >= len(rs) {
		return classItem{}, 0, fmt.Errorf("pattern ends in \\")
	}
	switch e := rs[j+1]; e {
	case 'd':
		return classItem{class: `\p{Nd}`}, 2, nil
	case 'D':
		return classItem{class: `\P{Nd}`}, 2, nil
	default:
		c, ok := singleEscapes[e]
		if !ok {
			return classItem{}, 0, fmt.Errorf("escape \\%c at %d is not translated", e, j)
		}
		return classItem{r: c}, 2, nil
	}
}

// quoteClassRune writes r for inside an RE2 character class.
func quoteClassRune(r rune) string {
	switch r {
	case '\\', ']', '[', '^', '-':
		return `\` + string(r)
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return string(r)
}
