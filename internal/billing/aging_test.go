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
	"testing"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

func TestAging(t *testing.T) {
	// Each invoice is issued on day 0 and due on day 10 (march1 + 10).
	due10 := func(name, customer string, total int64) *billingv1.Invoice {
		return accountInvoice(name, customer, "EUR", total, day(0), 10)
	}
	for _, tc := range []struct {
		name string
		recs billing.Records
		asOf time.Time
		want []billing.AgingRow
	}{
		{name: "an invoice not yet past due is current, also on the day it is due",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-1", "cus-a", 1_000)}}, asOf: day(10),
			want: []billing.AgingRow{{Customer: "cus-a", Currency: "EUR",
				AgingBuckets: billing.AgingBuckets{Current: 1_000, Total: 1_000}}}},
		{name: "an invoice 1 day past due is in 1_30",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-1", "cus-a", 1_000)}}, asOf: day(11),
			want: []billing.AgingRow{{Customer: "cus-a", Currency: "EUR",
				AgingBuckets: billing.AgingBuckets{Days1To30: 1_000, Total: 1_000}}}},
		{name: "30 days past due is still 1_30, 31 is 31_60",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-1", "cus-a", 1_000),
				accountInvoice("inv-2", "cus-a", "EUR", 2_000, day(-1), 10)}}, asOf: day(40),
			want: []billing.AgingRow{{Customer: "cus-a", Currency: "EUR",
				AgingBuckets: billing.AgingBuckets{Days1To30: 1_000, Days31To60: 2_000, Total: 3_000}}}},
		{name: "60 days is 31_60, 61 is 61_90, 90 is 61_90, 91 is over_90",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-60", "cus-a", 1),
				accountInvoice("inv-61", "cus-a", "EUR", 10, day(-1), 10),
				accountInvoice("inv-90", "cus-a", "EUR", 100, day(-30), 10),
				accountInvoice("inv-91", "cus-a", "EUR", 1_000, day(-31), 10)}}, asOf: day(70),
			want: []billing.AgingRow{{Customer: "cus-a", Currency: "EUR", AgingBuckets: billing.AgingBuckets{
				Days31To60: 1, Days61To90: 110, Over90: 1_000, Total: 1_111}}}},
		{name: "a payment and a credit note dated after the day do not reduce it",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-1", "cus-a", 1_000)},
				Payments:    []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 300, day(5)), recordedPayment("pay-2", "inv-1", 700, day(21))},
				CreditNotes: []*billingv1.CreditNote{issuedCreditNote("cn-1", "inv-1", 100, day(21))}}, asOf: day(20),
			want: []billing.AgingRow{{Customer: "cus-a", Currency: "EUR",
				AgingBuckets: billing.AgingBuckets{Days1To30: 700, Total: 700}}}},
		{name: "an invoice issued after the day is absent",
			recs: billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", "cus-a", "EUR", 1_000, day(3), 10)}},
			asOf: day(2)},
		{name: "an invoice voided after the day still counts, and not once voided",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-1", "cus-a", 1_000), due10("inv-2", "cus-b", 500)},
				CreditNotes: []*billingv1.CreditNote{issuedCreditNote("cn-1", "inv-1", 1_000, day(3)),
					issuedCreditNote("cn-2", "inv-2", 500, day(1))}}, asOf: day(2),
			want: []billing.AgingRow{{Customer: "cus-a", Currency: "EUR",
				AgingBuckets: billing.AgingBuckets{Current: 1_000, Total: 1_000}}}},
		{name: "a write-off and a credit application on or before the day take what they settled",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-1", "cus-a", 1_000), due10("inv-2", "cus-a", 800)},
				Payments:           []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 1_200, day(1))},
				CreditApplications: []*billingv1.CreditApplication{appliedCredit("capp-1", "inv-2", 200, day(2))},
				WriteOffs:          []*billingv1.WriteOff{recordedWriteOff("wo-1", "inv-2", 600, day(2))}},
			asOf: day(2)},
		{name: "an overpayment shows as the customer's unapplied credit",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-1", "cus-a", 1_000), due10("inv-2", "cus-a", 800)},
				Payments: []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 1_200, day(1))}}, asOf: day(2),
			want: []billing.AgingRow{{Customer: "cus-a", Currency: "EUR",
				AgingBuckets: billing.AgingBuckets{Current: 800, Total: 800}, UnappliedCredit: 200}}},
		{name: "customers and currencies have a row each, in order",
			recs: billing.Records{Invoices: []*billingv1.Invoice{due10("inv-1", "cus-b", 1),
				accountInvoice("inv-2", "cus-a", "USD", 2, day(0), 10), due10("inv-3", "cus-a", 3)}}, asOf: day(2),
			want: []billing.AgingRow{
				{Customer: "cus-a", Currency: "EUR", AgingBuckets: billing.AgingBuckets{Current: 3, Total: 3}},
				{Customer: "cus-a", Currency: "USD", AgingBuckets: billing.AgingBuckets{Current: 2, Total: 2}},
				{Customer: "cus-b", Currency: "EUR", AgingBuckets: billing.AgingBuckets{Current: 1, Total: 1}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := billing.Aging(&tc.recs, billing.StartOfDay(tc.asOf, time.UTC), time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", append([]billing.AgingRow{}, tc.want...)) {
				t.Errorf("Aging =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

func TestAgingEndsTheDayInTheWorkspacesTimeZone(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	// Paid at 16:00 UTC on 2 March: 3 March in Tokyo, still 2 March in UTC.
	recs := billing.Records{Invoices: []*billingv1.Invoice{accountInvoice("inv-1", "cus-a", "EUR", 1_000, day(0), 10)},
		Payments: []*billingv1.Payment{recordedPayment("pay-1", "inv-1", 1_000, time.Date(2026, 3, 2, 16, 0, 0, 0, time.UTC))}}
	for _, tc := range []struct {
		loc  *time.Location
		open int
	}{{time.UTC, 0}, {tokyo, 1}} {
		asOf, err := billing.ParseDay("2026-03-02", tc.loc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := billing.Aging(&recs, asOf, tc.loc)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.open {
			t.Errorf("in %s: %d rows open at the end of 2 March, want %d: %+v", tc.loc, len(got), tc.open, got)
		}
	}
}

func TestParseDay(t *testing.T) {
	for _, s := range []string{"", "2026-3-1", "2026-02-30", "2026-13-01", "01-03-2026", "2026-03-01T00:00:00Z", " 2026-03-01"} {
		if _, err := billing.ParseDay(s, time.UTC); err == nil {
			t.Errorf("ParseDay(%q) succeeded", s)
		}
	}
	got, err := billing.ParseDay("2026-03-29", time.UTC)
	if err != nil || !got.Equal(time.Date(2026, 3, 29, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("ParseDay(2026-03-29) = %v, %v", got, err)
	}
}
