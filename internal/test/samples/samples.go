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

// Package samples reads the invoices of config/samples and issues them as
// the controller would, with the sample billing profile and their customer,
// so that the pictures in docs/ and the tests of the documents and
// e-invoices are of the very invoices a reader applies.
package samples

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/text/language"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/locale"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// Sample is an invoice of config/samples, issued, with what it was issued
// under.
type Sample struct {
	Invoice  *billingv1.Invoice
	Customer *billingv1.Customer
	Profile  *billingv1.BillingProfile
}

// Locale is the language its documents are written in: its customer's
// preferred locale, else the profile's, else English.
func (s Sample) Locale() language.Tag {
	return locale.Resolve(s.Customer.Spec.PreferredLocale, s.Profile.Spec.Locale)
}

// Issued reads the invoice of config/samples/<path> ("locale/billing_v1_invoice.yaml"),
// its customer (billing_v1_customer.yaml beside it, or config/samples') and
// the sample billing profile, and issues it at at with number's sequence
// as the controller does: the effective taxes and amounts, the bill-to,
// the issuer, the payment account and the due date frozen in its status.
func Issued(path, number string, sequence int64, at time.Time) (Sample, error) {
	root := filepath.Join(testenv.ModuleRoot(), "config", "samples")
	s := Sample{Invoice: &billingv1.Invoice{}, Customer: &billingv1.Customer{}, Profile: &billingv1.BillingProfile{}}
	customer := filepath.Join(filepath.Dir(path), "billing_v1_customer.yaml")
	if _, err := os.Stat(filepath.Join(root, customer)); err != nil {
		customer = "billing_v1_customer.yaml"
	}
	for file, obj := range map[string]any{path: s.Invoice, customer: s.Customer,
		"billing_v1_billingprofile.yaml": s.Profile} {
		data, err := os.ReadFile(filepath.Join(root, file)) //nolint:gosec // the repository's samples
		if err != nil {
			return s, err
		}
		if err := yaml.UnmarshalStrict(data, obj); err != nil {
			return s, fmt.Errorf("config/samples/%s: %w", file, err)
		}
	}
	if s.Invoice.Spec.CustomerRef.Name != s.Customer.Name {
		return s, fmt.Errorf("config/samples/%s is to customer %q, not %q of config/samples/%s",
			path, s.Invoice.Spec.CustomerRef.Name, s.Customer.Name, customer)
	}
	if err := Freeze(s.Invoice, s.Profile.Spec.DefaultTax); err != nil {
		return s, fmt.Errorf("config/samples/%s: %w", path, err)
	}
	st, spec := &s.Invoice.Status, s.Profile.Spec
	terms := ptr.Deref(spec.PaymentTermsDays, billingv1.DefaultPaymentTermsDays)
	issuedAt, dueAt := metav1.NewTime(at), metav1.NewTime(at.AddDate(0, 0, int(terms)))
	st.Phase, st.Number, st.Sequence, st.IssuedAt, st.DueAt = billingv1.InvoiceIssued, number, &sequence, &issuedAt, &dueAt
	st.Issuer, st.PaymentAccount = spec.Issuer.DeepCopy(), spec.Payment.DeepCopy()
	st.PaymentReference = banktransfer.InvoiceReference(st.PaymentAccount, number)
	c := s.Customer.Spec
	st.BillTo = &billingv1.BillTo{Name: c.Name, Email: c.Email, Address: c.Address.DeepCopy(), TaxID: c.TaxID,
		ElectronicAddress: c.ElectronicAddress.DeepCopy()}
	return s, nil
}

// Freeze sets inv's taxes and amounts as the controller does at issue:
// each line's effective tax (its own, else defaultTax) in status.items
// (absent when no line has tax), and the subtotal, the breakdown, the tax
// total and the total.
func Freeze(inv *billingv1.Invoice, defaultTax *billingv1.Tax) error {
	taxes := billing.EffectiveDocumentTaxes(&inv.Spec, defaultTax).Normalized()
	a, err := billing.InvoiceAmounts(&inv.Spec, taxes)
	if err != nil {
		return err
	}
	billing.SetAmounts(&inv.Status, &inv.Spec, a, taxes)
	return nil
}
