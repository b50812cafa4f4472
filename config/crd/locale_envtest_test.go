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

package crd_test

import (
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/invoicing-dev/invoicing/config/crd"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// customer builds the Customer "acme" from opts.
func customer(opts ...builder.CustomerOption) func(ns string) client.Object {
	return func(ns string) client.Object { return builder.Customer(ns, "acme", opts...) }
}

// The shape the CRDs ask of a customer's preferredLocale and a profile's
// locale: a BCP 47 tag's syntax and length. Whether the documents can
// format the tag is the HTTP API's and the renderer's to say (a tag they
// cannot is written in English).
func TestTheAPIServerChecksTheShapeOfLocales(t *testing.T) {
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.StartTest(t, testenv.WithCRDs(crds...)).Client
	ctx := context.Background()
	ns := builder.Namespace(t, ctx, c, "locale-")

	expectValidation(t, ctx, c, ns, []validationCase{
		{name: "a customer preferring German", build: customer(builder.WithPreferredLocale("de"))},
		{name: "a customer preferring Brazilian Portuguese", build: customer(builder.WithPreferredLocale("pt-BR"))},
		{name: "a customer preferring Serbian in Latin script", build: customer(builder.WithPreferredLocale("sr-Latn-RS"))},
		{name: "a customer preferring a tag with an underscore", build: customer(builder.WithPreferredLocale("de_DE")),
			field: "spec.preferredLocale", want: "should match"},
		{name: "a customer preferring a tag of one letter", build: customer(builder.WithPreferredLocale("d")),
			field: "spec.preferredLocale", want: "at least 2 chars long"},
		{name: "a customer preferring a tag of 36 characters",
			build: customer(builder.WithPreferredLocale("de-" + strings.Repeat("a1b2c3d4-", 3) + "abcdef")),
			field: "spec.preferredLocale", want: "Too long"},
		{name: "a profile in French", build: profile(builder.WithLocale("fr"))},
		{name: "a profile in Swiss German", build: profile(builder.WithLocale("de-CH"))},
		{name: "a profile in a tag with a space", build: profile(builder.WithLocale("de CH")),
			field: "spec.locale", want: "should match"},
	})
}
