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

package pdfcheck_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/test/pdfcheck"
)

// minimalPDF is a one-page PDF whose catalogue carries an XMP packet,
// each offset of its xref table shift bytes off (0 for a correct one).
func minimalPDF(shift int) []byte {
	packet := `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
		`<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">T</rdf:li></rdf:Alt></dc:title></rdf:Description>` +
		`</rdf:RDF></x:xmpmeta>`
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 200 200] >>",
		"<< /Type /Page /Parent 2 0 R >>",
		fmt.Sprintf("<< /Type /Metadata /Subtype /XML /Length %d >>\nstream\n%s\nendstream", len(packet), packet),
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o+shift)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /ID [<00ff> <00ff>] >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}

func TestQPDFPassesAWellFormedPDFAndFailsDamagedOnes(t *testing.T) {
	tools := pdfcheck.Require(t)
	good := minimalPDF(0)
	// Every offset in the xref table three bytes off: qpdf finds no
	// object where the table says.
	shifted := minimalPDF(3)
	cases := []struct {
		name string
		doc  []byte
		ok   bool
	}{
		{"the well-formed PDF", good, true},
		{"a PDF whose xref offsets are wrong", shifted, false},
		{"a PDF cut in half", good[:len(good)/2], false},
	}
	dir := t.TempDir()
	var docs []string
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("%d.pdf", i))
		if err := os.WriteFile(path, c.doc, 0o600); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, path)
	}
	results, err := tools.QPDFCheck(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if results[i].OK() != c.ok {
			t.Errorf("%s: qpdf --check exits %d (ok %t), want ok %t:\n%s", c.name, results[i].Exit, results[i].OK(), c.ok, results[i].Output)
		}
	}
}

func TestInspectReadsTheHeaderIDAndXMPPacket(t *testing.T) {
	rep, err := pdfcheck.Inspect(minimalPDF(0))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Header != "%PDF-1.7" || !rep.BinaryComment {
		t.Errorf("header %q, binary comment %t; want %%PDF-1.7 and a binary comment", rep.Header, rep.BinaryComment)
	}
	if !slices.Equal(rep.ID, []string{"00ff", "00ff"}) || rep.Encrypted {
		t.Errorf("ID %v, encrypted %t; want [00ff 00ff], not encrypted", rep.ID, rep.Encrypted)
	}
	if rep.Metadata == nil || rep.Metadata.Type != "Metadata" || rep.Metadata.Subtype != "XML" || rep.Metadata.Filtered {
		t.Fatalf("metadata %+v, want an unfiltered /Metadata /XML stream", rep.Metadata)
	}
	x, err := pdfcheck.ParseXMP(rep.Metadata.Packet)
	if err != nil {
		t.Fatal(err)
	}
	if got := x.Properties[xml.Name{Space: "http://purl.org/dc/elements/1.1/", Local: "title"}]; got != "T" {
		t.Errorf("dc:title %q, want T", got)
	}
	if len(rep.EmbeddedFiles) != 0 || len(rep.AF) != 0 || len(rep.OutputIntents) != 0 {
		t.Errorf("a PDF without files or intents: got %+v", rep)
	}
}

func TestParseXMPReadsTheExtensionSchemasApartFromTheProperties(t *testing.T) {
	packet := []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:namespaceURI>urn:example#</pdfaSchema:namespaceURI><pdfaSchema:prefix>ex</pdfaSchema:prefix>
<pdfaSchema:schema>Example</pdfaSchema:schema>
<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaProperty:name>A</pdfaProperty:name></rdf:li>
<rdf:li rdf:parseType="Resource"><pdfaProperty:name>B</pdfaProperty:name></rdf:li></rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>
<rdf:Description rdf:about="" xmlns:ex="urn:example#"><ex:A>1</ex:A><ex:B>2</ex:B></rdf:Description>
</rdf:RDF></x:xmpmeta>`)
	x, err := pdfcheck.ParseXMP(packet)
	if err != nil {
		t.Fatal(err)
	}
	want := []pdfcheck.XMPSchema{{NamespaceURI: "urn:example#", Prefix: "ex", Properties: []string{"A", "B"}}}
	if fmt.Sprint(x.Schemas) != fmt.Sprint(want) {
		t.Errorf("schemas %+v, want %+v", x.Schemas, want)
	}
	wantProps := map[xml.Name]string{{Space: "urn:example#", Local: "A"}: "1", {Space: "urn:example#", Local: "B"}: "2"}
	if fmt.Sprint(x.Properties) != fmt.Sprint(wantProps) {
		t.Errorf("properties %v, want %v", x.Properties, wantProps)
	}
}

func TestTheRulesNameWhatAPlainPDFLacksOfPDFA3AndFacturX(t *testing.T) {
	rep, err := pdfcheck.Inspect(minimalPDF(0))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(pdfcheck.FacturXProblems(rep), "\n")
	for _, want := range []string{
		"pdfaid:part is \"\", want 3", "0 output intents, want one", "no fonts",
		"0 embedded files and 0 in /AF", "XMP fx:DocumentType is \"\", want \"INVOICE\"",
		"does not declare Factur-X's extension schema",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the problems do not name %q:\n%s", want, got)
		}
	}
}
