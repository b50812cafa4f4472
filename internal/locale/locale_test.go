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
	"errors"
	"testing"

	"golang.org/x/text/language"
)

func TestParseAcceptsTheTagsADocumentCanBeWrittenFor(t *testing.T) {
	for _, tc := range []struct {
		name, tag, want string
	}{
		{"A translated language is accepted", "de", "de"},
		{"A language and region is accepted in its canonical case", "de-ch", "de-CH"},
		{"A region without formats of its own is accepted", "de-IT", "de-IT"},
		{"A language formatted but not translated is accepted", "ja", "ja"},
		{"A script and region is accepted", "zh-Hant-TW", "zh-Hant-TW"},
		{"A Unicode extension is kept", "en-US-u-rg-gbzzzz", "en-US-u-rg-gbzzzz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.tag)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.tag, err)
			}
			if got.String() != tc.want {
				t.Errorf("Parse(%q) = %s, want %s", tc.tag, got, tc.want)
			}
		})
	}
}

func TestParseRefusesMalformedAndUnsupportedTags(t *testing.T) {
	for _, tc := range []struct {
		name, tag string
		want      error
		message   string
	}{
		{"An empty tag is malformed", "", ErrMalformed, `"" is not a BCP 47 language tag`},
		{"An underscore is not BCP 47", "de_DE", ErrMalformed, `"de_DE" is not a BCP 47 language tag`},
		{"A one-letter language is malformed", "e", ErrMalformed, `"e" is not a BCP 47 language tag`},
		{"A subtag too long is malformed", "deutsch-land", ErrMalformed, `"deutsch-land" is not a BCP 47 language tag`},
		{"A language the registry does not know is unsupported", "xx", ErrUnsupported, `"xx" is not a language we can format`},
		{"A region the registry does not know is unsupported", "de-UU", ErrUnsupported, `"de-UU" is not a language we can format`},
		{"A private use region is unsupported", "de-XY", ErrUnsupported, `"de-XY" is not a language we can format`},
		{"A tag without a language is unsupported", "und", ErrUnsupported, `"und" is not a language we can format`},
		{"A region alone is unsupported", "und-CH", ErrUnsupported, `"und-CH" is not a language we can format`},
		{"A private use tag is unsupported", "x-klingon", ErrUnsupported, `"x-klingon" is not a language we can format`},
		{"A private use language is unsupported", "qaa", ErrUnsupported, `"qaa" is not a language we can format`},
		{"A language without compiled-in formats is unsupported", "sw", ErrUnsupported, `"sw" is not a language we can format`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.tag)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Parse(%q) = %v, want %v", tc.tag, err, tc.want)
			}
			if err.Error() != tc.message {
				t.Errorf("the message is %q, want %q", err.Error(), tc.message)
			}
		})
	}
}

func TestResolveTakesTheFirstTagParseAccepts(t *testing.T) {
	for _, tc := range []struct {
		name string
		tags []string
		want language.Tag
	}{
		{"The customer's locale comes first", []string{"fr-BE", "de"}, language.MustParse("fr-BE")},
		{"The profile's locale is used without the customer's", []string{"", "de"}, language.German},
		{"English is used without either", []string{"", ""}, language.English},
		{"English is used with no tags at all", nil, language.English},
		{"A bad customer's locale is skipped", []string{"de_DE", "nl"}, language.Dutch},
		{"An unsupported customer's locale is skipped", []string{"sw", "pl"}, language.Polish},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Resolve(tc.tags...); got != tc.want {
				t.Errorf("Resolve(%q) = %s, want %s", tc.tags, got, tc.want)
			}
		})
	}
}

func TestEveryTranslatedLanguageCanBeParsed(t *testing.T) {
	for _, tag := range Translated {
		if _, err := Parse(tag.String()); err != nil {
			t.Errorf("Parse(%s): %v", tag, err)
		}
	}
	if n := len(Languages()); n < len(Translated) {
		t.Errorf("%d languages, fewer than the %d translated", n, len(Translated))
	}
}
