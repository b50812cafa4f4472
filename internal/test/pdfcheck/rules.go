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
	"fmt"
	"slices"
	"time"
)

// This file holds the rules of PDF/A-3b (ISO 19005-3) and of Factur-X 1.0
// that a reader of a file's structure can check, those the documents'
// tests rely on; it is no PDF/A validator (veraPDF checks every rule, the
// content streams and the font programs among them).

// XMP namespaces the rules read.
const (
	pdfaidNS = "http://www.aiim.org/pdfa/ns/id/"
	dcNS     = "http://purl.org/dc/elements/1.1/"
	xmpNS    = "http://ns.adobe.com/xap/1.0/"
	pdfNS    = "http://ns.adobe.com/pdf/1.3/"
	// FacturXNS is the namespace of Factur-X's XMP extension schema.
	FacturXNS = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"
)

// facturXFile is the name of the XML a Factur-X PDF embeds.
const facturXFile = "factur-x.xml"

// PDFA3Problems lists what rep breaks of PDF/A-3b's rules: the header and
// its binary comment (6.1.2), the trailer's /ID and no encryption (6.1.3,
// 6.1.4 of ISO 19005-2 that part 3 takes over), an uncompressed XMP
// metadata stream identifying part 3 conformance B (6.6.2, 6.6.4), whose
// title, creator tool, producer and dates match the Info dictionary's
// (6.6.3), a GTS_PDFA1 output intent with an ICC profile of 3 components
// for DeviceRGB (6.2.3), every font embedded, a CIDFontType2 with its
// CIDToGIDMap and every font with its widths (6.2.11), and every embedded
// file with a media type, its /Params, /F and /UF and an AFRelationship,
// named in the catalogue's /AF (6.8). It returns nil for a file that breaks
// none of them.
func PDFA3Problems(rep *Report) []string {
	var p problems
	p.check(rep.Header == "%PDF-1.7" || len(rep.Header) == 8 && rep.Header[:7] == "%PDF-1.", "header %q", rep.Header)
	p.check(rep.BinaryComment, "no binary comment after the header")
	p.check(len(rep.ID) == 2 && rep.ID[0] != "" && rep.ID[1] != "", "trailer /ID %v is not two strings", rep.ID)
	p.check(!rep.Encrypted, "the file is encrypted")
	p.metadata(rep)
	p.check(len(rep.OutputIntents) == 1, "%d output intents, want one", len(rep.OutputIntents))
	for _, oi := range rep.OutputIntents {
		p.check(oi.S == "GTS_PDFA1", "output intent /S /%s, want /GTS_PDFA1", oi.S)
		p.check(oi.N == 3, "output intent's profile /N %d, want 3 (RGB)", oi.N)
		// An ICC profile has "acsp" at 36 and its colour space at 16.
		p.check(len(oi.Profile) > 128 && string(oi.Profile[36:40]) == "acsp" && string(oi.Profile[16:20]) == "RGB ",
			"the output intent's profile is not an RGB ICC profile")
	}
	p.check(len(rep.Fonts) > 0, "no fonts")
	for _, f := range rep.Fonts {
		p.check(f.Embedded != "" && f.ProgramSize > 0, "font %s (%s) is not embedded", f.Name, f.Subtype)
		p.check(f.Widths, "font %s has no widths", f.Name)
		if f.Descendant == "CIDFontType2" {
			p.check(f.CIDToGIDMap != "", "CIDFontType2 %s has no CIDToGIDMap", f.Name)
		}
	}
	for _, f := range rep.EmbeddedFiles {
		p.check(f.F != "" && f.F == f.UF, "embedded file %q: /F %q and /UF %q", f.Key, f.F, f.UF)
		p.check(f.Subtype != "", "embedded file %q has no media type (/Subtype)", f.Key)
		p.check(f.ModDate != "", "embedded file %q has no /Params /ModDate", f.Key)
		p.check(f.Size == int64(len(f.Data)), "embedded file %q: /Params /Size %d, but it is %d bytes", f.Key, f.Size, len(f.Data))
		p.check(slices.Contains([]string{"Source", "Data", "Alternative", "Supplement", "Unspecified"}, f.AFRelationship),
			"embedded file %q: /AFRelationship %q", f.Key, f.AFRelationship)
		p.check(slices.ContainsFunc(rep.AF, f.SameSpec), "embedded file %q is not in the catalogue's /AF", f.Key)
	}
	return p
}

// FacturXProblems lists what rep breaks of PDF/A-3b (PDFA3Problems) and of
// Factur-X 1.0 at the conformance level EN 16931: one embedded file
// factur-x.xml, text/xml, of relationship Data or Alternative, described
// by the XMP packet's fx properties (DocumentType INVOICE, DocumentFileName
// factur-x.xml, Version 1.0, ConformanceLevel EN 16931), whose extension
// schema the packet declares.
func FacturXProblems(rep *Report) []string {
	p := problems(PDFA3Problems(rep))
	p.check(len(rep.EmbeddedFiles) == 1 && len(rep.AF) == 1, "%d embedded files and %d in /AF, want factur-x.xml alone",
		len(rep.EmbeddedFiles), len(rep.AF))
	if len(rep.EmbeddedFiles) > 0 {
		f := rep.EmbeddedFiles[0]
		p.check(f.Key == facturXFile && f.F == facturXFile, "the embedded file is %q (/F %q), want %s", f.Key, f.F, facturXFile)
		p.check(f.Subtype == "text/xml", "factur-x.xml's /Subtype is %q, want text/xml", f.Subtype)
		p.check(f.AFRelationship == "Data" || f.AFRelationship == "Alternative",
			"factur-x.xml's /AFRelationship is %q, want Data or Alternative", f.AFRelationship)
	}
	if rep.Metadata == nil {
		return p
	}
	x, err := ParseXMP(rep.Metadata.Packet)
	if err != nil {
		return append(p, err.Error())
	}
	for name, want := range map[string]string{
		"DocumentType": "INVOICE", "DocumentFileName": facturXFile, "Version": "1.0", "ConformanceLevel": "EN 16931",
	} {
		got := x.Properties[xml.Name{Space: FacturXNS, Local: name}]
		p.check(got == want, "XMP fx:%s is %q, want %q", name, got, want)
	}
	i := slices.IndexFunc(x.Schemas, func(s XMPSchema) bool { return s.NamespaceURI == FacturXNS })
	if p.check(i >= 0, "the XMP packet does not declare Factur-X's extension schema") {
		s := x.Schemas[i]
		p.check(s.Prefix == "fx", "Factur-X's extension schema has prefix %q, want fx", s.Prefix)
		for _, name := range []string{"DocumentFileName", "DocumentType", "Version", "ConformanceLevel"} {
			p.check(slices.Contains(s.Properties, name), "Factur-X's extension schema does not declare %s", name)
		}
	}
	return p
}

// problems collects the rules a file breaks.
type problems []string

// check adds the problem format describes unless ok, and returns ok.
func (p *problems) check(ok bool, format string, args ...any) bool {
	if !ok {
		*p = append(*p, fmt.Sprintf(format, args...))
	}
	return ok
}

// metadata checks the XMP packet and its agreement with the Info
// dictionary.
func (p *problems) metadata(rep *Report) {
	m := rep.Metadata
	if !p.check(m != nil, "the catalogue has no /Metadata") {
		return
	}
	p.check(m.Type == "Metadata" && m.Subtype == "XML", "the metadata stream is /Type /%s /Subtype /%s", m.Type, m.Subtype)
	p.check(!m.Filtered, "the metadata stream is filtered")
	p.check(bytes.HasPrefix(m.Packet, []byte("<?xpacket begin=")) && !bytes.Contains(m.Packet[:60], []byte("bytes=")) &&
		!bytes.Contains(m.Packet[:60], []byte("encoding=")), "the XMP packet's header is not <?xpacket begin=... id=...?>")
	x, err := ParseXMP(m.Packet)
	if !p.check(err == nil, "%v", err) {
		return
	}
	prop := func(ns, local string) string { return x.Properties[xml.Name{Space: ns, Local: local}] }
	p.check(prop(pdfaidNS, "part") == "3", "pdfaid:part is %q, want 3", prop(pdfaidNS, "part"))
	p.check(prop(pdfaidNS, "conformance") == "B", "pdfaid:conformance is %q, want B", prop(pdfaidNS, "conformance"))
	for _, c := range []struct{ info, ns, local string }{
		{"Title", dcNS, "title"}, {"Creator", xmpNS, "CreatorTool"}, {"Producer", pdfNS, "Producer"},
	} {
		if v, ok := rep.Info[c.info]; ok {
			p.check(v == prop(c.ns, c.local), "Info /%s %q and XMP %s %q differ", c.info, v, c.local, prop(c.ns, c.local))
		}
	}
	for _, c := range []struct{ info, local string }{{"CreationDate", "CreateDate"}, {"ModDate", "ModifyDate"}} {
		v, ok := rep.Info[c.info]
		if !ok {
			continue
		}
		infoTime, err1 := pdfDate(v)
		xmpTime, err2 := time.Parse(time.RFC3339, prop(xmpNS, c.local))
		p.check(err1 == nil && err2 == nil && infoTime.Equal(xmpTime), "Info /%s %q and XMP xmp:%s %q differ",
			c.info, v, c.local, prop(xmpNS, c.local))
	}
}

// pdfDate parses a PDF date, D:YYYYMMDDHHmmSS and an offset (Z, or
// +HH'mm').
func pdfDate(s string) (time.Time, error) {
	for _, layout := range []string{"D:20060102150405Z07'00'", "D:20060102150405Z"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a PDF date: %q", s)
}
