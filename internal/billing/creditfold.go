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

package billing

import (
	"slices"
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// Folding a customer's credit ledger (docs/ledger.md#the-credit-ledger-across-seals):
// once a seal holds the record behind a source (an overpaid invoice) or a
// use (a credit application or refund), nothing looks the entry up by name
// again, and its amount moves into the ledger's carried amount of its
// currency. The ledger then lists only the entries of records not sealed
// yet, and its balance is the same before and after.

// CreditHeld tells whether the record of kind (recordkind's name:
// "Invoice" for a source, a CreditUseKind for a use) named name with uid
// may be folded, and the sequence of the seal that holds it.
type CreditHeld func(kind, name, uid string) (sealSequence int64, ok bool)

// FoldCredit returns a copy of credit in which every source and every use
// whose record held says may be folded is moved into carried, per
// currency: carried grows by the sources' amounts, keeps the highest of
// their event sequences, and shrinks by the uses'. foldedThrough rises to
// the highest sequence of a seal whose entry was folded. changed is false
// (and out credit itself) when nothing was folded.
//
// Sources are folded first. A use is folded only while what its currency
// carries covers it, so carried never falls below 0: a use sealed before
// the source it drew on (a refund dated before the invoice that gave the
// credit, say) stays listed until that source is folded too. The balance
// and its summary do not change.
func FoldCredit(credit *billingv1.CustomerCredit, held CreditHeld) (out *billingv1.CustomerCredit, changed bool) {
	if credit == nil || (len(credit.Sources) == 0 && len(credit.Uses) == 0) {
		return credit, false
	}
	out = credit.DeepCopy()
	carried := map[string]*billingv1.CarriedCredit{}
	for i := range out.Carried {
		carried[out.Carried[i].Currency] = &out.Carried[i]
	}
	into := func(currency string) *billingv1.CarriedCredit {
		c := carried[currency]
		if c == nil {
			c = &billingv1.CarriedCredit{Currency: currency}
			carried[currency] = c
		}
		return c
	}
	through := out.FoldedThrough
	out.Sources = slices.DeleteFunc(out.Sources, func(s billingv1.CreditSource) bool {
		seq, ok := held(recordkind.Invoice.Name, s.Invoice, s.UID)
		if !ok {
			return false
		}
		c := into(s.Currency)
		c.Amount += s.Amount
		c.EventSequence = max(c.EventSequence, s.EventSequence)
		through, changed = max(through, seq), true
		return true
	})
	out.Uses = slices.DeleteFunc(out.Uses, func(u billingv1.CreditUse) bool {
		seq, ok := held(string(u.Kind), u.Name, u.UID)
		if !ok || carried[u.Currency] == nil || carried[u.Currency].Amount < u.Amount {
			return false
		}
		carried[u.Currency].Amount -= u.Amount
		through, changed = max(through, seq), true
		return true
	})
	if !changed {
		return credit, false
	}
	// The map points into out.Carried: a new list, not the old one reused.
	list := make([]billingv1.CarriedCredit, 0, len(carried))
	for _, c := range carried {
		list = append(list, *c)
	}
	out.Carried = list
	slices.SortFunc(out.Carried, func(a, b billingv1.CarriedCredit) int { return strings.Compare(a.Currency, b.Currency) })
	out.FoldedThrough = through
	return withDerived(out), true
}
