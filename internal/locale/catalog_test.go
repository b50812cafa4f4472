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
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"testing"
)

// placeholderName is a placeholder in a message's text.
var placeholderName = regexp.MustCompile(`\{([A-Za-z]+)\}`)

// catalogOf reads the catalog of language lang.
func catalogOf(t *testing.T, lang string) map[string]catalogMessage {
	t.Helper()
	f, err := readCatalog(catalogFiles, "catalogs/"+lang+"/messages.gotext.json")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]catalogMessage{}
	for _, m := range f.Messages {
		if _, dup := out[m.ID]; dup {
			t.Errorf("%s: the message %s is there twice", lang, m.ID)
		}
		out[m.ID] = m
	}
	return out
}

// placeholdersIn are the names of the placeholders m's translation uses,
// in each of its texts (a select has several).
func placeholdersIn(t *testing.T, m catalogMessage) [][]string {
	t.Helper()
	text, sel, err := m.texts()
	if err != nil {
		t.Fatalf("%s: %v", m.ID, err)
	}
	texts := []string{text}
	if sel != nil {
		texts = nil
		for _, c := range sel.Select.Cases {
			texts = append(texts, c.Msg)
		}
	}
	var out [][]string
	for _, s := range texts {
		var names []string
		for _, m := range placeholderName.FindAllStringSubmatch(s, -1) {
			names = append(names, m[1])
		}
		slices.Sort(names)
		out = append(out, slices.Compact(names))
	}
	return out
}

func TestEveryLanguageHasEveryEnglishMessageWithItsPlaceholders(t *testing.T) {
	en := catalogOf(t, "en")
	if len(en) < 90 {
		t.Fatalf("the English catalog has %d messages", len(en))
	}
	for _, tag := range Translated {
		lang := tag.String()
		t.Run("The "+lang+" catalog is complete", func(t *testing.T) {
			cat := catalogOf(t, lang)
			for _, id := range slices.Sorted(maps.Keys(en)) {
				want := en[id]
				got, ok := cat[id]
				if !ok {
					t.Errorf("%s lacks the message %s (%q)", lang, id, want.Message)
					continue
				}
				if got.Message != want.Message {
					t.Errorf("%s: %s translates %q, not the English %q", lang, id, got.Message, want.Message)
				}
				wantPH, _ := json.Marshal(want.Placeholders)
				gotPH, _ := json.Marshal(got.Placeholders)
				if string(gotPH) != string(wantPH) {
					t.Errorf("%s: %s has the placeholders %s, English %s", lang, id, gotPH, wantPH)
				}
				english := placeholdersIn(t, want)[0]
				for _, names := range placeholdersIn(t, got) {
					if !slices.Equal(names, english) {
						t.Errorf("%s: %s uses the placeholders %v, English %v", lang, id, names, english)
					}
				}
			}
			for id := range cat {
				if _, ok := en[id]; !ok {
					t.Errorf("%s has the message %s that English does not", lang, id)
				}
			}
		})
	}
}

func TestTheCatalogsAreEmbeddedForEveryTranslatedLanguage(t *testing.T) {
	langs := messages.Languages()
	for _, tag := range Translated {
		if !slices.Contains(langs, tag) {
			t.Errorf("no catalog for %s", tag)
		}
	}
}
