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
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// xsdNS is the namespace of XML Schema.
const xsdNS = "http://www.w3.org/2001/XMLSchema"

// xmlnsPrefix is the prefix of namespace declarations, and the name of the
// default one.
const xmlnsPrefix = "xmlns"

// The compositors of a content model.
const (
	sequence = "sequence"
	choice   = "choice"
)

// The processContents of a wildcard.
const (
	processStrict = "strict"
	processLax    = "lax"
	processSkip   = "skip"
)

// schema is an XSD compiled for validation: its target namespace and the
// declaration of its one global element, Document.
type schema struct {
	ns   string
	root *elementDecl
}

// complexType is an element's type: simple content (a simple type and
// attributes) or element-only content (an automaton).
type complexType struct {
	name    string
	simple  *simpleType
	attrs   []attributeDecl
	content *automaton
}

// attributeDecl is an xs:attribute of a simple content extension.
type attributeDecl struct {
	name     string
	typ      *simpleType
	required bool
}

// loader compiles a schema's global types on first use.
type loader struct {
	ns       string
	prefixes map[string]string
	complex  map[string]*node
	simple   map[string]*node
	done     map[string]*complexType
	doneST   map[string]*simpleType
}

// loadSchema compiles an XSD. It fails on any construct outside the subset
// the ISO 20022 message schemas use, rather than validate against a schema
// it misreads: the subset is global complex types of xs:sequence and
// xs:choice (nested, with minOccurs and maxOccurs) of local xs:element
// declarations by type and of xs:any, or of xs:simpleContent extending a
// simple type with xs:attribute; and global simple types restricting the
// built-in types of builtins (or another such type) with the facets
// pattern, enumeration, length, minLength, maxLength, totalDigits,
// fractionDigits, minInclusive, maxInclusive, minExclusive and
// maxExclusive; and one global element.
func loadSchema(data []byte) (*schema, error) {
	root, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	if root.name != (xmlName{xsdNS, "schema"}) {
		return nil, errors.New("the root element is not xs:schema")
	}
	l := &loader{
		ns: root.attr("targetNamespace"), prefixes: map[string]string{},
		complex: map[string]*node{}, simple: map[string]*node{},
		done: map[string]*complexType{}, doneST: map[string]*simpleType{},
	}
	if err := l.schemaAttrs(root); err != nil {
		return nil, err
	}
	var global *node
	for _, c := range root.children {
		if c.name.Space != xsdNS {
			return nil, fmt.Errorf("unsupported top-level element %s", c.name.Local)
		}
		name := c.attr("name")
		switch c.name.Local {
		case "element":
			if global != nil {
				return nil, errors.New("more than one global element")
			}
			global = c
		case "complexType":
			if l.complex[name] != nil || name == "" {
				return nil, fmt.Errorf("complex type %q defined twice or unnamed", name)
			}
			l.complex[name] = c
		case "simpleType":
			if l.simple[name] != nil || name == "" {
				return nil, fmt.Errorf("simple type %q defined twice or unnamed", name)
			}
			l.simple[name] = c
		default:
			return nil, fmt.Errorf("unsupported top-level xs:%s", c.name.Local)
		}
	}
	if global == nil {
		return nil, errors.New("no global element")
	}
	decl, err := l.element(global)
	if err != nil {
		return nil, err
	}
	// Compile every type, used or not, so that an unsupported construct
	// anywhere in the schema fails now.
	for name := range l.complex {
		if _, err := l.complexType(name); err != nil {
			return nil, err
		}
	}
	for name := range l.simple {
		if _, err := l.simpleType(name); err != nil {
			return nil, err
		}
	}
	return &schema{ns: l.ns, root: decl}, nil
}

// xmlName is encoding/xml's Name, for comparisons.
type xmlName = struct{ Space, Local string }

// schemaAttrs reads xs:schema's attributes: the namespace prefixes, which
// only it may declare, and the forms, which must be the ISO 20022 ones.
func (l *loader) schemaAttrs(root *node) error {
	for _, a := range root.attrs {
		switch {
		case a.Name.Space == xmlnsPrefix:
			l.prefixes[a.Name.Local] = a.Value
		case a.Name.Space == "" && a.Name.Local == xmlnsPrefix:
			l.prefixes[""] = a.Value
		case a.Name.Space == "" && a.Name.Local == "elementFormDefault":
			if a.Value != "qualified" {
				return errors.New(`elementFormDefault is not "qualified"`)
			}
		case a.Name.Space == "" && (a.Name.Local == "targetNamespace" || a.Name.Local == "version"):
		default:
			return fmt.Errorf("unsupported xs:schema attribute %s", a.Name.Local)
		}
	}
	if l.ns == "" {
		return errors.New("no targetNamespace")
	}
	return nil
}

// checkAttrs fails when n has an attribute other than allowed.
func checkAttrs(n *node, allowed ...string) error {
	for _, a := range n.attrs {
		if a.Name.Space != "" || !contains(allowed, a.Name.Local) {
			return fmt.Errorf("unsupported attribute %s on xs:%s %q", a.Name.Local, n.name.Local, n.attr("name"))
		}
	}
	return nil
}

// resolve reads a QName in the schema's prefixes.
func (l *loader) resolve(qname string) (space, local string, err error) {
	prefix, local, ok := strings.Cut(qname, ":")
	if !ok {
		prefix, local = "", qname
	}
	space, known := l.prefixes[prefix]
	if !known {
		return "", "", fmt.Errorf("undeclared prefix in %q", qname)
	}
	return space, local, nil
}

// element compiles a local (or the global) xs:element.
func (l *loader) element(n *node) (*elementDecl, error) {
	if err := checkAttrs(n, "name", "type", "minOccurs", "maxOccurs"); err != nil {
		return nil, err
	}
	if len(n.children) > 0 {
		return nil, fmt.Errorf("element %q: anonymous types are not supported", n.attr("name"))
	}
	min, max, err := occurs(n)
	if err != nil {
		return nil, err
	}
	decl := &elementDecl{name: n.attr("name"), min: min, max: max}
	space, local, err := l.resolve(n.attr("type"))
	if err != nil {
		return nil, err
	}
	switch {
	case space == l.ns && l.complex[local] != nil:
		decl.typ, err = l.complexType(local)
	case space == l.ns && l.simple[local] != nil:
		var st *simpleType
		st, err = l.simpleType(local)
		decl.typ = &complexType{name: local, simple: st}
	default:
		err = fmt.Errorf("element %q: unknown type %q", decl.name, n.attr("type"))
	}
	if err != nil {
		return nil, err
	}
	return decl, nil
}

// occurs reads minOccurs and maxOccurs, 1 when absent.
func occurs(n *node) (min, max int, err error) {
	min, max = 1, 1
	if v := n.attr("minOccurs"); v != "" {
		if min, err = strconv.Atoi(v); err != nil || min < 0 {
			return 0, 0, fmt.Errorf("bad minOccurs %q", v)
		}
	}
	if v := n.attr("maxOccurs"); v == "unbounded" {
		max = unbounded
	} else if v != "" {
		if max, err = strconv.Atoi(v); err != nil || max < 1 || max > 100 {
			return 0, 0, fmt.Errorf("unsupported maxOccurs %q", v)
		}
	}
	if max != unbounded && max < min {
		return 0, 0, fmt.Errorf("maxOccurs %d below minOccurs %d", max, min)
	}
	return min, max, nil
}

// complexType compiles the global complex type name once.
func (l *loader) complexType(name string) (*complexType, error) {
	if t, ok := l.done[name]; ok {
		return t, nil
	}
	n := l.complex[name]
	t := &complexType{name: name}
	// Recorded before its content, for types that contain themselves.
	l.done[name] = t
	if err := checkAttrs(n, "name"); err != nil {
		return nil, err
	}
	if len(n.children) != 1 || n.children[0].name.Space != xsdNS {
		return nil, fmt.Errorf("complex type %q: expected one xs:sequence, xs:choice or xs:simpleContent", name)
	}
	c := n.children[0]
	switch c.name.Local {
	case sequence, choice:
		a := &automaton{}
		start, end, err := l.particle(a, c, false)
		if err != nil {
			return nil, fmt.Errorf("complex type %q: %w", name, err)
		}
		a.start, a.final = start, end
		t.content = a
	case "simpleContent":
		if err := l.simpleContent(t, c); err != nil {
			return nil, fmt.Errorf("complex type %q: %w", name, err)
		}
	default:
		return nil, fmt.Errorf("complex type %q: unsupported xs:%s", name, c.name.Local)
	}
	return t, nil
}

// simpleContent compiles an xs:simpleContent's xs:extension into t.
func (l *loader) simpleContent(t *complexType, n *node) error {
	if len(n.attrs) > 0 || len(n.children) != 1 || n.children[0].name != (xmlName{xsdNS, "extension"}) {
		return errors.New("xs:simpleContent holds other than one xs:extension")
	}
	ext := n.children[0]
	if err := checkAttrs(ext, "base"); err != nil {
		return err
	}
	var err error
	if t.simple, err = l.simpleTypeRef(ext.attr("base")); err != nil {
		return err
	}
	for _, a := range ext.children {
		if a.name != (xmlName{xsdNS, "attribute"}) || len(a.children) > 0 {
			return fmt.Errorf("unsupported xs:%s in xs:extension", a.name.Local)
		}
		if err := checkAttrs(a, "name", "type", "use"); err != nil {
			return err
		}
		use := a.attr("use")
		if use != "" && use != "required" && use != "optional" {
			return fmt.Errorf("attribute %q: unsupported use %q", a.attr("name"), use)
		}
		st, err := l.simpleTypeRef(a.attr("type"))
		if err != nil {
			return err
		}
		t.attrs = append(t.attrs, attributeDecl{name: a.attr("name"), typ: st, required: use == "required"})
	}
	return nil
}

// particle compiles an xs:sequence, xs:choice, xs:element or xs:any into
// a, with its occurrences unrolled, and returns its start and end states;
// optional is whether the particle around it may be skipped.
func (l *loader) particle(a *automaton, n *node, optional bool) (start, end int, err error) {
	if n.name.Space != xsdNS {
		return 0, 0, fmt.Errorf("unsupported %s in a content model", n.name.Local)
	}
	min, max, err := occurs(n)
	if err != nil {
		return 0, 0, err
	}
	var once func(bool) (int, int, error)
	switch n.name.Local {
	case "element":
		decl, err := l.element(n)
		if err != nil {
			return 0, 0, err
		}
		// The declaration's occurrences are unrolled here, not in it.
		once = func(opt bool) (int, int, error) {
			s, e := a.single(move{decl: decl, required: !optional && !opt})
			return s, e, nil
		}
	case "any":
		if err := checkAttrs(n, "namespace", "processContents", "minOccurs", "maxOccurs"); err != nil {
			return 0, 0, err
		}
		if ns := n.attr("namespace"); ns != "" && ns != "##any" {
			return 0, 0, fmt.Errorf("unsupported xs:any namespace %q", ns)
		}
		process := n.attr("processContents")
		if process == "" {
			process = processStrict
		}
		if process != processStrict && process != processLax && process != processSkip {
			return 0, 0, fmt.Errorf("bad processContents %q", process)
		}
		w := &wildcard{process: process}
		once = func(opt bool) (int, int, error) {
			s, e := a.single(move{any: w, required: !optional && !opt})
			return s, e, nil
		}
	case sequence, choice:
		if err := checkAttrs(n, "minOccurs", "maxOccurs"); err != nil {
			return 0, 0, err
		}
		once = func(opt bool) (int, int, error) { return l.group(a, n, optional || opt) }
	default:
		return 0, 0, fmt.Errorf("unsupported xs:%s in a content model", n.name.Local)
	}
	return a.repeat(min, max, once)
}
