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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// InvoiceScheduleOption changes an InvoiceSchedule of InvoiceSchedule.
type InvoiceScheduleOption func(*billingv1.InvoiceSchedule)

// InvoiceSchedule returns a valid monthly schedule named name in namespace
// ns for customer, from start (YYYY-MM-DD), in UTC, billing one line of
// 1000.00 USD in advance.
func InvoiceSchedule(ns, name, customer, start string, opts ...InvoiceScheduleOption) *billingv1.InvoiceSchedule {
	s := &billingv1.InvoiceSchedule{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.InvoiceScheduleSpec{
			CustomerRef: billingv1.CustomerReference{Name: customer},
			Template: billingv1.InvoiceTemplate{Currency: "USD",
				Items: []billingv1.LineItem{{Description: "Rent", Quantity: billingv1.Units(1), Amount: 100_000}}},
			Interval:  billingv1.ScheduleInterval{Unit: "month", Count: 1},
			StartDate: start,
			TimeZone:  "UTC",
		},
	}
	for _, opt := range opts {
		opt(s)
	}
	return s
}

// WithInterval sets spec.interval.
func WithInterval(unit string, count int32) InvoiceScheduleOption {
	return func(s *billingv1.InvoiceSchedule) {
		s.Spec.Interval = billingv1.ScheduleInterval{Unit: billingv1.IntervalUnit(unit), Count: count}
	}
}

// WithMissedPeriods sets spec.missedPeriods and, above 0, spec.maxCatchUp.
func WithMissedPeriods(policy billingv1.MissedPeriods, maxCatchUp int32) InvoiceScheduleOption {
	return func(s *billingv1.InvoiceSchedule) {
		s.Spec.MissedPeriods = policy
		if maxCatchUp > 0 {
			s.Spec.MaxCatchUp = &maxCatchUp
		}
	}
}

// WithTemplateItems sets the template's items.
func WithTemplateItems(items ...billingv1.LineItem) InvoiceScheduleOption {
	return func(s *billingv1.InvoiceSchedule) { s.Spec.Template.Items = items }
}

// Paused sets spec.paused.
func Paused() InvoiceScheduleOption {
	return func(s *billingv1.InvoiceSchedule) { s.Spec.Paused = true }
}

// PendingItem returns a pending item named name in namespace ns for
// schedule: one unit of amount, described as description.
func PendingItem(ns, name, schedule, description string, amount int64) *billingv1.PendingItem {
	return &billingv1.PendingItem{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.PendingItemSpec{ScheduleRef: billingv1.InvoiceScheduleReference{Name: schedule},
			Item: billingv1.LineItem{Description: description, Quantity: billingv1.Units(1), Amount: amount}},
	}
}
