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

package locale

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// This file loads the translations: one catalog per language, in the
// JSON of golang.org/x/text/cmd/gotext (catalogs/<language>/
// messages.gotext.json), which translation tools read and write. Each
// message has an id (the key of Printer.T), the English message, its
// translation and its placeholders, "{Number}" in the texts and "%[1]s" in
// the placeholder's string; a translation is a text, or a plural select on
// one placeholder:
//
//	"translation": {"select": {"feature": "plural", "arg": "Days",
//	    "cases": {"one": {"msg": "..."}, "other": {"msg": "..."}}}}

//go:embed catalogs/*/messages.gotext.json
var catalogFiles embed.FS

// catalogFile is a messages.gotext.json.
type catalogFile struct {
	Language string           `json:"language"`
	Messages []catalogMessage `json:"messages"`
}

// catalogMessage is a message of a catalog.
type catalogMessage struct {
	ID           string          `json:"id"`
	Message      string          `json:"message"`
	Translation  json.RawMessage `json:"translation"`
	Placeholders []placeholder   `json:"placeholders,omitempty"`
}

// placeholder is an argument of a message: its name in the texts and its
// fmt verb.
type placeholder struct {
	ID     string `json:"id"`
	String string `json:"string"`
	Type   string `json:"type"`
	ArgNum int    `json:"argNum"`
}

// pluralSelect is a translation that depends on a number.
type pluralSelect struct {
	Select struct {
		Feature string                          `json:"feature"`
		Arg     string                          `json:"arg"`
		Cases   map[string]struct{ Msg string } `json:"cases"`
	} `json:"select"`
}

// messages are the catalogs, English the fallback.
var messages = mustLoad(catalogFiles)

// mustLoad loads the catalogs of files; an embedded catalog that does not
// load is a bug of the build.
func mustLoad(files fs.FS) *catalog.Builder {
	b, err := loadCatalogs(files)
	if err != nil {
		panic(err)
	}
	return b
}

// loadCatalogs reads every catalogs/*/messages.gotext.json of files.
func loadCatalogs(files fs.FS) (*catalog.Builder, error) {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	names, err := fs.Glob(files, "catalogs/*/messages.gotext.json")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		f, err := readCatalog(files, name)
		if err != nil {
			return nil, err
		}
		tag, err := language.Parse(f.Language)
		if err != nil || path.Base(path.Dir(name)) != f.Language {
			return nil, fmt.Errorf("%s: the language %q is not its folder's", name, f.Language)
		}
		for _, m := range f.Messages {
			msg, err := m.catalogMessage()
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", name, m.ID, err)
			}
			if err := b.Set(tag, m.ID, msg); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", name, m.ID, err)
			}
		}
	}
	return b, nil
}

// readCatalog parses one catalog file.
func readCatalog(files fs.FS, name string) (*catalogFile, error) {
	data, err := fs.ReadFile(files, name)
	if err != nil {
		return nil, err
	}
	var f catalogFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &f, nil
}

// catalogMessage is m's translation as golang.org/x/text/message formats
// it: its placeholders replaced by their verbs.
func (m *catalogMessage) catalogMessage() (catalog.Message, error) {
	text, sel, err := m.texts()
	if err != nil {
		return nil, err
	}
	if sel == nil {
		return catalog.String(m.verbs(text)), nil
	}
	arg := 0
	for _, ph := range m.Placeholders {
		if ph.ID == sel.Select.Arg {
			arg = ph.ArgNum
		}
	}
	if sel.Select.Feature != "plural" || arg == 0 {
		return nil, fmt.Errorf("a select on %q, not a plural of a placeholder", sel.Select.Arg)
	}
	keys := make([]string, 0, len(sel.Select.Cases))
	for k := range sel.Select.Cases {
		keys = append(keys, k)
	}
	// "other" last: the cases are tried in order.
	sort.Slice(keys, func(i, j int) bool { return keys[j] == "other" || (keys[i] != "other" && keys[i] < keys[j]) })
	cases := make([]any, 0, 2*len(keys))
	for _, k := range keys {
		cases = append(cases, k, m.verbs(sel.Select.Cases[k].Msg))
	}
	return plural.Selectf(arg, "%d", cases...), nil
}

// texts are m's translation: a text, or a plural select.
func (m *catalogMessage) texts() (string, *pluralSelect, error) {
	var s string
	if err := json.Unmarshal(m.Translation, &s); err == nil {
		if s == "" {
			return "", nil, fmt.Errorf("no translation")
		}
		return s, nil, nil
	}
	var sel pluralSelect
	if err := json.Unmarshal(m.Translation, &sel); err != nil {
		return "", nil, fmt.Errorf("the translation is neither a text nor a select: %w", err)
	}
	if len(sel.Select.Cases) == 0 || sel.Select.Cases["other"].Msg == "" {
		return "", nil, fmt.Errorf("the select has no case \"other\"")
	}
	return "", &sel, nil
}

// verbs replaces the placeholders of text by their fmt verbs, and escapes
// a percent sign that is not one.
func (m *catalogMessage) verbs(text string) string {
	pairs := make([]string, 0, 2+2*len(m.Placeholders))
	pairs = append(pairs, "%", "%%")
	for _, ph := range m.Placeholders {
		pairs = append(pairs, "{"+ph.ID+"}", ph.String)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// catalogTag is the tag whose catalog t reads: the nearest of t (without
// extensions) and its parents that has a catalog (de-CH's is de), else
// English.
func catalogTag(t language.Tag) language.Tag {
	base, script, region := t.Raw()
	c, err := language.Compose(base, script, region)
	if err != nil {
		return language.English
	}
	for ; !c.IsRoot(); c = c.Parent() {
		if slices.Contains(messages.Languages(), c) {
			return c
		}
	}
	return language.English
}
