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

package schedule

import (
	"fmt"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// CalendarOf is the calendar and policy of spec, in its time zone or else
// profileZone (the workspace's BillingProfile's, "" for UTC); an error
// says what makes it invalid, by the spec field at fault.
func CalendarOf(spec *billingv1.InvoiceScheduleSpec, profileZone string) (Calendar, Policy, error) {
	start, err := ParseDate(spec.StartDate)
	if err != nil {
		return Calendar{}, Policy{}, fmt.Errorf("startDate: %w", err)
	}
	zone := spec.TimeZone
	if zone == "" {
		zone = profileZone
	}
	loc, err := billing.Location(zone)
	if err != nil {
		return Calendar{}, Policy{}, fmt.Errorf("timeZone: %w", err)
	}
	cal := Calendar{Start: start, Location: loc, Billing: Billing(spec.Billing),
		Interval: Interval{Unit: Unit(spec.Interval.Unit), Count: int(spec.Interval.Count)}}
	if cal.Billing == "" {
		cal.Billing = InAdvance
	}
	if err := cal.Validate(); err != nil {
		return cal, Policy{}, err
	}
	policy := Policy{Missed: Missed(spec.MissedPeriods)}
	if spec.MaxCatchUp != nil {
		policy.MaxCatchUp = int(*spec.MaxCatchUp)
	}
	if e := spec.End; e != nil {
		if e.Count != nil {
			policy.End.Count = int(*e.Count)
		}
		if e.Date != "" {
			d, err := ParseDate(e.Date)
			if err != nil {
				return cal, policy, fmt.Errorf("end.date: %w", err)
			}
			policy.End.Date = &d
		}
	}
	return cal, policy, nil
}

// InvoiceSpecOf is the spec of the invoice of period p of s: its
// template, its customer and p as its invoicing period (BG-14).
func InvoiceSpecOf(s *billingv1.InvoiceSchedule, p Period) billingv1.InvoiceSpec {
	t := s.Spec.Template.DeepCopy()
	return billingv1.InvoiceSpec{CustomerRef: s.Spec.CustomerRef, Currency: t.Currency, Items: t.Items,
		DefaultTaxFrom: t.DefaultTaxFrom, BuyerReference: t.BuyerReference, PurchaseOrder: t.PurchaseOrder,
		Allowances: t.Allowances, Charges: t.Charges,
		InvoicingPeriod: &billingv1.InvoicingPeriod{Start: p.Start.String(), End: p.End.String()}}
}

// SpecFault is why spec, a schedule's invoice, cannot be issued (nil when
// it can): its amounts, taxes and allowances computed as an invoice's are,
// with defaultTax (the workspace's) where its lines take the default. The
// manager's status and the adapter's checks of a pending item both ask it.
func SpecFault(spec *billingv1.InvoiceSpec, defaultTax *billingv1.Tax) error {
	if spec.DefaultTaxFrom == billingv1.DefaultTaxNone {
		defaultTax = nil
	}
	_, err := billing.InvoiceAmounts(spec, billing.EffectiveDocumentTaxes(spec, defaultTax))
	return err
}

// NextIndex is the index of the first period of cal that s has not
// handled: the one its status names next (a changed interval applies from
// the first period starting on or after it), 0 before the controller has
// planned it.
func NextIndex(cal Calendar, st *billingv1.InvoiceScheduleStatus) int {
	if st.NextPeriod == nil {
		return 0
	}
	d, err := ParseDate(st.NextPeriod.Start)
	if err != nil {
		return 0
	}
	return cal.FirstStartingAfter(d.AddDays(-1))
}
