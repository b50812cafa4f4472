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

package builder

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// CustomerOption changes a Customer of Customer.
type CustomerOption func(*billingv1.Customer)

// Customer returns a valid Customer named name in namespace ns: its name
// is "Customer <name>" and its email billing@<name>.example.
func Customer(ns, name string, opts ...CustomerOption) *billingv1.Customer {
	c := &billingv1.Customer{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.CustomerSpec{
			Name:  "Customer " + name,
			Email: "billing@" + name + ".example",
		},
	}
	for _, opt := range opts {
		opt(c)
	}
	return c
}

// WithDisplayName sets spec.name.
func WithDisplayName(name string) CustomerOption {
	return func(c *billingv1.Customer) { c.Spec.Name = name }
}

// WithEmail sets spec.email.
func WithEmail(email string) CustomerOption {
	return func(c *billingv1.Customer) { c.Spec.Email = email }
}

// WithAddress sets the customer's postal address.
func WithAddress(address billingv1.Address) CustomerOption {
	return func(c *billingv1.Customer) { c.Spec.Address = &address }
}

// WithPreferredLocale sets spec.preferredLocale, a BCP 47 tag.
func WithPreferredLocale(tag string) CustomerOption {
	return func(c *billingv1.Customer) { c.Spec.PreferredLocale = tag }
}

// WithTaxID sets the customer's tax id.
func WithTaxID(taxID string) CustomerOption {
	return func(c *billingv1.Customer) { c.Spec.TaxID = taxID }
}
