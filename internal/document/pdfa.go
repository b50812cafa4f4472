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

package document

import (
	"bytes"
	"compress/zlib"
	"crypto/md5" //nolint:gosec // the /CheckSum of an embedded file is MD5 by definition (ISO 32000-1, 7.11.4)
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// This file rewrites a PDF that gopdf wrote as a PDF/A-3b (ISO 19005-3,
// level B) with attached files: the objects gopdf wrote, each once, with
// its stream's length exact, every CIDFont's CIDToGIDMap stated and every
// font's name tagged as the subset it is; an
// Info dictionary and an XMP packet that agree; an sRGB output intent; the
// files in the catalogue's EmbeddedFiles name tree and its AF array; a
// trailer /ID. It writes the file itself rather than through a PDF library:
// pdfcpu, the maintained one, stamps its own producer and the time of
// writing into the Info dictionary and the /ID, so that the output would
// differ on every call and the XMP would not match.

// sRGB is the sRGB colour profile of the output intent: sRGB.icc of
// Debian's icc-profiles-free (zlib licence, sRGB-LICENSE.txt), an ICC v2
// display profile, which PDF/A accepts.
//
//go:embed sRGB.icc
var sRGB []byte

// attachment is a file embedded in a PDF/A-3 and associated with the
// document (its AF array).
type attachment struct {
	// Name is its file name (/F and /UF).
	Name string
	// Description is /Desc.
	Description string
	// MIME is its media type, written as the stream's /Subtype.
	MIME string
	// Relationship is /AFRelationship: Data, Alternative, Source, ...
	Relationship string
	Data         []byte
}

// xmpSchema is a custom XMP schema a PDF/A declares in its extension
// schemas, and the values of its properties.
type xmpSchema struct {
	Name      string
	Namespace string
	Prefix    string
	// Properties are written in this order.
	Properties []xmpProperty
}

// xmpProperty is a text property of an xmpSchema.
type xmpProperty struct {
	Name, Description, Value string
}

// pdfA is what pdfA3 adds to a PDF.
type pdfA struct {
	// Date is the creation and modification date in the Info dictionary
	// and in the XMP packet.
	Date        time.Time
	Attachments []attachment
	// Schemas are declared in the XMP packet's extension schemas and
	// their properties written in it.
	Schemas []xmpSchema
}

// pdfObject is an object of the source PDF: its dictionary (or other
// value) and, for a stream, its data as it is stored (filtered).
type pdfObject struct {
	value  []byte
	stream []byte
	// isStream tells an empty stream from no stream.
	isStream bool
}

// pdfA3 rewrites src, a PDF that gopdf wrote (one xref table, no object
// streams, no encryption), as a PDF/A-3b with what a asks for. Its output
// depends only on src and a.
func pdfA3(src []byte, a pdfA) ([]byte, error) {
	objects, trailer, err := readGopdf(src)
	if err != nil {
		return nil, fmt.Errorf("reading the PDF to make it PDF/A-3: %w", err)
	}
	root, err := refNumber(trailer, "Root")
	if err != nil {
		return nil, err
	}
	if root < 1 || root >= len(objects) {
		return nil, fmt.Errorf("the catalogue %d is not an object of the PDF", root)
	}
	info := infoStrings(trailer)
	// The program that created the document wrote the file too: the
	// Creator of gopdf's Info dictionary is the producer.
	title, creator := info["Title"], info["Creator"]

	w := &pdfWriterA{}
	w.objects = objects
	for n, o := range objects {
		if bytes.Contains(o.value, []byte("/CIDFontType2")) && !bytes.Contains(o.value, []byte("/CIDToGIDMap")) {
			// gopdf writes glyph indices as CIDs (Identity-H) and leaves
			// the map to its default; PDF/A wants it stated.
			objects[n].value = insertEntries(o.value, "/CIDToGIDMap /Identity")
		}
	}
	tagSubsets(objects)
	catalog := objects[root].value
	for _, key := range []string{"/Metadata", "/Names", "/AF", "/OutputIntents"} {
		if bytes.Contains(catalog, []byte(key)) {
			return nil, fmt.Errorf("the catalogue already has %s", key)
		}
	}

	date := pdfDate(a.Date)
	infoRef := w.add(pdfObject{value: fmt.Appendf(nil, "<< /Title %s /Creator %s /Producer %s /CreationDate %s /ModDate %s >>",
		textString(title), textString(creator), textString(creator), literalString(date), literalString(date))})
	xmp := xmpPacket(title, creator, a)
	metadata := w.add(pdfObject{isStream: true, stream: xmp,
		value: fmt.Appendf(nil, "<< /Type /Metadata /Subtype /XML /Length %d >>", len(xmp))})
	icc, err := deflate(sRGB)
	if err != nil {
		return nil, err
	}
	profile := w.add(pdfObject{isStream: true, stream: icc,
		value: fmt.Appendf(nil, "<< /N 3 /Filter /FlateDecode /Length %d >>", len(icc))})
	intent := w.add(pdfObject{value: fmt.Appendf(nil, "<< /Type /OutputIntent /S /GTS_PDFA1 "+
		"/OutputConditionIdentifier (sRGB IEC61966-2.1) /RegistryName (http://www.color.org) "+
		"/Info (sRGB IEC61966-2.1) /DestOutputProfile %d 0 R >>", profile)})

	// The name tree's keys sorted, as a name tree needs.
	files := slices.Clone(a.Attachments)
	slices.SortFunc(files, func(x, y attachment) int { return strings.Compare(x.Name, y.Name) })
	var names, af []string
	for _, f := range files {
		data, err := deflate(f.Data)
		if err != nil {
			return nil, err
		}
		sum := md5.Sum(f.Data) //nolint:gosec // see the import
		embedded := w.add(pdfObject{isStream: true, stream: data, value: fmt.Appendf(nil,
			"<< /Type /EmbeddedFile /Subtype /%s /Filter /FlateDecode /Length %d /Params << /Size %d /ModDate %s /CheckSum <%X> >> >>",
			nameChars(f.MIME), len(data), len(f.Data), literalString(date), sum[:])})
		spec := w.add(pdfObject{value: fmt.Appendf(nil,
			"<< /Type /Filespec /F %s /UF %s /Desc %s /AFRelationship /%s /EF << /F %d 0 R /UF %d 0 R >> >>",
			literalString(f.Name), textString(f.Name), textString(f.Description), nameChars(f.Relationship), embedded, embedded)})
		names = append(names, fmt.Sprintf("%s %d 0 R", literalString(f.Name), spec))
		af = append(af, fmt.Sprintf("%d 0 R", spec))
	}
	entries := fmt.Sprintf("/Metadata %d 0 R /OutputIntents [%d 0 R]", metadata, intent)
	if len(files) > 0 {
		entries += fmt.Sprintf(" /Names << /EmbeddedFiles << /Names [%s] >> >> /AF [%s] /PageMode /UseAttachments",
			strings.Join(names, " "), strings.Join(af, " "))
	}
	w.objects[root].value = insertEntries(catalog, entries)
	return w.write(root, infoRef), nil
}

// pdfWriterA numbers and writes the objects of pdfA3's output.
type pdfWriterA struct {
	// objects are indexed by their number; objects[0] is unused (the
	// head of the free list).
	objects []pdfObject
}

// add appends o and returns its object number.
func (w *pdfWriterA) add(o pdfObject) int {
	w.objects = append(w.objects, o)
	return len(w.objects) - 1
}

// write writes the file: the header with its binary comment, the objects,
// the xref table and the trailer, whose /ID is a hash of what precedes it.
func (w *pdfWriterA) write(root, info int) []byte {
	var b bytes.Buffer
	// The comment's bytes above 127 mark the file as binary (PDF/A-3,
	// 6.1.2).
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(w.objects))
	for n := 1; n < len(w.objects); n++ {
		o := w.objects[n]
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", n)
		b.Write(o.value)
		if o.isStream {
			// Length counts exactly the bytes between the EOL after
			// "stream" and the EOL before "endstream" (6.1.7.1).
			b.WriteString("\nstream\n")
			b.Write(o.stream)
			b.WriteString("\nendstream")
		}
		b.WriteString("\nendobj\n")
	}
	sum := sha256.Sum256(b.Bytes())
	id := hex.EncodeToString(sum[:16])
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(w.objects))
	for n := 1; n < len(w.objects); n++ {
		fmt.Fprintf(&b, "%010d 00000 n \n", offsets[n])
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n",
		len(w.objects), root, info, id, id, xref)
	return b.Bytes()
}

// readGopdf reads the objects of a PDF as gopdf writes it: one xref table
// and trailer, every object "n 0 obj", stream lengths direct. It returns
// the objects by number and the trailer's dictionary.
func readGopdf(src []byte) ([]pdfObject, []byte, error) {
	at := bytes.LastIndex(src, []byte("startxref"))
	if at < 0 {
		return nil, nil, errors.New("no startxref")
	}
	fields := bytes.Fields(src[at+len("startxref"):])
	if len(fields) == 0 {
		return nil, nil, errors.New("no xref offset")
	}
	xref, err := strconv.Atoi(string(fields[0]))
	if err != nil || xref < 0 || xref >= len(src) || !bytes.HasPrefix(src[xref:], []byte("xref")) {
		return nil, nil, errors.New("the xref offset does not point to an xref table")
	}
	offsets, err := readXref(src[xref:at], xref)
	if err != nil {
		return nil, nil, err
	}
	trailerAt := bytes.Index(src[xref:at], []byte("trailer"))
	if trailerAt < 0 {
		return nil, nil, errors.New("no trailer")
	}
	trailer := src[xref+trailerAt+len("trailer") : at]
	if bytes.Contains(trailer, []byte("/Encrypt")) {
		return nil, nil, errors.New("the PDF is encrypted")
	}

	// Each object ends where the next one (by offset) begins.
	ends := slices.Sorted(slices.Values(offsets[1:]))
	ends = append(ends, xref)
	objects := make([]pdfObject, len(offsets))
	for n := 1; n < len(offsets); n++ {
		start := offsets[n]
		end := ends[slices.Index(ends, start)+1]
		if objects[n], err = readObject(src[start:end], n); err != nil {
			return nil, nil, fmt.Errorf("object %d: %w", n, err)
		}
	}
	return objects, trailer, nil
}

// readXref reads an xref table of one section from object 0, at offset
// xref of the file, and returns the offset of each object by number.
func readXref(table []byte, xref int) ([]int, error) {
	lines := strings.Split(string(table), "\n")
	if len(lines) < 3 {
		return nil, errors.New("a short xref table")
	}
	var first, count int
	if _, err := fmt.Sscanf(lines[1], "%d %d", &first, &count); err != nil || first != 0 || count < 1 || len(lines) < 2+count {
		return nil, fmt.Errorf("an xref table of one section from 0 was expected, got %q", lines[1])
	}
	offsets := make([]int, count)
	for n := 1; n < count; n++ {
		var err error
		f := strings.Fields(lines[2+n])
		if len(f) != 3 || f[2] != "n" || f[1] != "00000" {
			return nil, fmt.Errorf("xref entry %d: %q is not an object in use", n, lines[2+n])
		}
		if offsets[n], err = strconv.Atoi(f[0]); err != nil || offsets[n] <= 0 || offsets[n] >= xref {
			return nil, fmt.Errorf("xref entry %d: bad offset %q", n, f[0])
		}
	}
	return offsets, nil
}

// fontName is a font dictionary's /BaseFont or a font descriptor's
// /FontName, and the name.
var fontName = regexp.MustCompile(`/(BaseFont|FontName)\s*/([^\s/\[\]<>(){}%]+)`)

// subsetTag is the tag a subset font's name begins with (ISO 32000-1,
// 9.6.4).
var subsetTag = regexp.MustCompile(`^[A-Z]{6}\+`)

// tagSubsets prefixes the name of each font, which gopdf embeds as a
// subset, with a subset tag, as PDF asks and readers (pdffonts) tell: six
// capital letters derived from the name, the same in the font, its
// CIDFont and its descriptor.
func tagSubsets(objects []pdfObject) {
	for n, o := range objects {
		if !bytes.Contains(o.value, []byte("/Font")) {
			continue
		}
		objects[n].value = fontName.ReplaceAllFunc(o.value, func(m []byte) []byte {
			sub := fontName.FindSubmatch(m)
			if subsetTag.Match(sub[2]) {
				return m
			}
			sum := sha256.Sum256(sub[2])
			tag := make([]byte, 6)
			for i := range tag {
				tag[i] = 'A' + sum[i]%26
			}
			return fmt.Appendf(nil, "/%s /%s+%s", sub[1], tag, sub[2])
		})
	}
}

// lengthEntry is a stream dictionary's direct /Length (not /Length1).
var lengthEntry = regexp.MustCompile(`/Length\s+(\d+)(\s+\d+\s+R)?`)

// readObject reads object n from b, which holds it and what follows up to
// the next object.
func readObject(b []byte, n int) (pdfObject, error) {
	head := fmt.Appendf(nil, "%d 0 obj", n)
	if !bytes.HasPrefix(b, head) {
		return pdfObject{}, fmt.Errorf("does not start with %q", head)
	}
	b = bytes.TrimLeft(b[len(head):], " \r\n\t")
	if !bytes.HasPrefix(b, []byte("<<")) {
		// Not a dictionary: the value runs to endobj.
		end := bytes.LastIndex(b, []byte("endobj"))
		if end < 0 {
			return pdfObject{}, errors.New("no endobj")
		}
		return pdfObject{value: bytes.TrimSpace(b[:end])}, nil
	}
	dictEnd, err := dictionaryEnd(b)
	if err != nil {
		return pdfObject{}, err
	}
	o := pdfObject{value: b[:dictEnd]}
	rest := bytes.TrimLeft(b[dictEnd:], " \r\n\t")
	if !bytes.HasPrefix(rest, []byte("stream")) {
		return o, nil
	}
	m := lengthEntry.FindSubmatch(o.value)
	if m == nil || m[2] != nil {
		return pdfObject{}, errors.New("a stream without a direct /Length")
	}
	length, err := strconv.Atoi(string(m[1]))
	if err != nil {
		return pdfObject{}, err
	}
	rest = rest[len("stream"):]
	switch {
	case bytes.HasPrefix(rest, []byte("\r\n")):
		rest = rest[2:]
	case bytes.HasPrefix(rest, []byte("\n")):
		rest = rest[1:]
	default:
		return pdfObject{}, errors.New("no end of line after stream")
	}
	if length > len(rest) || !bytes.Contains(rest[length:], []byte("endstream")) {
		return pdfObject{}, fmt.Errorf("the stream is not %d bytes long", length)
	}
	o.isStream, o.stream = true, rest[:length]
	return o, nil
}

// dictionaryEnd returns the index just past the dictionary b starts with,
// skipping strings and hex strings.
func dictionaryEnd(b []byte) (int, error) {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '(':
			// A literal string: balanced parentheses, backslash escapes.
			nest := 0
			for ; i < len(b); i++ {
				if b[i] == '\\' {
					i++
				} else if b[i] == '(' {
					nest++
				} else if b[i] == ')' {
					nest--
					if nest == 0 {
						break
					}
				}
			}
		case b[i] == '<' && i+1 < len(b) && b[i+1] == '<':
			depth++
			i++
		case b[i] == '>' && i+1 < len(b) && b[i+1] == '>':
			depth--
			i++
			if depth == 0 {
				return i + 1, nil
			}
		case b[i] == '<':
			// A hex string.
			end := bytes.IndexByte(b[i:], '>')
			if end < 0 {
				return 0, errors.New("an unterminated hex string")
			}
			i += end
		}
	}
	return 0, errors.New("an unterminated dictionary")
}

// insertEntries adds entries to the dictionary dict before its closing >>.
func insertEntries(dict []byte, entries string) []byte {
	end := bytes.LastIndex(dict, []byte(">>"))
	out := slices.Clone(bytes.TrimRight(dict[:end], " \r\n\t"))
	out = append(out, '\n')
	out = append(out, entries...)
	out = append(out, "\n>>"...)
	return out
}

// refNumber is the object number of the indirect reference key holds in
// dict.
func refNumber(dict []byte, key string) (int, error) {
	m := regexp.MustCompile(`/` + key + `\s+(\d+)\s+0\s+R`).FindSubmatch(dict)
	if m == nil {
		return 0, fmt.Errorf("the trailer has no /%s", key)
	}
	return strconv.Atoi(string(m[1]))
}

// infoEntry is a text string of the Info dictionary gopdf writes in its
// trailer: a hex string in UTF-16BE with a byte order mark.
var infoEntry = regexp.MustCompile(`/(\w+)\s*<FEFF([0-9A-Fa-f]*)>`)

// infoStrings are the text entries of the trailer's Info dictionary.
func infoStrings(trailer []byte) map[string]string {
	info := map[string]string{}
	for _, m := range infoEntry.FindAllSubmatch(trailer, -1) {
		raw, err := hex.DecodeString(string(m[2]))
		if err != nil || len(raw)%2 != 0 {
			continue
		}
		units := make([]uint16, len(raw)/2)
		for i := range units {
			units[i] = binary.BigEndian.Uint16(raw[2*i:])
		}
		info[string(m[1])] = string(utf16.Decode(units))
	}
	return info
}

// textString is s as a PDF text string: UTF-16BE with a byte order mark, in
// hex.
func textString(s string) string {
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}

// literalString is s, ASCII, as a PDF literal string.
func literalString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return "(" + r.Replace(s) + ")"
}

// nameChars is s as the characters of a PDF name: '/' and every character
// outside the regular printable ASCII ones written #xx.
func nameChars(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c <= ' ' || c > '~' || strings.IndexByte("#/()<>[]{}%", c) >= 0 {
			fmt.Fprintf(&b, "#%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// pdfDate is t as a PDF date, in UTC.
func pdfDate(t time.Time) string {
	return "D:" + t.UTC().Format("20060102150405") + "+00'00'"
}

// xmpDate is t as an XMP date, in UTC, the same instant as pdfDate's.
func xmpDate(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05") + "+00:00"
}

// deflate compresses b for a /FlateDecode stream.
func deflate(b []byte) ([]byte, error) {
	var out bytes.Buffer
	z, err := zlib.NewWriterLevel(&out, zlib.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := z.Write(b); err != nil {
		return nil, err
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// xmpPacket is the document's XMP metadata: the PDF/A identification
// (part 3, conformance B), the title, dates, creator tool and producer
// (creator, both) the Info dictionary holds too (PDF/A wants them to
// agree), the extension schemas of a.Schemas and their properties' values.
func xmpPacket(title, creator string, a pdfA) []byte {
	x := html.EscapeString
	date := xmpDate(a.Date)
	var b strings.Builder
	b.WriteString("<?xpacket begin=\"\ufeff\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n")
	b.WriteString(`<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
<pdfaid:part>3</pdfaid:part>
<pdfaid:conformance>B</pdfaid:conformance>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:format>application/pdf</dc:format>
`)
	fmt.Fprintf(&b, "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%s</rdf:li></rdf:Alt></dc:title>\n", x(title))
	b.WriteString(`</rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
`)
	fmt.Fprintf(&b, "<xmp:CreatorTool>%s</xmp:CreatorTool>\n<xmp:CreateDate>%s</xmp:CreateDate>\n", x(creator), date)
	fmt.Fprintf(&b, "<xmp:ModifyDate>%s</xmp:ModifyDate>\n<xmp:MetadataDate>%s</xmp:MetadataDate>\n", date, date)
	b.WriteString(`</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
`)
	fmt.Fprintf(&b, "<pdf:Producer>%s</pdf:Producer>\n</rdf:Description>\n", x(creator))
	if len(a.Schemas) > 0 {
		b.WriteString(`<rdf:Description rdf:about=""
 xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
 xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
 xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas>
<rdf:Bag>
`)
		for _, s := range a.Schemas {
			fmt.Fprintf(&b, "<rdf:li rdf:parseType=\"Resource\">\n<pdfaSchema:schema>%s</pdfaSchema:schema>\n", x(s.Name))
			fmt.Fprintf(&b, "<pdfaSchema:namespaceURI>%s</pdfaSchema:namespaceURI>\n<pdfaSchema:prefix>%s</pdfaSchema:prefix>\n",
				x(s.Namespace), x(s.Prefix))
			b.WriteString("<pdfaSchema:property>\n<rdf:Seq>\n")
			for _, p := range s.Properties {
				fmt.Fprintf(&b, "<rdf:li rdf:parseType=\"Resource\">\n<pdfaProperty:name>%s</pdfaProperty:name>\n", x(p.Name))
				b.WriteString("<pdfaProperty:valueType>Text</pdfaProperty:valueType>\n<pdfaProperty:category>external</pdfaProperty:category>\n")
				fmt.Fprintf(&b, "<pdfaProperty:description>%s</pdfaProperty:description>\n</rdf:li>\n", x(p.Description))
			}
			b.WriteString("</rdf:Seq>\n</pdfaSchema:property>\n</rdf:li>\n")
		}
		b.WriteString("</rdf:Bag>\n</pdfaExtension:schemas>\n</rdf:Description>\n")
		for _, s := range a.Schemas {
			fmt.Fprintf(&b, "<rdf:Description rdf:about=\"\" xmlns:%s=\"%s\">\n", s.Prefix, x(s.Namespace))
			for _, p := range s.Properties {
				fmt.Fprintf(&b, "<%s:%s>%s</%s:%s>\n", s.Prefix, p.Name, x(p.Value), s.Prefix, p.Name)
			}
			b.WriteString("</rdf:Description>\n")
		}
	}
	b.WriteString("</rdf:RDF>\n</x:xmpmeta>\n")
	// Padding lets an editor update the packet in place, as XMP suggests.
	b.WriteString(strings.Repeat(strings.Repeat(" ", 99)+"\n", 20))
	b.WriteString("<?xpacket end=\"w\"?>")
	return []byte(b.String())
}
