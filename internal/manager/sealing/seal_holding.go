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

	"k8s.io/apimachinery/pkg/types"
)

// Holding calls fn with a lookup of what ns's verified seals hold,
// refreshed once from the cache: for the record of kind (seal.KindInvoice,
// ...) named name, the sequence of the seal that holds it and the uid the
// record had; 0 and "" when no seal does. It is SealOf for many records
// at once: the customer reconciler asks it of every entry of a
// customer's credit ledger (docs/ledger.md#the-credit-ledger-across-seals).
// fn runs under the index's lock: it must not call back into s, nor wait
// on anything.
func (s *SealedRecords) Holding(ctx context.Context, ns string,
	fn func(held func(kind, name string) (sequence int64, uid types.UID))) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, err := s.workspace(ctx, ns)
	if err != nil {
		return err
	}
	sequences := make(map[string]int64, len(ws.seals))
	for i, info := range ws.seals {
		sequences[info.Name] = int64(i) + 1 // seals[i] has sequence i+1
	}
	fn(func(kind, name string) (int64, types.UID) {
		r, ok := ws.records[SealedKey{kind, name}]
		if !ok {
			return 0, ""
		}
		return sequences[r.seal], r.uid
	})
	return nil
}
