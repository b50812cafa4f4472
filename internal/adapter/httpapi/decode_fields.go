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

package httpapi

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// The field readers of parsed bodies: each checks one member of an object
// (type, bounds, control characters) and names it in the *Error it answers.

// bodyFields parses a whole body (parseBody) and checks it as an object of
// the known fields (checkObject): the present, non-null ones by name.
func bodyFields(body []byte, known map[string]kind) (map[string]*node, *Error) {
	root, e := parseBody(body)
	if e != nil {
		return nil, e
	}
	return checkObject(root, "", known)
}

// checkObject checks an object's members against the known fields and their
// JSON types, and returns the present, non-null ones by name. A null value
// counts as absent. An unknown field is 400 parameter_unknown, a duplicated
// one 400 body_invalid, a value of the wrong type 400 parameter_invalid.
func checkObject(obj *node, path string, known map[string]kind) (map[string]*node, *Error) {
	fields := make(map[string]*node, len(known))
	seen := make(map[string]bool, len(obj.fields))
	for _, m := range obj.fields {
		p := join(path, m.key)
		want, ok := known[m.key]
		if !ok {
			return nil, errorf(http.StatusBadRequest, CodeParameterUnknown, p, "Unknown parameter %s.", p)
		}
		if seen[m.key] {
			return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, p, "Parameter %s appears more than once.", p)
		}
		seen[m.key] = true
		if m.value.kind == kindNull {
			continue
		}
		if !want.accepts(m.value.kind) {
			return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, p,
				"%s must be %s, not %s.", p, want, m.value.kind)
		}
		fields[m.key] = m.value
	}
	return fields, nil
}

// checkObjects checks the structure and JSON types of the list name of a
// body (nil: absent): each element must be an object, which holds what
// holds says, and passes check. The errors are 400s.
func checkObjects[T any](list *node, name, holds string, check func(obj *node, path string) (T, *Error)) ([]T, *Error) {
	if list == nil {
		return nil, nil
	}
	out := make([]T, len(list.elems))
	for i, el := range list.elems {
		path := elem(name, i)
		if el.kind != kindObject {
			return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, path, "%s must be an object with %s.", path, holds)
		}
		var e *Error
		if out[i], e = check(el, path); e != nil {
			return nil, e
		}
	}
	return out, nil
}

// requiredString returns the string field name of fields, which must be
// present and 1 to maxLen characters (runes) long.
func requiredString(fields map[string]*node, path, name string, maxLen int) (string, *Error) {
	p := join(path, name)
	v := fields[name]
	if v == nil {
		return "", errorf(http.StatusUnprocessableEntity, CodeParameterMissing, p, "%s is required.", p)
	}
	if n := utf8.RuneCountInString(v.s); n < 1 || n > maxLen {
		return "", errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p,
			"%s must be 1 to %d characters long.", p, maxLen)
	}
	if hasControl(v.s) {
		return "", errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p,
			"%s must not contain control characters such as NUL (tab, line feed and carriage return are allowed).", p)
	}
	return v.s, nil
}

// optionalString returns the string field name of fields: "" when absent,
// else 1 to maxLen characters (runes) long, like requiredString.
func optionalString(fields map[string]*node, path, name string, maxLen int) (string, *Error) {
	if fields[name] == nil {
		return "", nil
	}
	return requiredString(fields, path, name, maxLen)
}

// optionalDay returns the day field name of fields, "" when absent: a
// string YYYY-MM-DD naming a day of the calendar (billing.ParseDay), else
// 422 parameter_invalid.
func optionalDay(fields map[string]*node, path, name string) (string, *Error) {
	if fields[name] == nil {
		return "", nil
	}
	s := fields[name].s
	if _, err := billing.ParseDay(s, time.UTC); err != nil {
		p := join(path, name)
		return "", errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p,
			"%s must be a day written YYYY-MM-DD, such as 2026-03-31.", p)
	}
	return s, nil
}

// hasControl reports whether s has a control character (Unicode category
// Cc: U+0000-U+001F, U+007F-U+009F) other than tab, line feed and carriage
// return. JSON lets a body carry them escaped (\u0000); they have no place
// in a name or a description, and some stores and terminals mishandle them.
func hasControl(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return true
		}
	}
	return false
}

// requiredWhole returns the number field name of fields, which must be
// present and a whole number from minV to maxV.
func requiredWhole(fields map[string]*node, path, name string, minV, maxV int64) (int64, *Error) {
	p := join(path, name)
	v := fields[name]
	if v == nil {
		return 0, errorf(http.StatusUnprocessableEntity, CodeParameterMissing, p, "%s is required.", p)
	}
	n, whole, fits := parseWhole(v.s)
	if !whole {
		return 0, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p, "%s must be a whole number.", p)
	}
	if !fits || n < minV || n > maxV {
		return 0, errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, p,
			"%s must be a whole number from %d to %d.", p, minV, maxV)
	}
	return n, nil
}

// parseWhole reads a JSON number literal exactly, without floating point:
// whole reports whether its value is a whole number (3, 3.0 and 3e2 are;
// 2.5 and 1e-1 are not), and fits whether that number fits an int64. Huge
// exponents cost nothing: the value is never materialised.
func parseWhole(lit string) (n int64, whole, fits bool) {
	neg := strings.HasPrefix(lit, "-")
	lit = strings.TrimPrefix(lit, "-")
	mantissa, expPart, hasExp := strings.Cut(strings.ToLower(lit), "e")
	intPart, fracPart, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(intPart+fracPart, "0")

	// The value is digits × 10^exp10.
	var exp10 int64
	if hasExp {
		e, err := strconv.ParseInt(expPart, 10, 64)
		if err != nil { // an exponent beyond int64: the sign says all
			if digits == "" {
				return 0, true, true
			}
			if strings.HasPrefix(expPart, "-") {
				return 0, false, false
			}
			return 0, true, false
		}
		exp10 = e
	}
	exp10 -= int64(len(fracPart))
	trimmed := strings.TrimRight(digits, "0")
	exp10 += int64(len(digits) - len(trimmed))
	digits = trimmed
	if digits == "" {
		return 0, true, true
	}
	if exp10 < 0 {
		return 0, false, false
	}
	if int64(len(digits))+exp10 > 19 {
		return 0, true, false
	}
	u, err := strconv.ParseUint(digits+strings.Repeat("0", int(exp10)), 10, 64) //nolint:gosec // exp10 <= 19.
	if err != nil {
		return 0, true, false
	}
	if neg {
		if u > 1<<63 {
			return 0, true, false
		}
		return -int64(u), true, true //nolint:gosec // u <= 2^63 was checked above.
	}
	if u > 1<<63-1 {
		return 0, true, false
	}
	return int64(u), true, true //nolint:gosec // u < 2^63 was checked above.
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func elem(path string, i int) string {
	return fmt.Sprintf("%s[%d]", path, i)
}
