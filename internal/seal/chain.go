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

package seal

import (
	"fmt"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The one reader of a seal chain: the adapter's store (seal by seal, as its
// informer delivers them), the manager's index of sealed records (seal by
// seal, in sequence order) and cmd/verifyseals (a whole chain) read each
// link with ReadLink, against the previous hash PreviousHash says.

// ReadLink verifies s as the link after previousHash (Verify: a
// *BrokenLink when it fails) and decodes the records its payload holds
// (Records' error when they do not decode).
func ReadLink(s *billingv1.LedgerSeal, previousHash string) ([]Record, error) {
	raw, err := Verify(s, previousHash)
	if err != nil {
		return nil, err
	}
	return Records(raw)
}

// PreviousHash is the hash s is verified against: billingv1.ZeroHash for
// the first seal, its predecessor's hash when the reader has read it
// (known), else s's own previousHash, for a reader that sees seals out of
// order: its payload's hash and its chain hash are then checked, and the
// link to its predecessor once the chain is read whole (VerifyChain).
func PreviousHash(s *billingv1.LedgerSeal, known func(sequence int64) (string, bool)) string {
	if s.Spec.Sequence == 1 {
		return billingv1.ZeroHash
	}
	if h, ok := known(s.Spec.Sequence - 1); ok {
		return h
	}
	return s.Spec.PreviousHash
}

// ReadChain is VerifyChain with each link read by ReadLink: each (if not
// nil) is called with every seal's records in order. A payload whose
// records do not decode is a *BrokenLink.
func ReadChain(seals []*billingv1.LedgerSeal, each func(*billingv1.LedgerSeal, []Record) error) (string, error) {
	return VerifyChain(seals, func(s *billingv1.LedgerSeal, raw []byte) error {
		records, err := Records(raw)
		if err != nil {
			return &BrokenLink{Seal: s.Name, Sequence: s.Spec.Sequence, Reason: err.Error()}
		}
		if each == nil {
			return nil
		}
		return each(s, records)
	})
}

// CheckCounts holds a verified seal's records to its counts and invoice
// numbers: the hashes prove the payload unchanged, this that the seal says
// what it holds. It returns a *BrokenLink when they differ.
func CheckCounts(s *billingv1.LedgerSeal, records []Record) error {
	broken := func(format string, args ...any) error {
		return &BrokenLink{Seal: s.Name, Sequence: s.Spec.Sequence, Reason: fmt.Sprintf(format, args...)}
	}
	var got billingv1.SealCounts
	var first, last string
	for _, r := range records {
		Count(&got, r.Object)
		if inv, ok := r.Object.(*billingv1.Invoice); ok {
			if first == "" {
				first = inv.Status.Number
			}
			last = inv.Status.Number
		}
	}
	if got != s.Spec.Counts {
		holds, says := countsDiffer(got, s.Spec.Counts)
		return broken("the payload holds %s; counts says %s", holds, says)
	}
	if first != s.Spec.FirstInvoiceNumber || last != s.Spec.LastInvoiceNumber {
		return broken("the payload's invoices run from %q to %q; the seal says %q to %q",
			first, last, s.Spec.FirstInvoiceNumber, s.Spec.LastInvoiceNumber)
	}
	return nil
}

// countsDiffer names, in words, the counts of got and want that differ:
// "2 payments" and "1 payments".
func countsDiffer(got, want billingv1.SealCounts) (holds, says string) {
	var g, w []string
	for _, c := range []struct {
		what      string
		got, want int32
	}{
		{"invoices", got.Invoices, want.Invoices}, {"credit notes", got.CreditNotes, want.CreditNotes},
		{"payments", got.Payments, want.Payments},
		{"credit applications", got.CreditApplications, want.CreditApplications},
		{"write-offs", got.WriteOffs, want.WriteOffs}, {"refunds", got.Refunds, want.Refunds},
		{"emails", got.Emails, want.Emails},
	} {
		if c.got != c.want {
			g, w = append(g, fmt.Sprintf("%d %s", c.got, c.what)), append(w, fmt.Sprintf("%d %s", c.want, c.what))
		}
	}
	return strings.Join(g, ", "), strings.Join(w, ", ")
}
