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

// Package locale writes documents for people of one language and region:
// it checks and resolves the BCP 47 tag a customer or a billing profile
// names, translates the documents' texts from message catalogs a
// translator edits (catalogs/<language>/messages.gotext.json), and formats
// money, numbers, percentages, dates and postal addresses from published
// data (CLDR through github.com/bojanz/currency and
// github.com/go-playground/locales, Google's libaddressinput address
// formats), not tables of its own.
package locale

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// ErrMalformed and ErrUnsupported are what the errors of Parse wrap: a tag
// that is not BCP 47, and a well-formed one this package cannot write for.
var (
	ErrMalformed   = errors.New("is not a BCP 47 language tag")
	ErrUnsupported = errors.New("is not a language we can format")
)

// tagError is an error of Parse: the tag as given, and why it is refused.
type tagError struct {
	tag string
	err error
}

// Error says which tag is refused and why, in words a 422 can show.
func (e *tagError) Error() string { return fmt.Sprintf("%q %s", e.tag, e.err) }

// Unwrap is ErrMalformed or ErrUnsupported.
func (e *tagError) Unwrap() error { return e.err }

// Parse checks a BCP 47 tag as Customer.spec.preferredLocale and
// BillingProfile.spec.locale accept it, and returns it in its canonical
// form ("de-ch" is de-CH). A tag is refused with ErrMalformed when it is not
// well-formed BCP 47 ("de_DE", "", "e"), and with ErrUnsupported when it is
// well-formed but this package cannot write for it:
//   - a subtag the IANA registry does not know ("xx", "de-XY");
//   - no language, or a private one ("und", "x-klingon", "qaa"), or a
//     private region ("de-XY");
//   - a language for which no CLDR date, number and money formats are
//     compiled in: those of Languages (the EU's, the EEA's, Swiss, British,
//     Turkish, Ukrainian, Russian, Serbian, Catalan, Chinese, Japanese and
//     Korean). A region or script of such a language is accepted whether
//     or not it has data of its own: it uses its parents' (en-AU uses
//     en-001, then en).
func Parse(s string) (language.Tag, error) {
	t, err := language.Parse(s)
	if err != nil || strings.Contains(s, "_") {
		// golang.org/x/text reads "de_DE" too; BCP 47 has no '_'.
		var unknown interface{ Subtag() string }
		if err != nil && errors.As(err, &unknown) {
			return language.Und, &tagError{s, ErrUnsupported}
		}
		return language.Und, &tagError{s, ErrMalformed}
	}
	base, conf := t.Base()
	_, _, region := t.Raw()
	if conf != language.Exact || !supported[base.String()] || region.IsPrivateUse() {
		return language.Und, &tagError{s, ErrUnsupported}
	}
	return t, nil
}

// Resolve is a document's locale: the first of tags (the customer's
// preferred locale, then the billing profile's) that Parse accepts, else
// English. Empty and refused tags are skipped.
func Resolve(tags ...string) language.Tag {
	for _, s := range tags {
		if s == "" {
			continue
		}
		if t, err := Parse(s); err == nil {
			return t
		}
	}
	return language.English
}

// Translated are the languages whose catalogs translate every text of the
// documents and e-mails; any other supported language is written in the
// nearest of these along its parents, else in English.
var Translated = []language.Tag{
	language.English, language.German, language.French, language.Spanish,
	language.Italian, language.Dutch, language.Polish, language.Portuguese,
}

// Languages are the languages Parse accepts: those whose formats are
// compiled in (formats.go).
func Languages() []string {
	out := make([]string, 0, len(supported))
	for l := range supported {
		out = append(out, l)
	}
	return out
}
