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
	"context"
	"errors"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// fakeRecords is a billing.RecordReader of fixed records, failing with err
// on the read named failing.
type fakeRecords struct {
	recs    billing.Records
	failing string
	err     error
	// ledgersOf are the invoices Ledgers was given.
	ledgersOf []*billingv1.Invoice
}

func (f *fakeRecords) Invoices(context.Context) ([]*billingv1.Invoice, error) {
	if f.failing == "invoices" {
		return nil, f.err
	}
	return f.recs.Invoices, nil
}

func (f *fakeRecords) Ledgers(_ context.Context, invoices []*billingv1.Invoice, recs *billing.Records) error {
	if f.failing == "ledgers" {
		return f.err
	}
	f.ledgersOf = invoices
	recs.CreditNotes, recs.Payments = f.recs.CreditNotes, f.recs.Payments
	recs.CreditApplications, recs.WriteOffs = f.recs.CreditApplications, f.recs.WriteOffs
	return nil
}

func (f *fakeRecords) Refunds(context.Context) ([]*billingv1.Refund, error) {
	if f.failing == "refunds" {
		return nil, f.err
	}
	return f.recs.Refunds, nil
}

func TestGatherRecords(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "r", Namespace: "ws"}
	all := billing.Records{
		Invoices:           []*billingv1.Invoice{{ObjectMeta: meta}},
		CreditNotes:        []*billingv1.CreditNote{{ObjectMeta: meta}},
		Payments:           []*billingv1.Payment{{ObjectMeta: meta}},
		CreditApplications: []*billingv1.CreditApplication{{ObjectMeta: meta}},
		Refunds:            []*billingv1.Refund{{ObjectMeta: meta}},
		WriteOffs:          []*billingv1.WriteOff{{ObjectMeta: meta}},
	}
	broken := errors.New("the store is down")
	for _, tc := range []struct {
		name    string
		failing string
	}{
		{"every kind the reader reads is gathered, the ledgers of the invoices it read", ""},
		{"a failing read of the invoices fails the gathering", "invoices"},
		{"a failing read of the ledgers fails the gathering", "ledgers"},
		{"a failing read of the refunds fails the gathering", "refunds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reader := &fakeRecords{recs: all, failing: tc.failing, err: broken}
			got, err := billing.GatherRecords(context.Background(), reader)
			if tc.failing != "" {
				if !errors.Is(err, broken) || got != nil {
					t.Fatalf("GatherRecords = %+v, %v; want nothing and %v", got, err, broken)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(*got, all) {
				t.Fatalf("GatherRecords = %+v, %v; want %+v", got, err, all)
			}
			if !reflect.DeepEqual(reader.ledgersOf, all.Invoices) {
				t.Errorf("Ledgers read the ledgers of %+v, want those of %+v", reader.ledgersOf, all.Invoices)
			}
		})
	}
}
