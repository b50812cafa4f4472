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

package httpapi

import (
	"net/url"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/einvoice"
)

func TestParseDocumentFormatReadsFormatAndProfile(t *testing.T) {
	for _, c := range []struct {
		query   string
		want    documentFormat
		errCode string
		param   string
	}{
		{query: "", want: documentFormat{}},
		{query: "format=html", want: documentFormat{format: "html"}},
		{query: "format=pdf", want: documentFormat{format: "pdf"}},
		{query: "format=ubl", want: documentFormat{format: "ubl", profile: einvoice.EN16931}},
		{query: "format=ubl&profile=en16931", want: documentFormat{format: "ubl", profile: einvoice.EN16931}},
		{query: "format=cii", want: documentFormat{format: "cii", profile: einvoice.EN16931}},
		{query: "format=xlsx", errCode: CodeParameterInvalid, param: queryFormat},
		{query: "format=ubl&profile=zugferd", errCode: CodeParameterInvalid, param: queryProfile},
		{query: "format=ubl&profile=", errCode: CodeParameterInvalid, param: queryProfile},
		{query: "profile=en16931", errCode: CodeParameterInvalid, param: queryProfile},
		{query: "format=pdf&profile=en16931", errCode: CodeParameterInvalid, param: queryProfile},
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		got, e := parseDocumentFormat(q)
		switch {
		case c.errCode != "":
			if e == nil || e.Code != c.errCode || e.Param != c.param {
				t.Errorf("%q: got %v, want %s with param %s", c.query, e, c.errCode, c.param)
			}
		case e != nil:
			t.Errorf("%q: %v", c.query, e)
		case got != c.want:
			t.Errorf("%q: got %+v, want %+v", c.query, got, c.want)
		}
	}
}

func TestParseAsIssuedReadsTrueOrFalse(t *testing.T) {
	for _, c := range []struct {
		name  string
		query string
		want  bool
		fails bool
	}{
		{"absent is false", "", false, false},
		{"true is true", "as_issued=true", true, false},
		{"false is false", "as_issued=false", false, false},
		{"an empty value is invalid", "as_issued=", false, true},
		{"1 is invalid", "as_issued=1", false, true},
		{"upper case is invalid", "as_issued=TRUE", false, true},
		{"yes is invalid", "as_issued=yes", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			got, e := parseAsIssued(q)
			switch {
			case c.fails:
				if e == nil || e.Status != 422 || e.Code != CodeParameterInvalid || e.Param != queryAsIssued {
					t.Errorf("got %v, want 422 %s with param %s", e, CodeParameterInvalid, queryAsIssued)
				}
			case e != nil || got != c.want:
				t.Errorf("got %v, %v, want %v", got, e, c.want)
			}
		})
	}
}
