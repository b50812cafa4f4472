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

// PeriodCloseOption changes a PeriodClose of PeriodClose.
type PeriodCloseOption func(*billingv1.PeriodClose)

// PeriodClose returns a PeriodClose named name in namespace ns that closes
// the workspace's books through through: a month "YYYY-MM", a day
// "YYYY-MM-DD" or an RFC 3339 instant.
func PeriodClose(ns, name, through string, opts ...PeriodCloseOption) *billingv1.PeriodClose {
	pc := &billingv1.PeriodClose{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       billingv1.PeriodCloseSpec{Through: through},
	}
	for _, opt := range opts {
		opt(pc)
	}
	return pc
}

// WithPeriodCloseStatus sets the whole status, for tests of code that
// reads closes the controller has decided.
func WithPeriodCloseStatus(status billingv1.PeriodCloseStatus) PeriodCloseOption {
	return func(pc *billingv1.PeriodClose) { pc.Status = status }
}

// ClosedPeriodClose returns a PeriodClose named name in ns in phase Closed
// through the instant closedThrough, as the controller leaves it (without
// its event).
func ClosedPeriodClose(ns, name string, closedThrough metav1.Time) *billingv1.PeriodClose {
	return PeriodClose(ns, name, closedThrough.UTC().Format("2006-01-02T15:04:05Z07:00"),
		WithPeriodCloseStatus(billingv1.PeriodCloseStatus{Phase: billingv1.PeriodCloseClosed, ClosedThrough: &closedThrough}))
}
