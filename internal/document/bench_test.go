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
	"testing"

	"golang.org/x/text/language"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// BenchmarkRenderingAnInvoice renders the same invoices as HTML, PDF and
// Factur-X, in English and in German, side by side: what a locale and a
// Factur-X cost against the plain PDF (make bench-micro).
func BenchmarkRenderingAnInvoice(b *testing.B) {
	invoices := map[string]*billingv1.Invoice{"3 lines": twoRates(), "500 lines": manyLines()}
	renderings := []struct {
		name   string
		render func(*billingv1.Invoice, Options) ([]byte, error)
		locale language.Tag
	}{
		{"html en", HTML, language.English},
		{"pdf en", PDF, language.English},
		{"pdf de", PDF, language.German},
		{"facturx de", FacturX, language.German},
	}
	for _, size := range []string{"3 lines", "500 lines"} {
		for _, r := range renderings {
			b.Run(size+"/"+r.name, func(b *testing.B) {
				inv := invoices[size]
				var bytes int
				for b.Loop() {
					doc, err := r.render(inv, Options{Footer: sampleFooter, Locale: r.locale})
					if err != nil {
						b.Fatal(err)
					}
					bytes = len(doc)
				}
				b.ReportMetric(float64(bytes), "bytes/doc")
			})
		}
	}
}
