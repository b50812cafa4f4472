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

package apiobject_test

import (
	"reflect"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// TestEveryKindThatCarriesEventsHasItsEventRendered holds EventDataOf to
// the table of record kinds: an event about an object of any kind that
// carries events has data, and one about another kind has none.
func TestEveryKindThatCarriesEventsHasItsEventRendered(t *testing.T) {
	noInvoice := func(string) *billingv1.Invoice { return nil }
	for _, k := range recordkind.All {
		t.Run(k.Name, func(t *testing.T) {
			got := apiobject.EventDataOf(k.New(), noInvoice)
			if rendered := !reflect.DeepEqual(got, apiobject.EventData{}); rendered != (len(k.Events) > 0) {
				t.Errorf("EventDataOf(%s) = %+v: rendered %v, but the kind carries events %v", k.Name, got, rendered, k.Events)
			}
		})
	}
}
