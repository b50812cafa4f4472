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
	"math/big"
	"strconv"
)

// group compiles the children of an xs:sequence or xs:choice, once;
// optional is whether this occurrence may be skipped.
func (l *loader) group(a *automaton, n *node, optional bool) (start, end int, err error) {
	if len(n.children) == 0 {
		return 0, 0, fmt.Errorf("empty xs:%s", n.name.Local)
	}
	start, end = a.newState(), a.newState()
	if n.name.Local == choice {
		for _, c := range n.children {
			s, e, err := l.particle(a, c, optional)
			if err != nil {
				return 0, 0, err
			}
			a.epsilon(start, s)
			a.epsilon(e, end)
		}
		return start, end, nil
	}
	last := start
	for _, c := range n.children {
		s, e, err := l.particle(a, c, optional)
		if err != nil {
			return 0, 0, err
		}
		a.epsilon(last, s)
		last = e
	}
	a.epsilon(last, end)
	return start, end, nil
}

// simpleTypeRef resolves a type attribute naming a simple type: a global
// one of the schema or a supported built-in type.
func (l *loader) simpleTypeRef(qname string) (*simpleType, error) {
	space, local, err := l.resolve(qname)
	if err != nil {
		return nil, err
	}
	switch {
	case space == l.ns && l.simple[local] != nil:
		return l.simpleType(local)
	case space == xsdNS && builtins[local] != "":
		return &simpleType{name: "xs:" + local, base: builtins[local]}, nil
	}
	return nil, fmt.Errorf("unknown or unsupported simple type %q", qname)
}

// simpleType compiles the global simple type name once.
func (l *loader) simpleType(name string) (*simpleType, error) {
	if t, ok := l.doneST[name]; ok {
		if t == nil {
			return nil, fmt.Errorf("simple type %q derives from itself", name)
		}
		return t, nil
	}
	l.doneST[name] = nil
	n := l.simple[name]
	if err := checkAttrs(n, "name"); err != nil {
		return nil, err
	}
	if len(n.children) != 1 || n.children[0].name != (xmlName{xsdNS, "restriction"}) {
		return nil, fmt.Errorf("simple type %q: expected one xs:restriction", name)
	}
	r := n.children[0]
	if err := checkAttrs(r, "base"); err != nil {
		return nil, err
	}
	base, err := l.simpleTypeRef(r.attr("base"))
	if err != nil {
		return nil, fmt.Errorf("simple type %q: %w", name, err)
	}
	f, err := readFacets(base.base, r)
	if err != nil {
		return nil, fmt.Errorf("simple type %q: %w", name, err)
	}
	t := &simpleType{name: name, base: base.base, steps: append(append([]*facets{}, base.steps...), f)}
	l.doneST[name] = t
	return t, nil
}

// readFacets reads a restriction's facets, each allowed only on the base
// types it applies to.
func readFacets(base builtin, r *node) (*facets, error) {
	f := newFacets()
	for _, c := range r.children {
		if c.name.Space != xsdNS || len(c.children) > 0 {
			return nil, fmt.Errorf("unsupported %s in xs:restriction", c.name.Local)
		}
		if err := checkAttrs(c, "value"); err != nil {
			return nil, err
		}
		rule, ok := facetRules[c.name.Local]
		if !ok || (rule.base != "" && rule.base != base) {
			return nil, fmt.Errorf("unsupported facet %s on xs:%s", c.name.Local, base)
		}
		if err := rule.set(f, c.attr("value")); err != nil {
			return nil, fmt.Errorf("facet %s: %w", c.name.Local, err)
		}
	}
	return f, nil
}

// facetRule is a supported facet: the base type it applies to ("" for
// any) and how its value is read into facets.
type facetRule struct {
	base builtin
	set  func(f *facets, v string) error
}

// facetRules are the supported facets by name.
var facetRules = map[string]facetRule{
	"pattern": {"", (*facets).addPattern},
	"enumeration": {xsString, func(f *facets, v string) error {
		f.enums = append(f.enums, v)
		return nil
	}},
	"length":         {xsString, func(f *facets, v string) (err error) { f.length, err = count(v); return err }},
	"minLength":      {xsString, func(f *facets, v string) (err error) { f.minLength, err = count(v); return err }},
	"maxLength":      {xsString, func(f *facets, v string) (err error) { f.maxLength, err = count(v); return err }},
	"totalDigits":    {xsDecimal, func(f *facets, v string) (err error) { f.totalDigits, err = count(v); return err }},
	"fractionDigits": {xsDecimal, func(f *facets, v string) (err error) { f.fractionDigits, err = count(v); return err }},
	"minInclusive":   {xsDecimal, func(f *facets, v string) (err error) { f.minInclusive, err = decimalBound(v); return err }},
	"maxInclusive":   {xsDecimal, func(f *facets, v string) (err error) { f.maxInclusive, err = decimalBound(v); return err }},
	"minExclusive":   {xsDecimal, func(f *facets, v string) (err error) { f.minExclusive, err = decimalBound(v); return err }},
	"maxExclusive":   {xsDecimal, func(f *facets, v string) (err error) { f.maxExclusive, err = decimalBound(v); return err }},
}

func (f *facets) addPattern(v string) error {
	re, err := compilePattern(v)
	if err != nil {
		return err
	}
	f.patterns = append(f.patterns, re)
	f.patternSrc = append(f.patternSrc, v)
	return nil
}

// count reads a non-negative facet value.
func count(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad value %q", v)
	}
	return n, nil
}

// decimalBound reads a range facet's decimal value.
func decimalBound(v string) (*bound, error) {
	if !isDecimal(v) {
		return nil, errors.New("not a decimal")
	}
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return nil, errors.New("not a decimal")
	}
	return &bound{src: v, val: r}, nil
}
