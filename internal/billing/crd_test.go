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

package billing

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The HTTP adapter validates requests with this package's bounds before it
// writes to the API server, which validates them again with the CRDs. These
// tests read the generated CRDs, so the two cannot drift apart unnoticed.

// crdSchema returns the OpenAPI schema of the only version of the CRD in file.
func crdSchema(t *testing.T, file string) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "config", "crd", "bases", file))
	if err != nil {
		t.Fatalf("reading CRD: %v", err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(data, crd); err != nil {
		t.Fatalf("decoding CRD %s: %v", file, err)
	}
	if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Schema == nil {
		t.Fatalf("CRD %s: want one version with a schema, got %d versions", file, len(crd.Spec.Versions))
	}
	return crd.Spec.Versions[0].Schema.OpenAPIV3Schema
}

// property walks down the schema's properties (and "[]" into array items).
func property(t *testing.T, schema *apiextensionsv1.JSONSchemaProps, path ...string) apiextensionsv1.JSONSchemaProps {
	t.Helper()
	current := *schema
	for _, name := range path {
		if name == "[]" {
			if current.Items == nil || current.Items.Schema == nil {
				t.Fatalf("schema at %v has no items", path)
			}
			current = *current.Items.Schema
			continue
		}
		next, ok := current.Properties[name]
		if !ok {
			t.Fatalf("schema has no property %q on the way to %v", name, path)
		}
		current = next
	}
	return current
}

func float(v *float64) float64 {
	if v == nil {
		return -1
	}
	return *v
}

func integer(v *int64) int64 {
	if v == nil {
		return -1
	}
	return *v
}

func TestBoundsMatchTheInvoiceCRD(t *testing.T) {
	schema := crdSchema(t, "billing.invoicing.dev_invoices.yaml")
	items := property(t, schema, "spec", "items")
	item := func(name string) apiextensionsv1.JSONSchemaProps {
		return property(t, schema, "spec", "items", "[]", name)
	}
	tests := []struct {
		name      string
		crd, want float64
	}{
		{"the minimum number of items is MinItems", float64(integer(items.MinItems)), MinItems},
		{"the maximum number of items is MaxItems", float64(integer(items.MaxItems)), MaxItems},
		{"a description's maximum length is MaxDescription", float64(integer(item("description").MaxLength)), MaxDescription},
		{"the minimum quantity is one step of a DecimalQuantity", float(item("quantity").Minimum), 1.0 / billingv1.QuantityScale},
		{"the maximum quantity is MaxQuantity", float(item("quantity").Maximum), MaxQuantity},
		{"the minimum amount is MinAmount", float(item("amount").Minimum), MinAmount},
		{"the maximum amount is MaxAmount", float(item("amount").Maximum), MaxAmount},
		{"the maximum total is MaxTotal", float(property(t, schema, "status", "total").Maximum), MaxTotal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.crd != tt.want {
				t.Errorf("CRD says %v, package billing says %v", tt.crd, tt.want)
			}
		})
	}
}

func TestDefaultCurrencyMatchesTheInvoiceCRD(t *testing.T) {
	currency := property(t, crdSchema(t, "billing.invoicing.dev_invoices.yaml"), "spec", "currency")
	if currency.Default == nil || string(currency.Default.Raw) != `"`+DefaultCurrency+`"` {
		t.Errorf("CRD default for spec.currency is %v, DefaultCurrency is %q", currency.Default, DefaultCurrency)
	}
}

func TestEmailRulesMatchTheCustomerCRD(t *testing.T) {
	email := property(t, crdSchema(t, "billing.invoicing.dev_customers.yaml"), "spec", "email")
	if got := integer(email.MaxLength); got != MaxEmailLength {
		t.Errorf("CRD maxLength is %d, MaxEmailLength is %d", got, MaxEmailLength)
	}
	if email.Pattern != emailPattern.String() {
		t.Errorf("CRD pattern is %q, emailPattern is %q", email.Pattern, emailPattern.String())
	}
	if email.Format != "email" {
		t.Errorf("CRD format is %q, want email (net/mail, as ValidEmail uses)", email.Format)
	}
}

// The CRD's pattern for a tax rate draws the line where ParseRate does, so
// that kubectl and HTTP clients are refused the same rates.
func TestTheCRDsRatePatternAcceptsWhatParseRateAccepts(t *testing.T) {
	schemas := map[string][]string{
		"billing.invoicing.dev_invoices.yaml":        {"spec", "items", "[]", "tax", "rate"},
		"billing.invoicing.dev_billingprofiles.yaml": {"spec", "defaultTax", "rate"},
	}
	corpus := []string{
		"0", "19", "5.5", "8.875", "0.0001", "100", "100.0", "100.0000", "19.0000", "5.50", "99.9999",
		"", "+19", "-1", "1e2", "1.", ".5", "19.12345", "19.00000", "100.0001", "101", "019", "00", " 19", "19%", "1000",
	}
	for file, path := range schemas {
		rate := property(t, crdSchema(t, file), path...)
		pattern, err := regexp.Compile(rate.Pattern)
		if err != nil {
			t.Fatalf("%s: the rate's pattern %q does not compile: %v", file, rate.Pattern, err)
		}
		for _, s := range corpus {
			_, parseErr := ParseRate(s)
			if matched := pattern.MatchString(s); matched != (parseErr == nil) {
				t.Errorf("%s: the CRD's pattern matches %q: %v; ParseRate accepts it: %v", file, s, matched, parseErr == nil)
			}
		}
	}
}
