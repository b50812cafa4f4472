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

package main

import (
	"encoding/json"
	"testing"

	. "github.com/onsi/gomega"
)

func TestAnInvoiceSplitsIntoTheBytesOfItsParts(t *testing.T) {
	g := NewWithT(t)
	var obj map[string]any
	g.Expect(json.Unmarshal([]byte(`{"metadata":{"name":"a","managedFields":[{"manager":"m"},{"manager":"n"}]},`+
		`"spec":{"x":1},"status":{"phase":"Issued","events":[1,2]}}`), &obj)).To(Succeed())
	g.Expect(partsOf(obj)).To(Equal(invoiceParts{
		"total":                  len(`{"metadata":{"managedFields":[{"manager":"m"},{"manager":"n"}],"name":"a"},"spec":{"x":1},"status":{"events":[1,2],"phase":"Issued"}}`),
		"metadata.managedFields": len(`[{"manager":"m"},{"manager":"n"}]`),
		"managedFields.entries":  2,
		"metadata":               len(`{"name":"a"}`),
		"spec":                   len(`{"x":1}`),
		"status.phase":           len(`"Issued"`),
		"status.events":          len(`[1,2]`),
	}))
}
