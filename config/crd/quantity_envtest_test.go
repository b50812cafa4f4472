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
	"encoding/json"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/config/crd"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// TestTheAPIServerHoldsQuantitiesToFourDecimals sends quantities as a
// manifest writes them, as JSON numbers, to the real API server: the
// CRD's bounds and its CEL rule take what the HTTP API takes and refuse
// what it refuses, and a Go client reads back the exact number.
func TestTheAPIServerHoldsQuantitiesToFourDecimals(t *testing.T) {
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.StartTest(t, testenv.WithCRDs(crds...)).Client
	ctx := context.Background()
	tests := []struct {
		name, quantity string
		accepted       bool
	}{
		{"a whole number, as manifests wrote before decimals, is accepted", "3", true},
		{"7.5 is accepted", "7.5", true},
		{"four decimals are accepted", "1234.5678", true},
		{"the smallest step, 0.0001, is accepted", "0.0001", true},
		{"the maximum, 1,000,000, is accepted", "1000000", true},
		{"a fifth decimal is refused", "7.50001", false},
		{"a fifth decimal of a large quantity is refused", "999999.99991", false},
		{"0 is refused", "0", false},
		{"a negative quantity is refused", "-1", false},
		{"above the maximum is refused", "1000000.0001", false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := fmt.Sprintf("q-%d", i)
			var manifest map[string]any
			if err := json.Unmarshal([]byte(fmt.Sprintf(`{"apiVersion":"billing.invoicing.dev/v1","kind":"Invoice",
				"metadata":{"name":%q,"namespace":"default"},
				"spec":{"customerRef":{"name":"acme"},"items":[{"description":"Work","quantity":%s,"amount":100}]}}`,
				name, tt.quantity)), &manifest); err != nil {
				t.Fatal(err)
			}
			err := c.Create(ctx, &unstructured.Unstructured{Object: manifest})
			if (err == nil) != tt.accepted {
				t.Fatalf("create with quantity %s: %v; want accepted %v", tt.quantity, err, tt.accepted)
			}
			if !tt.accepted {
				return
			}
			got := &billingv1.Invoice{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: name}, got); err != nil {
				t.Fatal(err)
			}
			want, _ := billingv1.ParseDecimalQuantity(tt.quantity)
			if got.Spec.Items[0].Quantity != want {
				t.Errorf("read back %s, want %s", got.Spec.Items[0].Quantity, want)
			}
		})
	}
}
