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

package pdfcheck

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ledongthuc/pdf"
)

// Report is what Inspect read of a PDF.
type Report struct {
	// Header is the file's first line, "%PDF-1.7"; BinaryComment reports
	// whether the second is a comment of at least four bytes above 127.
	Header        string
	BinaryComment bool
	// ID is the trailer's /ID, its two strings in hex; nil when absent.
	ID []string
	// Encrypted reports whether the trailer has /Encrypt.
	Encrypted bool
	// Info is the text entries of the Info dictionary.
	Info map[string]string
	// Metadata is the catalogue's /Metadata stream, nil when absent.
	Metadata *Metadata
	// OutputIntents are the catalogue's /OutputIntents.
	OutputIntents []OutputIntent
	// EmbeddedFiles are the files of the catalogue's EmbeddedFiles name
	// tree, in its order.
	EmbeddedFiles []EmbeddedFile
	// AF are the file specifications of the catalogue's /AF array.
	AF []EmbeddedFile
	// Fonts are the fonts of the pages' resources, by page then name.
	Fonts []Font
}

// Metadata is an XMP metadata stream.
type Metadata struct {
	// Type and Subtype are the stream's /Type and /Subtype names.
	Type, Subtype string
	// Filtered reports whether the stream has a /Filter.
	Filtered bool
	// Packet is the stream's content, the XMP packet.
	Packet []byte
}

// OutputIntent is an entry of /OutputIntents.
type OutputIntent struct {
	// S is its subtype, GTS_PDFA1 for PDF/A.
	S string
	// OutputConditionIdentifier names the condition.
	OutputConditionIdentifier string
	// N is the number of colour components of its DestOutputProfile (0
	// when it has none); Profile is the ICC profile's bytes.
	N       int
	Profile []byte
}

// EmbeddedFile is a file specification with its embedded file.
type EmbeddedFile struct {
	// Key is the file's key in the name tree ("" for an AF entry).
	Key string
	// F, UF and Desc are the file specification's entries.
	F, UF, Desc string
	// AFRelationship is its /AFRelationship name.
	AFRelationship string
	// Subtype is the embedded file stream's /Subtype (its media type).
	Subtype string
	// Size and ModDate are the stream's /Params entries.
	Size    int64
	ModDate string
	// Data is the file, decoded.
	Data []byte
	// spec is the file specification dictionary as text, to tell two
	// references to the same one.
	spec string
}

// SameSpec reports whether e and o are the same file specification.
func (e EmbeddedFile) SameSpec(o EmbeddedFile) bool {
	return e.spec == o.spec
}

// Font is a font of a page's resources, as embedding sees it.
type Font struct {
	// Name is its /BaseFont; Subtype its /Subtype (Type0, TrueType, ...).
	Name, Subtype string
	// Descendant is the /Subtype of a Type0 font's CIDFont.
	Descendant string
	// Embedded names the font descriptor's font file entry (FontFile,
	// FontFile2 or FontFile3), "" when the font is not embedded;
	// ProgramSize is the font program's decoded length.
	Embedded    string
	ProgramSize int
	// CIDToGIDMap is a CIDFontType2's /CIDToGIDMap: "Identity",
	// "stream", or "" when absent.
	CIDToGIDMap string
	// Widths reports whether the font states its glyphs' widths (/W of
	// a CIDFont, /Widths of a simple font).
	Widths bool
}

// Inspect reads doc's structure as PDF/A-3 and Factur-X describe it.
func Inspect(doc []byte) (*Report, error) {
	rep := &Report{Info: map[string]string{}}
	header, rest, _ := bytes.Cut(doc, []byte("\n"))
	rep.Header = string(bytes.TrimRight(header, "\r"))
	comment, _, _ := bytes.Cut(rest, []byte("\n"))
	high := 0
	for _, c := range comment {
		if c > 127 {
			high++
		}
	}
	rep.BinaryComment = bytes.HasPrefix(comment, []byte("%")) && high >= 4

	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		return nil, fmt.Errorf("reading the PDF: %w", err)
	}
	trailer := r.Trailer()
	rep.Encrypted = !trailer.Key("Encrypt").IsNull()
	if id := trailer.Key("ID"); id.Kind() == pdf.Array {
		for i := range id.Len() {
			rep.ID = append(rep.ID, fmt.Sprintf("%x", id.Index(i).RawString()))
		}
	}
	info := trailer.Key("Info")
	for _, k := range info.Keys() {
		if v := info.Key(k); v.Kind() == pdf.String {
			rep.Info[k] = v.Text()
		}
	}
	if err := rep.readCatalog(trailer.Key("Root")); err != nil {
		return nil, err
	}
	for i := 1; i <= r.NumPage(); i++ {
		fonts := r.Page(i).V.Key("Resources").Key("Font")
		for _, name := range fonts.Keys() {
			f, err := font(fonts.Key(name))
			if err != nil {
				return nil, fmt.Errorf("page %d, font %s: %w", i, name, err)
			}
			rep.Fonts = append(rep.Fonts, f)
		}
	}
	return rep, nil
}

// readCatalog reads the catalogue's metadata, output intents, embedded
// files and associated files into r.
func (r *Report) readCatalog(root pdf.Value) error {
	if root.Kind() != pdf.Dict {
		return errors.New("the trailer has no catalogue")
	}
	if m := root.Key("Metadata"); !m.IsNull() {
		packet, err := streamData(m)
		if err != nil {
			return fmt.Errorf("the metadata stream: %w", err)
		}
		r.Metadata = &Metadata{
			Type: m.Key("Type").Name(), Subtype: m.Key("Subtype").Name(),
			Filtered: !m.Key("Filter").IsNull(), Packet: packet,
		}
	}
	intents := root.Key("OutputIntents")
	for i := range intents.Len() {
		oi := intents.Index(i)
		intent := OutputIntent{S: oi.Key("S").Name(), OutputConditionIdentifier: oi.Key("OutputConditionIdentifier").Text()}
		if p := oi.Key("DestOutputProfile"); !p.IsNull() {
			intent.N = int(p.Key("N").Int64())
			var err error
			if intent.Profile, err = streamData(p); err != nil {
				return fmt.Errorf("output intent %d: %w", i, err)
			}
		}
		r.OutputIntents = append(r.OutputIntents, intent)
	}
	if err := walkNames(root.Key("Names").Key("EmbeddedFiles"), func(key string, spec pdf.Value) error {
		f, err := embeddedFile(spec)
		f.Key = key
		r.EmbeddedFiles = append(r.EmbeddedFiles, f)
		return err
	}); err != nil {
		return err
	}
	af := root.Key("AF")
	for i := range af.Len() {
		f, err := embeddedFile(af.Index(i))
		if err != nil {
			return err
		}
		r.AF = append(r.AF, f)
	}
	return nil
}

// walkNames calls visit with each key and value of the name tree node.
func walkNames(node pdf.Value, visit func(key string, v pdf.Value) error) error {
	if node.IsNull() {
		return nil
	}
	names := node.Key("Names")
	for i := 0; i+1 < names.Len(); i += 2 {
		if err := visit(names.Index(i).Text(), names.Index(i+1)); err != nil {
			return err
		}
	}
	kids := node.Key("Kids")
	for i := range kids.Len() {
		if err := walkNames(kids.Index(i), visit); err != nil {
			return err
		}
	}
	return nil
}

// embeddedFile reads a file specification and its embedded file.
func embeddedFile(spec pdf.Value) (EmbeddedFile, error) {
	f := EmbeddedFile{
		F: spec.Key("F").Text(), UF: spec.Key("UF").Text(), Desc: spec.Key("Desc").Text(),
		AFRelationship: spec.Key("AFRelationship").Name(), spec: spec.String(),
	}
	ef := spec.Key("EF").Key("F")
	if ef.IsNull() {
		ef = spec.Key("EF").Key("UF")
	}
	if ef.IsNull() {
		return f, fmt.Errorf("the file specification %q embeds no file", f.F)
	}
	f.Subtype = ef.Key("Subtype").Name()
	f.Size = ef.Key("Params").Key("Size").Int64()
	f.ModDate = ef.Key("Params").Key("ModDate").Text()
	var err error
	f.Data, err = streamData(ef)
	return f, err
}

// font reads how a font is embedded.
func font(v pdf.Value) (Font, error) {
	f := Font{Name: v.Key("BaseFont").Name(), Subtype: v.Key("Subtype").Name()}
	descriptor := v.Key("FontDescriptor")
	f.Widths = !v.Key("Widths").IsNull()
	if f.Subtype == "Type0" {
		cid := v.Key("DescendantFonts").Index(0)
		f.Descendant = cid.Key("Subtype").Name()
		descriptor = cid.Key("FontDescriptor")
		f.Widths = !cid.Key("W").IsNull()
		switch m := cid.Key("CIDToGIDMap"); m.Kind() {
		case pdf.Name:
			f.CIDToGIDMap = m.Name()
		case pdf.Stream:
			f.CIDToGIDMap = "stream"
		}
	}
	for _, key := range []string{"FontFile", "FontFile2", "FontFile3"} {
		if program := descriptor.Key(key); !program.IsNull() {
			f.Embedded = key
			data, err := streamData(program)
			if err != nil {
				return f, fmt.Errorf("%s: %w", key, err)
			}
			f.ProgramSize = len(data)
		}
	}
	return f, nil
}

// streamData is the decoded content of the stream v.
func streamData(v pdf.Value) (data []byte, err error) {
	if v.Kind() != pdf.Stream {
		return nil, fmt.Errorf("not a stream but %s", v)
	}
	defer func() {
		// The reader panics on a stream it cannot decode.
		if p := recover(); p != nil {
			err = fmt.Errorf("decoding the stream: %v", p)
		}
	}()
	rc := v.Reader()
	defer func() { _ = rc.Close() }()
	return io.ReadAll(rc)
}

// XMP are the simple properties of an XMP packet, by namespace and
// local name: an element's text, or for an rdf:Alt, rdf:Seq or rdf:Bag its
// first item's. A property of the extension schemas' descriptions is left
// out; Schemas has them.
type XMP struct {
	Properties map[xml.Name]string
	// Schemas are the extension schemas the packet declares
	// (pdfaExtension:schemas): their namespace URI, prefix and property
	// names.
	Schemas []XMPSchema
}

// XMPSchema is a PDF/A extension schema.
type XMPSchema struct {
	NamespaceURI string
	Prefix       string
	Properties   []string
}

// The namespaces of XMP's syntax and of PDF/A's extension schemas.
const (
	rdfNS       = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	extensionNS = "http://www.aiim.org/pdfa/ns/extension/"
	schemaNS    = "http://www.aiim.org/pdfa/ns/schema#"
	propertyNS  = "http://www.aiim.org/pdfa/ns/property#"
)

// ParseXMP reads packet's properties and extension schemas.
func ParseXMP(packet []byte) (*XMP, error) {
	p := &xmpParser{x: &XMP{Properties: map[xml.Name]string{}}}
	d := xml.NewDecoder(bytes.NewReader(packet))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return p.x, nil
		}
		if err != nil {
			return nil, fmt.Errorf("the XMP packet: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			p.start(t.Name)
		case xml.CharData:
			p.text.Write(t)
		case xml.EndElement:
			p.end(t.Name)
		}
	}
}

// xmpParser is ParseXMP's state: the open elements, the text of the
// current one and the extension schema being read.
type xmpParser struct {
	x      *XMP
	stack  []xml.Name
	text   strings.Builder
	schema *XMPSchema
}

// start opens element name.
func (p *xmpParser) start(name xml.Name) {
	n := len(p.stack)
	if name == (xml.Name{Space: rdfNS, Local: "li"}) && n >= 2 &&
		p.stack[n-2] == (xml.Name{Space: extensionNS, Local: "schemas"}) {
		// An item of pdfaExtension:schemas' rdf:Bag is a schema.
		p.x.Schemas = append(p.x.Schemas, XMPSchema{})
		p.schema = &p.x.Schemas[len(p.x.Schemas)-1]
	}
	p.stack = append(p.stack, name)
	p.text.Reset()
}

// end closes element name, recording its text where it is a property or
// a part of an extension schema.
func (p *xmpParser) end(name xml.Name) {
	p.stack = p.stack[:len(p.stack)-1]
	value := strings.TrimSpace(p.text.String())
	p.text.Reset()
	inExtension := slices.ContainsFunc(p.stack, func(n xml.Name) bool { return n.Space == extensionNS })
	switch {
	case value == "":
	case inExtension:
		p.schemaPart(name, value)
	case name == (xml.Name{Space: rdfNS, Local: "li"}) && len(p.stack) >= 2:
		// The first item of an Alt, Seq or Bag is its property's value.
		p.set(p.stack[len(p.stack)-2], value)
	case name.Space != rdfNS:
		p.set(name, value)
	}
}

// schemaPart records a part of the extension schema being read.
func (p *xmpParser) schemaPart(name xml.Name, value string) {
	if p.schema == nil {
		return
	}
	switch name {
	case xml.Name{Space: schemaNS, Local: "namespaceURI"}:
		p.schema.NamespaceURI = value
	case xml.Name{Space: schemaNS, Local: "prefix"}:
		p.schema.Prefix = value
	case xml.Name{Space: propertyNS, Local: "name"}:
		p.schema.Properties = append(p.schema.Properties, value)
	}
}

// set records a property's value, the first one it is given.
func (p *xmpParser) set(name xml.Name, value string) {
	if _, ok := p.x.Properties[name]; !ok {
		p.x.Properties[name] = value
	}
}
