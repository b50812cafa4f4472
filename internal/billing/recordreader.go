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
	"context"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// RecordReader reads one customer's records of a workspace, live and
// sealed: the adapter's from its store, the manager's from its cache and
// the seals. GatherRecords is the one place that says which records a
// customer's statement is computed of, so that the statement GET
// /v1/customers/{id}/statement serves and the one the manager mails are
// computed of the same records.
type RecordReader interface {
	// Invoices are the customer's invoices.
	Invoices(ctx context.Context) ([]*billingv1.Invoice, error)
	// Ledgers adds to recs the records entered in the ledgers of the
	// customer's invoices (invoices, as Invoices read them): credit notes,
	// payments, credit applications and write-offs.
	Ledgers(ctx context.Context, invoices []*billingv1.Invoice, recs *Records) error
	// Refunds are the customer's refunds.
	Refunds(ctx context.Context) ([]*billingv1.Refund, error)
}

// GatherRecords reads the records of a customer's account with r: the
// customer's invoices, the records in their ledgers and the customer's
// refunds. A record of an invoice counts only with that invoice among the
// records (account.go), so a reader may add more of them than the
// customer's.
func GatherRecords(ctx context.Context, r RecordReader) (*Records, error) {
	recs := &Records{}
	var err error
	if recs.Invoices, err = r.Invoices(ctx); err != nil {
		return nil, err
	}
	if err := r.Ledgers(ctx, recs.Invoices, recs); err != nil {
		return nil, err
	}
	if recs.Refunds, err = r.Refunds(ctx); err != nil {
		return nil, err
	}
	return recs, nil
}
