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
	"strconv"
)

// maxReasons is how many errors a validation reports at most.
const maxReasons = 20

// xsiNS is the namespace of the schema instance attributes.
const xsiNS = "http://www.w3.org/2001/XMLSchema-instance"

// validation is one document checked against a schema: the errors found
// so far, each "path: what".
type validation struct {
	s    *schema
	errs []string
}

// validate checks the document whose root element is root against s and
// returns its errors, at most maxReasons, in document order. A path names
// each element from the root by its local name, with its 1-based position
// among its siblings of that name when its declaration lets it repeat:
// /Document/BkToCstmrStmt/Stmt[1]/Ntry[3]/Amt; an attribute is /@Ccy.
func (s *schema) validate(root *node) []string {
	v := &validation{s: s}
	path := "/" + root.name.Local
	if root.name != (xmlName{s.ns, s.root.name}) {
		v.fail(path, fmt.Sprintf("the root element is {%s}%s, not {%s}%s", root.name.Space, root.name.Local, s.ns, s.root.name))
		return v.errs
	}
	v.element(root, s.root.typ, path)
	return v.errs
}

// full reports whether no more errors are wanted.
func (v *validation) full() bool { return len(v.errs) >= maxReasons }

func (v *validation) fail(path, what string) {
	if !v.full() {
		v.errs = append(v.errs, path+": "+what)
	}
}

// element checks n, at path, against its type.
func (v *validation) element(n *node, t *complexType, path string) {
	v.attributes(n, t, path)
	if t.content == nil {
		if len(n.children) > 0 {
			v.fail(path, fmt.Sprintf("element %s is not allowed in a value", n.children[0].name.Local))
			return
		}
		if what := t.simple.check(string(n.text)); what != "" {
			v.fail(path, what)
		}
		return
	}
	if !isSpace(string(n.text)) {
		v.fail(path, fmt.Sprintf("text %s is not allowed between elements", quote(trimSpace(string(n.text)))))
	}
	a := t.content
	set := a.begin()
	seen := map[string]int{}
	for _, c := range n.children {
		if v.full() {
			return
		}
		seen[c.name.Local]++
		next, m := a.step(set, v.s.ns, c.name.Space, c.name.Local)
		if m == nil {
			v.fail(path, unexpected(a, set, c, v.s.ns))
			return
		}
		set = next
		if m.any != nil {
			v.wildcard(c, m.any, path+"/"+c.name.Local)
			continue
		}
		childPath := path + "/" + c.name.Local
		if m.decl.max != 1 {
			childPath += "[" + strconv.Itoa(seen[c.name.Local]) + "]"
		}
		v.element(c, m.decl.typ, childPath)
	}
	if !a.accepts(set) {
		v.fail(path, "missing element "+a.expected(set, true))
	}
}

// unexpected says why child c does not fit after set.
func unexpected(a *automaton, set []int, c *node, ns string) string {
	name := c.name.Local
	if c.name.Space != ns {
		name = fmt.Sprintf("{%s}%s", c.name.Space, c.name.Local)
	}
	if exp := a.expected(set, false); exp != "" {
		return fmt.Sprintf("unexpected element %s; expected %s", name, exp)
	}
	return fmt.Sprintf("unexpected element %s; no more elements are allowed here", name)
}

// wildcard checks an element an xs:any matched: under lax, only when it is
// the schema's global element; under strict, it must be; under skip, never.
func (v *validation) wildcard(c *node, w *wildcard, path string) {
	global := c.name == (xmlName{v.s.ns, v.s.root.name})
	switch {
	case w.process == processSkip:
	case global:
		v.element(c, v.s.root.typ, path)
	case w.process == processStrict:
		v.fail(path, "no declaration for element "+c.name.Local)
	}
}

// attributes checks n's attributes against t's: namespace declarations
// and xsi:schemaLocation are always allowed, any other attribute only if
// t declares it.
func (v *validation) attributes(n *node, t *complexType, path string) {
	for _, a := range n.attrs {
		switch {
		case a.Name.Space == xmlnsPrefix || (a.Name.Space == "" && a.Name.Local == xmlnsPrefix):
			continue
		case a.Name.Space == xsiNS && (a.Name.Local == "schemaLocation" || a.Name.Local == "noNamespaceSchemaLocation"):
			continue
		}
		decl := t.attribute(a.Name.Space, a.Name.Local)
		if decl == nil {
			v.fail(path+"/@"+attrName(a.Name.Space, a.Name.Local), "attribute not allowed")
			continue
		}
		if what := decl.typ.check(a.Value); what != "" {
			v.fail(path+"/@"+a.Name.Local, what)
		}
	}
	for _, d := range t.attrs {
		if d.required && !hasAttr(n, d.name) {
			v.fail(path, "missing attribute "+d.name)
		}
	}
}

// attribute is t's declaration of the unqualified attribute local, or nil.
func (t *complexType) attribute(space, local string) *attributeDecl {
	if space != "" {
		return nil
	}
	for i := range t.attrs {
		if t.attrs[i].name == local {
			return &t.attrs[i]
		}
	}
	return nil
}

func hasAttr(n *node, local string) bool {
	for _, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return true
		}
	}
	return false
}

// attrName writes an attribute's name for a path.
func attrName(space, local string) string {
	switch space {
	case "":
		return local
	case xsiNS:
		return "xsi:" + local
	}
	return "{" + space + "}" + local
}
