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

package main

// Measurement 13, a bank statement matched: n open invoices of one
// workspace are paid by one camt.053 statement of n lines, half quoting
// each invoice's payment reference and half its number with the amount,
// imported through the adapter; the controller matches each line and
// records its payment, and the payment reconciler enters it in its
// invoice's ledger. bank_match_per_s is n over the time from the import's
// request to the last line Matched.

import (
	"context"
	"fmt"
	"net/http"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/camtfile"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

const (
	// bankStep is the measurement's name for -only.
	bankStep = "13. a bank statement matched"
	// bankWorkspace holds the measurement's invoices and lines alone.
	bankWorkspace = "bench-banking"
	// bankIBAN is the workspace's account.
	bankIBAN = "DE02120300000000202051"
)

// measureBankMatch is measurement 13 (see the top of this file).
func (b *bench) measureBankMatch(ctx context.Context, r *Report) error {
	n := b.cfg.Invoices
	if err := b.provisionBanking(ctx); err != nil {
		return err
	}
	w, err := b.watchIssued(ctx, bankWorkspace)
	if err != nil {
		return err
	}
	defer w.stop()
	if _, err := b.parallelWith(ctx, b.fillWorkers(), n, func(ctx context.Context, _ int) error {
		_, err := b.createDirect(ctx, bankWorkspace)
		return err
	}); err != nil {
		return err
	}
	b.created.Add(int64(n))
	if _, err := w.await(ctx, n, time.Duration(n)*40*time.Millisecond+5*time.Minute); err != nil {
		return err
	}
	statement, err := b.statementOf(ctx, n)
	if err != nil {
		return err
	}
	b.logf("Importing a statement of %d lines (%d bytes) against %d open invoices", n, len(statement), n)
	start := time.Now()
	// The benchmark's client gives up after 30 s; an import of 10,000
	// lines takes minutes here.
	patient := v1client.New(b.apiURL, &http.Client{Transport: b.http.Transport, Timeout: 15 * time.Minute},
		v1client.Token(b.token))
	imported, resp, err := patient.ImportBankStatement(ctx, statement, v1client.Workspace(bankWorkspace))
	if err != nil {
		return fmt.Errorf("importing the statement: %w (%v)", err, resp)
	}
	answered := time.Since(start)
	if imported.Transactions != n || imported.New != n {
		return fmt.Errorf("the statement's %d lines gave %d transactions, %d new", n, imported.Transactions, imported.New)
	}
	if err := b.awaitMatched(ctx, n, time.Duration(n)*40*time.Millisecond+5*time.Minute); err != nil {
		return err
	}
	took := time.Since(start)
	r.BankMatchPerSec = float64(n) / took.Seconds()
	r.Details.BankLines, r.Details.BankImportSeconds = n, answered.Seconds()
	b.logf("%s: %d lines matched at %.0f/s (the import answered in %.1fs)", bankStep, n, r.BankMatchPerSec,
		answered.Seconds())
	return nil
}

// provisionBanking makes the measurement's workspace: the client allowed to
// import statements, a profile with a payment account (so that each
// invoice has a payment reference) and the customer.
func (b *bench) provisionBanking(ctx context.Context) error {
	objs := append([]client.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: bankWorkspace}}},
		clientAccess(bankWorkspace, "banktransactions")...)
	objs = append(objs,
		&billingv1.BillingProfile{
			ObjectMeta: metav1.ObjectMeta{Name: billingv1.DefaultBillingProfileName, Namespace: bankWorkspace},
			Spec:       billingv1.BillingProfileSpec{Payment: &billingv1.PaymentAccount{IBAN: bankIBAN}},
		},
		&billingv1.Customer{
			ObjectMeta: metav1.ObjectMeta{Name: customer, Namespace: bankWorkspace},
			Spec:       billingv1.CustomerSpec{Name: "Acme Corporation", Email: "billing@acme.example"},
		})
	for _, o := range objs {
		if err := b.admin.Create(ctx, o); err != nil {
			return fmt.Errorf("creating %T %s: %w", o, o.GetName(), err)
		}
	}
	if err := b.awaitProfileSeen(ctx); err != nil {
		return err
	}
	return b.awaitAllowed(ctx, bankWorkspace)
}

// awaitProfileSeen waits until the manager has reconciled the workspace's
// profile: it reads profiles from its cache, and an invoice issued before
// the cache holds the profile has no payment reference.
func (b *bench) awaitProfileSeen(ctx context.Context) error {
	deadline := time.Now().Add(time.Minute)
	for {
		p := &billingv1.BillingProfile{}
		key := client.ObjectKey{Namespace: bankWorkspace, Name: billingv1.DefaultBillingProfileName}
		if err := b.admin.Get(ctx, key, p); err != nil {
			return err
		}
		if p.Status.ObservedGeneration == p.Generation {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the manager has not seen the profile of %s", bankWorkspace)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// statementOf is the statement that pays the n issued invoices of the
// workspace, half by reference and half by number and amount.
func (b *bench) statementOf(ctx context.Context, n int) ([]byte, error) {
	var list billingv1.InvoiceList
	if err := b.admin.List(ctx, &list, client.InNamespace(bankWorkspace)); err != nil {
		return nil, err
	}
	if len(list.Items) != n {
		return nil, fmt.Errorf("%d invoices in %s, want %d", len(list.Items), bankWorkspace, n)
	}
	entries := make([]camtfile.Entry, 0, n)
	for i, inv := range list.Items {
		if inv.Status.PaymentReference == "" || inv.Status.Total == nil {
			return nil, fmt.Errorf("invoice %s was issued without a payment reference or total", inv.Name)
		}
		e := camtfile.Entry{BankRef: fmt.Sprintf("BENCH-%06d", i), Cents: *inv.Status.Total,
			Currency: billing.InvoiceCurrency(&inv), Day: time.Now().UTC().Format(time.DateOnly)}
		if i%2 == 0 {
			e.Reference = inv.Status.PaymentReference
		} else {
			e.Text = "Invoice " + inv.Status.Number
		}
		entries = append(entries, e)
	}
	return camtfile.Write(bankIBAN, "bench-statement", entries), nil
}

// awaitMatched waits until n bank transactions of the workspace are
// Matched; one left Unmatched is an error.
func (b *bench) awaitMatched(ctx context.Context, n int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		var list billingv1.BankTransactionList
		if err := b.admin.List(ctx, &list, client.InNamespace(bankWorkspace)); err != nil {
			return err
		}
		matched := 0
		for _, t := range list.Items {
			switch t.Status.Phase {
			case billingv1.BankTransactionMatched:
				matched++
			case billingv1.BankTransactionUnmatched, billingv1.BankTransactionIgnored:
				return fmt.Errorf("bank transaction %s is %s: %s", t.Name, t.Status.Phase, t.Status.Message)
			}
		}
		if matched == n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d bank transactions matched after %s", matched, n, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
