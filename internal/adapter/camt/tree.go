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
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// maxDepth is how deeply a document's elements may nest. The deepest path
// the two schemas allow is far shallower; the limit keeps the recursive
// walks over the tree (validation, extraction) bounded on any input.
const maxDepth = 64

// node is an element of a parsed document or schema: its resolved name,
// its attributes, its child elements in order, and its character data
// (the text directly inside it, CDATA included, in document order).
type node struct {
	name     xml.Name
	attrs    []xml.Attr
	children []*node
	text     []byte
}

// parseTree reads data, a whole XML document in UTF-8, into its root
// element. It refuses what is not well-formed XML, a DOCTYPE (so no entity
// is ever defined or expanded), text or a second element outside the root,
// and elements nested deeper than maxDepth. Its errors are sentences for
// the person who sent the document.
func parseTree(data []byte) (*node, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return nil, errors.New("not UTF-8 text")
	}
	if start := bytes.TrimLeft(data, " \t\r\n"); len(start) == 0 || start[0] != '<' {
		return nil, errors.New("not XML: the document does not start with <")
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var root *node
	var stack []*node
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 && root != nil {
				return nil, errors.New("not well-formed XML: a second root element")
			}
			if len(stack) >= maxDepth {
				return nil, fmt.Errorf("elements nested deeper than %d levels", maxDepth)
			}
			n := &node{name: t.Name, attrs: append([]xml.Attr(nil), t.Attr...)}
			if len(stack) == 0 {
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				if !isSpace(string(t)) {
					return nil, errors.New("not well-formed XML: text outside the root element")
				}
				continue
			}
			n := stack[len(stack)-1]
			n.text = append(n.text, t...)
		case xml.Directive:
			return nil, errors.New("a DOCTYPE or other declaration (<!...>); documents with a DOCTYPE are refused")
		}
	}
	if root == nil {
		return nil, errors.New("not well-formed XML: no root element")
	}
	return root, nil
}

// isSpace reports whether s is only XML white space (space, tab, CR, LF).
func isSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// child is n's first child element named local, or nil; a nil n has none.
func (n *node) child(local string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.children {
		if c.name.Local == local {
			return c
		}
	}
	return nil
}

// all is n's child elements named local, in order.
func (n *node) all(local string) []*node {
	if n == nil {
		return nil
	}
	var out []*node
	for _, c := range n.children {
		if c.name.Local == local {
			out = append(out, c)
		}
	}
	return out
}

// at is the element reached from n by the path of local names, each step
// taking the first child of that name, or nil.
func (n *node) at(path ...string) *node {
	for _, local := range path {
		n = n.child(local)
	}
	return n
}

// value is the text of the element at path, its leading and trailing
// white space removed, or "" when there is no such element.
func (n *node) value(path ...string) string {
	e := n.at(path...)
	if e == nil {
		return ""
	}
	return trimSpace(string(e.text))
}

// attr is the value of n's attribute local in no namespace, or "".
func (n *node) attr(local string) string {
	for _, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// trimSpace removes XML white space from both ends of s.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i:i+1]) {
		i++
	}
	for j > i && isSpace(s[j-1:j]) {
		j--
	}
	return s[i:j]
}
