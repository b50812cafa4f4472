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
	_ "embed"
	"html/template"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/locale"
)

//go:embed invoice.html.tmpl
var htmlSource string

// htmlTemplate escapes every value it prints (html/template), so the user's
// text is shown as text: a description of <script> prints "<script>".
var htmlTemplate = template.Must(template.New("invoice").Parse(htmlSource))

// HTML renders an issued invoice as a complete UTF-8 HTML page, with print
// CSS whose content fits both A4 and US Letter, in the language and
// formats of opts.Locale, with opts.Footer. It returns ErrNotIssued for an
// invoice that is not issued. With opts.AsIssued it shows the invoice as
// it was issued.
func HTML(inv *billingv1.Invoice, opts Options) ([]byte, error) {
	v, err := newView(subject(inv, opts), locale.New(opts.Locale), opts)
	if err != nil {
		return nil, err
	}
	return renderHTML(v)
}

// renderHTML executes the template on v.
func renderHTML(v *view) ([]byte, error) {
	var b bytes.Buffer
	if err := htmlTemplate.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
