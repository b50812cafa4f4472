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
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/invoicing-dev/invoicing/internal/jsonscan"
)

// Bounds of the JSON structure of a body, so that a body of at most
// MaxBodyBytes costs little to refuse whatever it holds. The largest valid
// invoice (MaxItems items of three fields and a tax of three) has
// 8*MaxItems+4 values and is nested five deep; a body beyond either bound
// is 400 body_invalid before it is parsed further.
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
	// kindDecimal is no JSON type but what a field may be: a string or a
	// number, such as a tax rate ("19" or 19).
	kindDecimal
	// kindQuantity is a number that a string reaches as well, for its own
	// check to refuse with a 422 (a quantity's contract: a string is
	// parameter_invalid, as 0 or 5 decimals are).
	kindQuantity
)

func (k kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object", "a string or a number", "a number"}[k]
}

// accepts reports whether a field that must be k may hold a value of kind v.
func (k kind) accepts(v kind) bool {
	return v == k || (k == kindDecimal || k == kindQuantity) && (v == kindString || v == kindNumber)
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
		return p.literal(literalTrue, &node{kind: kindBool, s: literalTrue})
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

// closes reads closing when it comes next (after white space), as right
// after the opening of an empty object or array, and reports whether it
// did.
func (p *jsonParser) closes(closing byte) bool {
	if p.skipSpace(); p.i < len(p.data) && p.data[p.i] == closing {
		p.i++
		return true
	}
	return false
}

// object reads the members of an object after its '{'.
func (p *jsonParser) object(depth int) (*node, error) {
	n := &node{kind: kindObject}
	if p.closes('}') {
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
	if p.closes(']') {
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

// literalTrue is the JSON literal true, and the s of a node that holds it.
const literalTrue = "true"

func (p *jsonParser) literal(word string, n *node) (*node, error) {
	if !bytes.HasPrefix(p.data[p.i:], []byte(word)) {
		return nil, errUnexpectedToken
	}
	p.i += len(word)
	return n, nil
}

func (p *jsonParser) skipSpace() { p.i = jsonscan.SkipSpace(p.data, p.i) }
