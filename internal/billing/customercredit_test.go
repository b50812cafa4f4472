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
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func invoiceNamed(name, uid, currency string) *billingv1.Invoice {
	return &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + uid)},
		Spec: billingv1.InvoiceSpec{Currency: currency}}
}

func TestTheCreditBalanceIsTheSourcesLessTheUsesPerCurrency(t *testing.T) {
	credit, _ := billing.WithSource(nil, invoiceNamed("a", "a", "USD"), 5_000, 3)
	credit, _ = billing.WithSource(credit, invoiceNamed("b", "b", "EUR"), 1_000, 4)
	credit, _ = billing.WithSource(credit, invoiceNamed("c", "c", "JPY"), 700, 5)
	credit = billing.WithUse(credit, billingv1.CreditUse{Kind: billingv1.CreditUseApplication, Name: "capp", UID: "1",
		Currency: "USD", Amount: 2_000})
	credit = billing.WithUse(credit, billingv1.CreditUse{Kind: billingv1.CreditUseRefund, Name: "rf", UID: "2",
		Currency: "EUR", Amount: 1_000})
	want := []billingv1.CurrencyAmount{{Currency: "JPY", Amount: 700}, {Currency: "USD", Amount: 3_000}}
	if diff := cmp.Diff(want, credit.Balance); diff != "" {
		t.Errorf("balance (-want +got):\n%s", diff)
	}
	if credit.Summary != "JPY 700, USD 30.00" {
		t.Errorf("summary = %q", credit.Summary)
	}
	if got := billing.CreditEventsAfter(credit, "USD"); got != 3 {
		t.Errorf("CreditEventsAfter(USD) = %d, want 3", got)
	}
}

func TestASourceOnlyGrowsAndIsEnteredOnce(t *testing.T) {
	inv := invoiceNamed("a", "a", "")
	credit, changed := billing.WithSource(nil, inv, 1_000, 1)
	if !changed || len(credit.Sources) != 1 || credit.Sources[0].Currency != "USD" {
		t.Fatalf("the first entry: changed %v, %+v", changed, credit.Sources)
	}
	for _, tc := range []struct {
		name    string
		amount  int64
		changed bool
		want    int64
	}{
		{"the same amount again changes nothing", 1_000, false, 1_000},
		{"a smaller amount changes nothing", 500, false, 1_000},
		{"a larger amount replaces it", 1_500, true, 1_500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := billing.WithSource(credit, inv, tc.amount, 2)
			if changed != tc.changed || len(got.Sources) != 1 || got.Sources[0].Amount != tc.want {
				t.Errorf("changed %v, sources %+v", changed, got.Sources)
			}
		})
	}
	again := invoiceNamed("a", "other", "USD")
	if got, changed := billing.WithSource(credit, again, 1_000, 1); !changed || len(got.Sources) != 2 {
		t.Errorf("an invoice created again under the same name is another source: %+v", got.Sources)
	}
}

func TestAHoldGivenBackLeavesTheCreditAsItWas(t *testing.T) {
	credit, _ := billing.WithSource(nil, invoiceNamed("a", "a", "USD"), 5_000, 1)
	use := billingv1.CreditUse{Kind: billingv1.CreditUseApplication, Name: "capp", UID: "1", Currency: "USD", Amount: 5_000}
	held := billing.WithUse(credit, use)
	if len(held.Balance) != 0 || held.Summary != "" {
		t.Errorf("with all of it held the balance is %+v %q", held.Balance, held.Summary)
	}
	if billing.FindUse(held, use.Kind, use.Name, use.UID) == nil {
		t.Error("FindUse does not find the hold")
	}
	if billing.FindUse(held, billingv1.CreditUseRefund, use.Name, use.UID) != nil {
		t.Error("FindUse finds a refund of the application's name")
	}
	released := billing.WithoutUse(held, use.Kind, use.Name, use.UID)
	if diff := cmp.Diff(credit, released, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("released (-before +after):\n%s", diff)
	}
	customer := &billingv1.Customer{Status: billingv1.CustomerStatus{Credit: released}}
	if got := billing.AvailableCredit(customer, "USD"); got != 5_000 {
		t.Errorf("AvailableCredit = %d", got)
	}
	if got := billing.AvailableCredit(customer, "EUR"); got != 0 {
		t.Errorf("AvailableCredit(EUR) = %d", got)
	}
}
