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

package ledger

import (
	"reflect"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// TestEveryLedgerRowOfTheKindTableHasItsDescriptor holds the manager's
// ledger descriptors to the rows of internal/recordkind that name one: a
// row without its descriptor, or a descriptor without its row, fails.
func TestEveryLedgerRowOfTheKindTableHasItsDescriptor(t *testing.T) {
	descriptors := map[string]client.Object{}
	for _, d := range []struct {
		name   string
		object client.Object
	}{
		{creditNotes.name, creditNotes.object}, {payments.name, payments.object},
		{creditApplications.name, creditApplications.object}, {refunds.name, refunds.object},
		{writeOffs.name, writeOffs.object},
	} {
		descriptors[d.name] = d.object
	}
	rows := recordkind.Where(func(k *recordkind.Kind) bool { return k.Ledger != "" })
	for _, k := range rows {
		t.Run(k.Name+" has its ledger descriptor", func(t *testing.T) {
			obj, ok := descriptors[k.Ledger]
			if !ok {
				t.Fatalf("no ledgerKind is named %q", k.Ledger)
			}
			if reflect.TypeOf(obj) != reflect.TypeOf(k.New()) {
				t.Errorf("the ledgerKind %q is of %T, want %T", k.Ledger, obj, k.New())
			}
		})
	}
	if len(rows) != len(descriptors) {
		t.Errorf("%d rows name a ledger descriptor, and %d descriptors exist", len(rows), len(descriptors))
	}
}
