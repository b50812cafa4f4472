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
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// LedgerSeal returns the LedgerSeal with sequence n of namespace ns after
// the seal whose hash is previous (billingv1.ZeroHash for 1), holding
// records (Invoices, CreditNotes and Payments, in the seal's order) as the
// pinned format says (internal/seal): what the manager's sealing writes.
// Its closedThrough is through, its counts and invoice numbers are the
// records'.
func LedgerSeal(ns string, n int64, previous string, through metav1.Time, records ...client.Object) (*billingv1.LedgerSeal, error) {
	var lines [][]byte
	spec := billingv1.LedgerSealSpec{Sequence: n, PreviousHash: previous, ClosedThrough: through}
	for _, obj := range records {
		line, err := seal.Line(obj)
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
		switch o := obj.(type) {
		case *billingv1.Invoice:
			spec.Counts.Invoices++
			if spec.FirstInvoiceNumber == "" {
				spec.FirstInvoiceNumber = o.Status.Number
			}
			spec.LastInvoiceNumber = o.Status.Number
		case *billingv1.CreditNote:
			spec.Counts.CreditNotes++
		case *billingv1.Payment:
			spec.Counts.Payments++
		}
	}
	if spec.Counts.Invoices == 0 {
		return nil, fmt.Errorf("a seal holds at least one invoice")
	}
	enc, err := seal.Encode(lines)
	if err != nil {
		return nil, err
	}
	spec.Payload, spec.PayloadSHA256 = enc.Payload, enc.SHA256
	spec.Hash = seal.ChainHash(ns, n, previous, enc.SHA256)
	spec.ShortHash = spec.Hash[:12]
	return &billingv1.LedgerSeal{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: seal.Name(n)}, Spec: spec}, nil
}
