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

import "strings"

// lexical reports whether v (white space already collapsed for every type
// but xs:string) is in the lexical space of b, as XSD 1.0 defines it. Dates
// are checked against the calendar (no 2026-02-30, 29 February in leap
// years only); a time is 00:00:00 to 23:59:59.999..., without 24:00:00;
// a time zone is Z or ±hh:mm up to 14:00.
func lexical(b builtin, v string) bool {
	f := lexicalSpaces[b]
	return f != nil && f(v)
}

// lexicalSpaces checks each built-in type's lexical space.
var lexicalSpaces = map[builtin]func(string) bool{
	xsString:     func(string) bool { return true },
	xsDecimal:    isDecimal,
	xsBoolean:    func(v string) bool { return v == "true" || v == "false" || v == "1" || v == "0" },
	xsDate:       isDate,
	xsDateTime:   isDateTime,
	xsTime:       isTime,
	xsGYear:      isGYear,
	xsGYearMonth: isGYearMonth,
}

func isDate(v string) bool {
	rest, ok := yearMonthDay(v)
	return ok && timezone(rest)
}

func isDateTime(v string) bool {
	rest, ok := yearMonthDay(v)
	if !ok || len(rest) == 0 || rest[0] != 'T' {
		return false
	}
	rest, ok = clock(rest[1:])
	return ok && timezone(rest)
}

func isTime(v string) bool {
	rest, ok := clock(v)
	return ok && timezone(rest)
}

func isGYear(v string) bool {
	_, rest, ok := year(v)
	return ok && timezone(rest)
}

func isGYearMonth(v string) bool {
	_, rest, ok := year(v)
	if !ok || len(rest) < 3 || rest[0] != '-' {
		return false
	}
	m, ok := twoDigits(rest[1:])
	return ok && m >= 1 && m <= 12 && timezone(rest[3:])
}

// isDecimal reports whether v is [+-]?(digits(.digits?)?|.digits).
func isDecimal(v string) bool {
	if v != "" && (v[0] == '+' || v[0] == '-') {
		v = v[1:]
	}
	digits, dot, frac := 0, false, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9' && dot:
			frac++
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits+frac > 0
}

// year reads an XSD year: an optional minus, four or more digits, no
// leading zero beyond four, not 0000. It returns whether the year is a
// leap year, the rest of v, and whether it read one.
func year(v string) (leap bool, rest string, ok bool) {
	s := v
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n < 4 || (n > 4 && s[0] == '0') {
		return false, "", false
	}
	digits := s[:n]
	if strings.Trim(digits, "0") == "" {
		return false, "", false
	}
	// A leap year is divisible by 4, and by 400 when by 100; the sign
	// does not change divisibility.
	last := 0
	for _, c := range digits[n-4:] {
		last = last*10 + int(c-'0')
	}
	hundreds := last % 100
	if hundreds == 0 {
		// divisible by 400 iff the number formed by the digits before the
		// last two is divisible by 4.
		q := 0
		for _, c := range digits[:n-2] {
			q = (q*10 + int(c-'0')) % 4
		}
		leap = q == 0
	} else {
		leap = last%4 == 0
	}
	return leap, s[n:], true
}

// yearMonthDay reads YYYY-MM-DD, a day of the calendar, at the start of v
// and returns the rest of v.
func yearMonthDay(v string) (string, bool) {
	leap, rest, ok := year(v)
	if !ok || len(rest) < 6 || rest[0] != '-' || rest[3] != '-' {
		return "", false
	}
	m, ok1 := twoDigits(rest[1:])
	d, ok2 := twoDigits(rest[4:])
	if !ok1 || !ok2 || m < 1 || m > 12 || d < 1 {
		return "", false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
	if m == 2 && leap {
		days = 29
	}
	if d > days {
		return "", false
	}
	return rest[6:], true
}

// clock reads hh:mm:ss(.s+)? and returns the rest of v.
func clock(v string) (string, bool) {
	if len(v) < 8 || v[2] != ':' || v[5] != ':' {
		return "", false
	}
	h, ok1 := twoDigits(v)
	m, ok2 := twoDigits(v[3:])
	s, ok3 := twoDigits(v[6:])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || s > 59 {
		return "", false
	}
	rest := v[8:]
	if rest != "" && rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return "", false
		}
		rest = rest[n:]
	}
	return rest, true
}

// timezone reports whether v is empty, Z or ±hh:mm within ±14:00.
func timezone(v string) bool {
	switch {
	case v == "" || v == "Z":
		return true
	case len(v) != 6 || (v[0] != '+' && v[0] != '-') || v[3] != ':':
		return false
	}
	h, ok1 := twoDigits(v[1:])
	m, ok2 := twoDigits(v[4:])
	return ok1 && ok2 && m <= 59 && (h < 14 || (h == 14 && m == 0))
}

// twoDigits reads the two ASCII digits at the start of v.
func twoDigits(v string) (int, bool) {
	if len(v) < 2 || v[0] < '0' || v[0] > '9' || v[1] < '0' || v[1] > '9' {
		return 0, false
	}
	return int(v[0]-'0')*10 + int(v[1]-'0'), true
}
