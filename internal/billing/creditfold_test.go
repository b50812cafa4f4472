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

package billing_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// sealedIn is a CreditHeld of the records sealed, by kind/name/uid, with
// their seals' sequences.
func sealedIn(sealed map[string]int64) billing.CreditHeld {
	return func(kind, name, uid string) (int64, bool) {
		seq, ok := sealed[kind+"/"+name+"/"+uid]
		return seq, ok
	}
}

// foldLedger is a credit of two USD sources (a: 5,000 at event 3, b: 1,000
// at event 7), one EUR source (c: 700 at event 5), an application of 2,000
// USD and a refund of 300 EUR.
func foldLedger() *billingv1.CustomerCredit {
	credit, _ := billing.WithSource(nil, invoiceNamed("a", "a", "USD"), 5_000, 3)
	credit, _ = billing.WithSource(credit, invoiceNamed("b", "b", "USD"), 1_000, 7)
	credit, _ = billing.WithSource(credit, invoiceNamed("c", "c", "EUR"), 700, 5)
	credit = billing.WithUse(credit, billingv1.CreditUse{Kind: billingv1.CreditUseApplication, Name: "capp", UID: "1",
		Currency: "USD", Amount: 2_000})
	return billing.WithUse(credit, billingv1.CreditUse{Kind: billingv1.CreditUseRefund, Name: "rf", UID: "2",
		Currency: "EUR", Amount: 300})
}

func TestFoldingMovesTheSealedEntriesIntoCarried(t *testing.T) {
	for _, tc := range []struct {
		name    string
		credit  *billingv1.CustomerCredit
		sealed  map[string]int64
		changed bool
		sources []string
		uses    []string
		carried []billingv1.CarriedCredit
		through int64
	}{
		{name: "nothing sealed changes nothing", credit: foldLedger(), sealed: nil, changed: false,
			sources: []string{"a", "b", "c"}, uses: []string{"capp", "rf"}},
		{name: "a sealed source moves into carried with its event sequence", credit: foldLedger(),
			sealed: map[string]int64{"Invoice/a/uid-a": 2}, changed: true,
			sources: []string{"b", "c"}, uses: []string{"capp", "rf"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 5_000, EventSequence: 3}}, through: 2},
		{name: "a source held under another uid stays", credit: foldLedger(),
			sealed: map[string]int64{"Invoice/a/uid-other": 2}, changed: false,
			sources: []string{"a", "b", "c"}, uses: []string{"capp", "rf"}},
		{name: "a sealed use is taken from what its currency carries", credit: foldLedger(),
			sealed: map[string]int64{"Invoice/a/uid-a": 1, "CreditApplication/capp/1": 3}, changed: true,
			sources: []string{"b", "c"}, uses: []string{"rf"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 3_000, EventSequence: 3}}, through: 3},
		{name: "a use sealed before the sources it drew on stays listed", credit: foldLedger(),
			sealed: map[string]int64{"Refund/rf/2": 1}, changed: false,
			sources: []string{"a", "b", "c"}, uses: []string{"capp", "rf"}},
		{name: "a use that carried cannot cover stays until more sources are folded", credit: foldLedger(),
			sealed: map[string]int64{"Invoice/b/uid-b": 1, "CreditApplication/capp/1": 1}, changed: true,
			sources: []string{"a", "c"}, uses: []string{"capp", "rf"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 1_000, EventSequence: 7}}, through: 1},
		{name: "a refund and an application of the same name are told apart by kind", credit: foldLedger(),
			sealed: map[string]int64{"Invoice/c/uid-c": 1, "CreditApplication/rf/2": 1}, changed: true,
			sources: []string{"a", "b"}, uses: []string{"capp", "rf"},
			carried: []billingv1.CarriedCredit{{Currency: "EUR", Amount: 700, EventSequence: 5}}, through: 1},
		{name: "everything sealed leaves carried alone, one entry per currency, at 0 where it was all spent",
			credit: func() *billingv1.CustomerCredit {
				c := foldLedger()
				return billing.WithUse(c, billingv1.CreditUse{Kind: billingv1.CreditUseRefund, Name: "rf-all", UID: "3",
					Currency: "EUR", Amount: 400})
			}(),
			sealed: map[string]int64{"Invoice/a/uid-a": 1, "Invoice/b/uid-b": 4, "Invoice/c/uid-c": 2,
				"CreditApplication/capp/1": 3, "Refund/rf/2": 2, "Refund/rf-all/3": 4}, changed: true,
			carried: []billingv1.CarriedCredit{{Currency: "EUR", Amount: 0, EventSequence: 5},
				{Currency: "USD", Amount: 4_000, EventSequence: 7}}, through: 4},
		{name: "a second fold adds to what is carried, and foldedThrough never falls",
			credit: func() *billingv1.CustomerCredit {
				c, _ := billing.FoldCredit(foldLedger(), sealedIn(map[string]int64{"Invoice/a/uid-a": 5}))
				return c
			}(),
			sealed: map[string]int64{"Invoice/a/uid-a": 5, "Invoice/b/uid-b": 2}, changed: true,
			sources: []string{"c"}, uses: []string{"capp", "rf"},
			carried: []billingv1.CarriedCredit{{Currency: "USD", Amount: 6_000, EventSequence: 7}}, through: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.credit.DeepCopy()
			got, changed := billing.FoldCredit(tc.credit, sealedIn(tc.sealed))
			if diff := cmp.Diff(before, tc.credit); diff != "" {
				t.Errorf("FoldCredit changed its argument (-before +after):\n%s", diff)
			}
			if changed != tc.changed {
				t.Errorf("changed = %v, want %v", changed, tc.changed)
			}
			var sources, uses []string
			for _, s := range got.Sources {
				sources = append(sources, s.Invoice)
			}
			for _, u := range got.Uses {
				uses = append(uses, u.Name)
			}
			if diff := cmp.Diff(tc.sources, sources, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.uses, uses, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("uses (-want +got):\n%s", diff)
			}
			want := tc.carried
			if !tc.changed {
				want = before.Carried
			}
			if diff := cmp.Diff(want, got.Carried, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("carried (-want +got):\n%s", diff)
			}
			if tc.changed && got.FoldedThrough != tc.through {
				t.Errorf("foldedThrough = %d, want %d", got.FoldedThrough, tc.through)
			}
			if diff := cmp.Diff(before.Balance, got.Balance); diff != "" || got.Summary != before.Summary {
				t.Errorf("the balance changed (-before +after):\n%s, summary %q, was %q", diff, got.Summary, before.Summary)
			}
		})
	}
}

func TestAfterAFoldTheCreditKeepsWhatItsUsesAreCheckedAgainst(t *testing.T) {
	credit := foldLedger()
	folded, _ := billing.FoldCredit(credit, sealedIn(map[string]int64{"Invoice/a/uid-a": 1, "Invoice/b/uid-b": 1,
		"CreditApplication/capp/1": 1}))
	for _, currency := range []string{"USD", "EUR", "JPY"} {
		if got, want := billing.CreditEventsAfter(folded, currency), billing.CreditEventsAfter(credit, currency); got != want {
			t.Errorf("CreditEventsAfter(%s) = %d after the fold, %d before", currency, got, want)
		}
		customer := func(c *billingv1.CustomerCredit) *billingv1.Customer {
			return &billingv1.Customer{Status: billingv1.CustomerStatus{Credit: c}}
		}
		if got, want := billing.AvailableCredit(customer(folded), currency), billing.AvailableCredit(customer(credit), currency); got != want {
			t.Errorf("AvailableCredit(%s) = %d after the fold, %d before", currency, got, want)
		}
	}
	if billing.FindUse(folded, billingv1.CreditUseApplication, "capp", "1") != nil {
		t.Error("FindUse finds a folded use: its sealed record is never looked up again")
	}
	if billing.FindUse(folded, billingv1.CreditUseRefund, "rf", "2") == nil {
		t.Error("FindUse does not find a use still listed")
	}
	if billing.CreditHolds(folded, invoiceNamed("a", "a", "USD"), 5_000) {
		t.Error("CreditHolds lists a folded source: its invoice is sealed, and no one asks")
	}
	// A use entered after the fold is checked against the carried credit.
	more := billing.WithUse(folded, billingv1.CreditUse{Kind: billingv1.CreditUseRefund, Name: "rf-2", UID: "9",
		Currency: "USD", Amount: 4_000})
	if len(more.Balance) != 1 || more.Balance[0].Currency != "EUR" || more.Summary != "EUR 4.00" {
		t.Errorf("a use of all the carried USD leaves %+v %q", more.Balance, more.Summary)
	}
}

// randomCredit is a random credit ledger entered as the controllers
// enter it, with the records it names: sources of overpaid invoices, and
// uses each of at most the credit available in its currency.
func randomCredit(rng *rand.Rand) (credit *billingv1.CustomerCredit, records []string) {
	currencies := []string{"EUR", "USD", "JPY"}
	for i := range rng.IntN(30) {
		currency := currencies[rng.IntN(len(currencies))]
		if rng.IntN(2) == 0 {
			name := fmt.Sprintf("inv-%d", i)
			credit, _ = billing.WithSource(credit, invoiceNamed(name, name, currency), 1+rng.Int64N(10_000), rng.Int64N(1_000))
			records = append(records, "Invoice/"+name+"/uid-"+name)
			continue
		}
		available := billing.AvailableCredit(&billingv1.Customer{Status: billingv1.CustomerStatus{Credit: credit}}, currency)
		if available == 0 {
			continue
		}
		kind := []billingv1.CreditUseKind{billingv1.CreditUseApplication, billingv1.CreditUseRefund}[rng.IntN(2)]
		name := fmt.Sprintf("use-%d", i)
		credit = billing.WithUse(credit, billingv1.CreditUse{Kind: kind, Name: name, UID: name, Currency: currency,
			Amount: 1 + rng.Int64N(available)})
		records = append(records, string(kind)+"/"+name+"/"+name)
	}
	return credit, records
}

func TestTheBalanceIsTheSameBeforeAndAfterAFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 51))
	for run := range 2_000 {
		credit, records := randomCredit(rng)
		if credit == nil {
			continue // no entry at all: nothing to fold
		}
		// Seals come one after the other, each holding some more records;
		// the ledger is folded after each, as the customer reconciler
		// would.
		sealed := map[string]int64{}
		for seq := int64(1); seq <= 4; seq++ {
			for _, r := range records {
				if _, ok := sealed[r]; !ok && rng.IntN(3) == 0 {
					sealed[r] = seq
				}
			}
			folded, changed := billing.FoldCredit(credit, sealedIn(sealed))
			checkFold(t, fmt.Sprintf("run %d, seal %d", run, seq), credit, folded, changed, sealed)
			credit = folded
		}
	}
}

// checkFold holds folded, what FoldCredit made of credit with the records
// of sealed, to what a fold keeps: the balance, its summary and the
// events a use comes after; carried at 0 or more; foldedThrough never
// falling; no sealed source listed; and a second fold changing nothing.
func checkFold(t *testing.T, where string, credit, folded *billingv1.CustomerCredit, changed bool, sealed map[string]int64) {
	t.Helper()
	if diff := cmp.Diff(billing.CreditBalance(credit), folded.Balance); diff != "" {
		t.Fatalf("%s: the balance changed (-before +after):\n%s", where, diff)
	}
	if folded.Summary != credit.Summary || !cmp.Equal(folded.Balance, credit.Balance) {
		t.Fatalf("%s: the stored balance changed: %+v %q, was %+v %q", where, folded.Balance, folded.Summary,
			credit.Balance, credit.Summary)
	}
	for _, currency := range []string{"EUR", "USD", "JPY"} {
		if a, b := billing.CreditEventsAfter(credit, currency), billing.CreditEventsAfter(folded, currency); a != b {
			t.Fatalf("%s: CreditEventsAfter(%s) = %d after, %d before", where, currency, b, a)
		}
	}
	for _, c := range folded.Carried {
		if c.Amount < 0 {
			t.Fatalf("%s: carried %+v below 0", where, c)
		}
	}
	if folded.FoldedThrough < credit.FoldedThrough || (changed && folded.FoldedThrough == 0) {
		t.Fatalf("%s: foldedThrough went from %d to %d (changed %v)", where, credit.FoldedThrough,
			folded.FoldedThrough, changed)
	}
	for _, s := range folded.Sources {
		if _, ok := sealed["Invoice/"+s.Invoice+"/"+s.UID]; ok {
			t.Fatalf("%s: source %s is sealed and still listed", where, s.Invoice)
		}
	}
	if again, twice := billing.FoldCredit(folded, sealedIn(sealed)); twice || again != folded {
		t.Fatalf("%s: a second fold of the same seals changed the credit again", where)
	}
}
