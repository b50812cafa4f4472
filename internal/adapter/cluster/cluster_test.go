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

package cluster

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestRESTMapperNamesTheResources(t *testing.T) {
	m := restMapper()
	for kind, resource := range map[string]string{
		"Customer": "customers", "Invoice": "invoices", "IdempotencyKey": "idempotencykeys",
		"PeriodClose": "periodcloses", "LedgerSeal": "ledgerseals", "Email": "emails",
	} {
		mapping, err := m.RESTMapping(schema.GroupKind{Group: "billing.invoicing.dev", Kind: kind}, "v1")
		if err != nil {
			t.Fatal(err)
		}
		if mapping.Resource.Resource != resource {
			t.Errorf("%s maps to %s, want %s", kind, mapping.Resource.Resource, resource)
		}
	}
}
