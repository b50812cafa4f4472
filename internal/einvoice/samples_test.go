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

package einvoice_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/test/samples"
	"github.com/invoicing-dev/invoicing/internal/test/schematron"
)

// The invoices of config/samples are the e-invoices the walk-through
// downloads (docs/walkthrough.md#e-invoices): each is written under the
// profiles it is meant for and passes the syntax's schema, CEN's rules and
// the profile's own, so those commands answer a document, not an error.
func TestTheSampleInvoicesAreValidEInvoices(t *testing.T) {
	tools := schematron.Require(t)
	docs := newBatch(t)
	for _, c := range []struct {
		sample   string
		profiles []einvoice.Profile
	}{
		{"billing_v1_invoice.yaml", []einvoice.Profile{einvoice.EN16931}},
		{"billing_v1_invoice_2.yaml", []einvoice.Profile{einvoice.EN16931}},
		{"locale/billing_v1_invoice.yaml", einvoice.Profiles},
		{"reverse-charge/billing_v1_invoice.yaml", []einvoice.Profile{einvoice.EN16931}},
	} {
		s, err := samples.Issued(c.sample, "DEMO-000001", 1, time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		for _, profile := range c.profiles {
			for format, schema := range map[einvoice.Format]schematron.Schema{
				einvoice.UBL: schematron.UBLInvoice, einvoice.CII: schematron.CIIInvoice} {
				name := fmt.Sprintf("config/samples/%s (%s, %s)", c.sample, format, profile)
				b, err := einvoice.Invoice(s.Invoice, format, profile)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				docs.add(t, schema, profile, format, name, b)
			}
		}
	}
	docs.check(t, tools)
}
