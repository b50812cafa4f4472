/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/invoicing-dev/invoicing/internal/adapter/jsonscan"
)

// Bounds of the JSON structure of a body, so that a body of at most
// MaxBodyBytes costs little to refuse whatever it holds. The largest valid
// invoice (MaxItems items of three fields) has 4*MaxItems+4 values and is
// nested four deep; a body beyond either bound is 400 body_invalid before it
// is parsed further.
const (
	maxJSONValues = 4096
	maxJSONDepth  = 8
)

// kind is the JSON type of a value.
type kind int

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// node is a parsed JSON value. Objects keep their members in order,
// duplicates included, so that duplicates can be refused.
type node struct {
	kind   kind
	s      string // string value, or number literal
	fields []member
	elems  []*node
}

type member struct {
	key   string
	value *node
}

// parseBody parses a whole body as one JSON value. Bodies that are not valid
// UTF-8 JSON, or have anything but white space after the value, are 400
// body_invalid.
func parseBody(body []byte) (*node, *Error) {
	if !utf8.Valid(body) {
		return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "", "The body is not valid UTF-8.")
	}
	if !json.Valid(body) {
		var raw json.RawMessage
		err := json.Unmarshal(body, &raw)
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "",
				"The body is not valid JSON: %s (at byte %d).", syntax.Error(), syntax.Offset)
		}
		return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "", "The body is not valid JSON.")
	}
	p := &jsonParser{data: body, budget: maxJSONValues}
	root, err := p.value(1)
	switch {
	case errors.Is(err, errTooManyValues):
		return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "",
			"The body has more than %d JSON values (objects, arrays, strings, numbers, booleans and nulls).",
			maxJSONValues)
	case errors.Is(err, errTooDeep):
		return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "",
			"The body nests objects and arrays more than %d levels deep.", maxJSONDepth)
	case err != nil:
		return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "", "The body is not valid JSON.")
	}
	if root.kind != kindObject {
		return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "", "The body must be a JSON object.")
	}
	return root, nil
}

var (
	errUnexpectedToken = errors.New("unexpected JSON token")
	errTooManyValues   = errors.New("too many JSON values")
	errTooDeep         = errors.New("JSON nested too deeply")
)

// jsonParser reads the values of a body that json.Valid has accepted, in
// one pass, as a json.Decoder with UseNumber would read them token by
// token: strings unescaped, numbers as their literals.
type jsonParser struct {
	data []byte
	i    int
	// budget is how many more values the body may have.
	budget int
}

// value reads one value, at nesting level depth (the root is 1). It stops
// at the first value past the budget or past maxJSONDepth. The input has
// been checked with json.Valid, so other errors here are not expected; they
// are handled all the same.
func (p *jsonParser) value(depth int) (*node, error) {
	if p.budget--; p.budget < 0 {
		return nil, errTooManyValues
	}
	p.skipSpace()
	if p.i >= len(p.data) {
		return nil, errUnexpectedToken
	}
	switch c := p.data[p.i]; c {
	case '{', '[':
		if depth > maxJSONDepth {
			return nil, errTooDeep
		}
		p.i++
		if c == '{' {
			return p.object(depth)
		}
		return p.array(depth)
	case '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return &node{kind: kindString, s: s}, nil
	case 't':
		return p.literal("true", &node{kind: kindBool})
	case 'f':
		return p.literal("false", &node{kind: kindBool})
	case 'n':
		return p.literal("null", &node{kind: kindNull})
	}
	start := p.i
	for p.i < len(p.data) && strings.IndexByte("+-.0123456789eE", p.data[p.i]) >= 0 {
		p.i++
	}
	if p.i == start {
		return nil, errUnexpectedToken
	}
	return &node{kind: kindNumber, s: string(p.data[start:p.i])}, nil
}

// object reads the members of an object after its '{'.
func (p *jsonParser) object(depth int) (*node, error) {
	n := &node{kind: kindObject}
	if p.skipSpace(); p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return n, nil
	}
	for {
		p.skipSpace()
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		if p.skipSpace(); p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, errUnexpectedToken
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.fields = append(n.fields, member{key: key, value: v})
		if done, err := p.next('}'); done || err != nil {
			return n, err
		}
	}
}

// array reads the elements of an array after its '['.
func (p *jsonParser) array(depth int) (*node, error) {
	n := &node{kind: kindArray}
	if p.skipSpace(); p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return n, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		if done, err := p.next(']'); done || err != nil {
			return n, err
		}
	}
}

// next reads the ',' before another member or element (done false) or the
// closing bracket (done true).
func (p *jsonParser) next(closing byte) (done bool, err error) {
	p.skipSpace()
	if p.i >= len(p.data) {
		return false, errUnexpectedToken
	}
	switch p.data[p.i] {
	case ',':
		p.i++
		return false, nil
	case closing:
		p.i++
		return true, nil
	}
	return false, errUnexpectedToken
}

// string reads a string and returns its value: the bytes between the
// quotes when it has no escapes, else what encoding/json unescapes them to.
func (p *jsonParser) string() (string, error) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return "", errUnexpectedToken
	}
	start := p.i
	end, escaped := jsonscan.StringEnd(p.data, start)
	if end < 0 {
		return "", errUnexpectedToken
	}
	p.i = end
	if !escaped {
		return string(p.data[start+1 : end-1]), nil
	}
	var s string
	err := json.Unmarshal(p.data[start:end], &s)
	return s, err
}

func (p *jsonParser) literal(word string, n *node) (*node, error) {
	if !bytes.HasPrefix(p.data[p.i:], []byte(word)) {
		return nil, errUnexpectedToken
	}
	p.i += len(word)
	return n, nil
}

func (p *jsonParser) skipSpace() { p.i = jsonscan.SkipSpace(p.data, p.i) }

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
		if m.value.kind != want {
			return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, p,
				"%s must be %s, not %s.", p, want, m.value.kind)
		}
		fields[m.key] = m.value
	}
	return fields, nil
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
