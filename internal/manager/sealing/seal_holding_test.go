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

package sealing

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestHoldingNamesTheSealOfEachRecordByItsSequence(t *testing.T) {
	_, _, _, seals := managertest.SealedWorld(t)
	sealed := &SealedRecords{Reader: sealReader(seals...)}
	type answer struct {
		sequence int64
		uid      types.UID
	}
	got := map[string]answer{}
	err := sealed.Holding(context.Background(), "ns", func(held func(kind, name string) (int64, types.UID)) {
		for _, k := range [][2]string{{seal.KindInvoice, "inv-1"}, {seal.KindPayment, "pay-1"},
			{seal.KindInvoice, "inv-2"}, {seal.KindInvoice, "inv-3"}, {seal.KindPayment, "inv-1"}} {
			seq, uid := held(k[0], k[1])
			got[k[0]+"/"+k[1]] = answer{seq, uid}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]answer{
		"Invoice/inv-1": {1, "uid-inv-1"}, "Payment/pay-1": {1, "uid-pay-1"}, "Invoice/inv-2": {2, "uid-inv-2"},
		"Invoice/inv-3": {0, ""}, "Payment/inv-1": {0, ""},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: held in seal %d with uid %q, want %d %q", k, got[k].sequence, got[k].uid, w.sequence, w.uid)
		}
	}
}
