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

func TestBothOfficialSchemasLoadWithinTheSupportedSubset(t *testing.T) {
	for _, v := range Versions {
		s, err := schemas[v]()
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if s.ns != v.Namespace() || s.root.name != "Document" {
			t.Errorf("%s: declares {%s}%s", v, s.ns, s.root.name)
		}
	}
}

// xsd is a schema of the given body in a test namespace.
func xsd(body string) string {
	return `<xs:schema xmlns="urn:test" xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified" targetNamespace="urn:test">
  <xs:element name="Document" type="Document"/>
  <xs:complexType name="Document"><xs:sequence><xs:element name="A" type="A"/></xs:sequence></xs:complexType>
` + body + `</xs:schema>`
}

func TestASchemaBeyondTheSupportedSubsetFailsToLoad(t *testing.T) {
	cases := []struct{ name, schema, err string }{
		{"complex content derivation", xsd(`<xs:complexType name="A"><xs:complexContent><xs:extension base="Document"/></xs:complexContent></xs:complexType>`),
			"unsupported xs:complexContent"},
		{"an anonymous type", strings.Replace(xsd(``), `<xs:element name="A" type="A"/>`, `<xs:element name="A"><xs:simpleType><xs:restriction base="xs:string"/></xs:simpleType></xs:element>`, 1),
			"anonymous types are not supported"},
		{"an element reference", strings.Replace(xsd(`<xs:simpleType name="A"><xs:restriction base="xs:string"/></xs:simpleType>`), `name="A" type="A"`, `ref="Document"`, 1),
			"unsupported attribute ref"},
		{"a nillable element", strings.Replace(xsd(`<xs:simpleType name="A"><xs:restriction base="xs:string"/></xs:simpleType>`), `type="A"`, `type="A" nillable="true"`, 1),
			"unsupported attribute nillable"},
		{"a built-in type outside the subset", xsd(`<xs:simpleType name="A"><xs:restriction base="xs:duration"/></xs:simpleType>`),
			`unknown or unsupported simple type "xs:duration"`},
		{"a white space facet", xsd(`<xs:simpleType name="A"><xs:restriction base="xs:string"><xs:whiteSpace value="collapse"/></xs:restriction></xs:simpleType>`),
			"unsupported facet whiteSpace"},
		{"a length facet on a decimal", xsd(`<xs:simpleType name="A"><xs:restriction base="xs:decimal"><xs:maxLength value="3"/></xs:restriction></xs:simpleType>`),
			"unsupported facet maxLength on xs:decimal"},
		{"a pattern that is not translated", xsd(`<xs:simpleType name="A"><xs:restriction base="xs:string"><xs:pattern value="\s+"/></xs:restriction></xs:simpleType>`),
			`escape \s`},
		{"a list type", xsd(`<xs:simpleType name="A"><xs:list itemType="xs:string"/></xs:simpleType>`),
			"expected one xs:restriction"},
		{"an attribute group", xsd(`<xs:attributeGroup name="G"/><xs:simpleType name="A"><xs:restriction base="xs:string"/></xs:simpleType>`),
			"unsupported top-level xs:attributeGroup"},
		{"a wildcard limited to other namespaces", xsd(`<xs:complexType name="A"><xs:sequence><xs:any namespace="##other"/></xs:sequence></xs:complexType>`),
			`unsupported xs:any namespace "##other"`},
		{"an all group", xsd(`<xs:complexType name="A"><xs:all><xs:element name="B" type="A"/></xs:all></xs:complexType>`),
			"unsupported xs:all"},
		{"an unqualified element form", strings.Replace(xsd(``), `elementFormDefault="qualified"`, `elementFormDefault="unqualified"`, 1),
			`elementFormDefault is not "qualified"`},
		{"a type that is not defined", xsd(``),
			`unknown type "A"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadSchema([]byte(c.schema))
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("loadSchema = %v, want an error with %q", err, c.err)
			}
		})
	}
}

func TestASmallSchemaValidatesOccurrencesChoicesAndWildcards(t *testing.T) {
	s, err := loadSchema([]byte(xsd(`
  <xs:complexType name="A"><xs:sequence>
    <xs:element name="B" type="Code" maxOccurs="3"/>
    <xs:choice><xs:element name="C" type="Code"/><xs:element name="D" type="Code"/></xs:choice>
    <xs:element name="E" type="Env" minOccurs="0"/>
  </xs:sequence></xs:complexType>
  <xs:complexType name="Env"><xs:sequence><xs:any namespace="##any" processContents="lax"/></xs:sequence></xs:complexType>
  <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:enumeration value="x"/></xs:restriction></xs:simpleType>`)))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, body, want string }{
		{"one of a repeated element and one of a choice", `<B>x</B><C>x</C>`, ""},
		{"three of a repeated element and the other alternative", `<B>x</B><B>x</B><B>x</B><D>x</D>`, ""},
		{"a fourth of an element of three at most", `<B>x</B><B>x</B><B>x</B><B>x</B><D>x</D>`,
			"/Document/A: unexpected element B; expected C or D"},
		{"both alternatives of a choice", `<B>x</B><C>x</C><D>x</D>`,
			"/Document/A: unexpected element D; expected E"},
		{"a missing choice", `<B>x</B>`, "/Document/A: missing element C or D"},
		{"the repeated element's position in its path", `<B>x</B><B>y</B><C>x</C>`,
			`/Document/A/B[2]: "y" is not one of x`},
		{"any element in a lax wildcard", `<B>x</B><C>x</C><E><o:Note xmlns:o="urn:other"><o:Any/></o:Note></E>`, ""},
		{"the schema's own element in a lax wildcard is validated", `<B>x</B><C>x</C><E><Document><A/></Document></E>`,
			"/Document/A/E/Document/A: missing element B"},
		{"an element of another namespace where one of the schema is expected", `<o:B xmlns:o="urn:other">x</o:B>`,
			"/Document/A: unexpected element {urn:other}B; expected B"},
		{"an element in a value", `<B>x<F/></B><C>x</C>`, "/Document/A/B[1]: element F is not allowed in a value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, err := parseTree([]byte(`<Document xmlns="urn:test"><A>` + c.body + `</A></Document>`))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(s.validate(root), "\n")
			if got != c.want {
				t.Errorf("validate:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
