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

package document

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// sampleStatement is the statement of a German customer over the first
// quarter of 2026, in Berlin: one invoice before the quarter, paid in it;
// two in it, one partly credited, one paid with the customer's credit and
// a payment; and an overpayment that is partly refunded. n more invoices
// make it longer.
func sampleStatement(t *testing.T, n int) *Statement {
	t.Helper()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at := func(month time.Month, day int) *metav1.Time {
		year := 2026
		if month == time.December {
			year = 2025
		}
		return &metav1.Time{Time: time.Date(year, month, day, 10, 0, 0, 0, berlin)}
	}
	inv := func(name, number string, total int64, issued *metav1.Time) *billingv1.Invoice {
		return &billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "beispiel"}, Currency: "EUR"},
			Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: number, Total: ptr.To(total),
				IssuedAt: issued, DueAt: &metav1.Time{Time: issued.AddDate(0, 0, 14)}}}
	}
	pay := func(name, invoice string, amount int64, paid *metav1.Time) *billingv1.Payment {
		return &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:   billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: invoice}, Amount: amount, PaidAt: paid},
			Status: billingv1.PaymentStatus{Phase: billingv1.PaymentRecorded}}
	}
	recs := &billing.Records{
		Invoices: []*billingv1.Invoice{inv("inv-1", "DEMO-000001", 119_000, at(12, 15)),
			inv("inv-2", "DEMO-000002", 142_800, at(1, 20)), inv("inv-3", "DEMO-000003", 35_700, at(3, 2))},
		Payments: []*billingv1.Payment{pay("pay-1", "inv-1", 119_000, at(1, 10)), pay("pay-2", "inv-2", 150_000, at(2, 3)),
			pay("pay-3", "inv-3", 25_000, at(3, 20))},
		CreditNotes: []*billingv1.CreditNote{{ObjectMeta: metav1.ObjectMeta{Name: "cn-1"},
			Spec: billingv1.CreditNoteSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-2"}},
			Status: billingv1.CreditNoteStatus{Phase: billingv1.CreditNoteIssued, Number: "CN-000001", Total: ptr.To[int64](11_900),
				IssuedAt: at(2, 10)}}},
		CreditApplications: []*billingv1.CreditApplication{{ObjectMeta: metav1.ObjectMeta{Name: "capp-1"},
			Spec:   billingv1.CreditApplicationSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-3"}, Amount: 5_000},
			Status: billingv1.CreditApplicationStatus{Phase: billingv1.CreditApplicationApplied, AppliedAt: at(3, 2)}}},
		Refunds: []*billingv1.Refund{{ObjectMeta: metav1.ObjectMeta{Name: "rf-1"},
			Spec: billingv1.RefundSpec{CustomerRef: billingv1.CustomerReference{Name: "beispiel"}, Amount: 10_000,
				Currency: "EUR", RefundedAt: at(3, 25)},
			Status: billingv1.RefundStatus{Phase: billingv1.RefundRecorded}}},
	}
	for i := range n {
		recs.Invoices = append(recs.Invoices, inv(fmt.Sprintf("inv-x%03d", i), fmt.Sprintf("DEMO-1%05d", i),
			int64(1_000+i), at(3, 1+i%28)))
	}
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, berlin), time.Date(2026, 3, 31, 0, 0, 0, 0, berlin)
	st, err := billing.ComputeStatement(recs, "beispiel", from, to, berlin)
	if err != nil {
		t.Fatal(err)
	}
	return &Statement{Statement: &st, Location: berlin, Footer: sampleFooter,
		Customer: &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "beispiel"}, Spec: billingv1.CustomerSpec{
			Name: "Beispiel AG", Email: "rechnung@beispiel.example", TaxID: "DE987654321",
			Address: &billingv1.Address{Line1: "Hauptstraße 5", City: "München", PostalCode: "80331", Country: "DE"}}},
		Issuer: &billingv1.Issuer{Name: "Example Invoicing GmbH", Email: "billing@invoicing.example", TaxID: "DE123456789",
			Address: &billingv1.Address{Line1: "Friedrichstraße 1", City: "Berlin", PostalCode: "10117", Country: "DE"}}}
}

// statementFigures are what both renderings of sampleStatement show.
var statementFigures = []string{
	"Statement", "Jan 1, 2026", "Mar 31, 2026", "Europe/Berlin", "Example Invoicing GmbH", "Beispiel AG",
	"Account in EUR", "Opening balance", "€1,190.00", "Invoice DEMO-000002", "Credit note CN-000001 for DEMO-000002",
	"Payment for DEMO-000001", "Credit of €50.00 applied to DEMO-000003", "Refund of credit",
	"Closing balance", "€16.00", "€57.00", "Unapplied credit", "€41.00",
}

func TestTheStatementsHTMLShowsItsRowsBalancesAndAging(t *testing.T) {
	page, err := StatementHTML(sampleStatement(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range statementFigures {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the HTML does not contain %q", want)
		}
	}
	if dir := os.Getenv("DOCUMENT_OUT"); dir != "" {
		writeOut(t, dir, "statement.html", page)
	}
}

func TestTheStatementsHTMLPrintsTheCustomersNameAsText(t *testing.T) {
	s := sampleStatement(t, 0)
	s.Customer.Spec.Name = "<script>alert(1)</script>"
	page, err := StatementHTML(s)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(page, []byte("<script>")) || !bytes.Contains(page, []byte("&lt;script&gt;")) {
		t.Error("the customer's name is not escaped")
	}
}

func TestTheStatementsPDFTextCanBeExtracted(t *testing.T) {
	doc, err := StatementPDF(sampleStatement(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, doc)
	for _, want := range statementFigures {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text does not contain %q; it is:\n%s", want, text)
		}
	}
	if dir := os.Getenv("DOCUMENT_OUT"); dir != "" {
		writeOut(t, dir, "statement.pdf", doc)
	}
}

func TestALongStatementRunsOverSeveralPagesWithItsHeadingsOnEach(t *testing.T) {
	doc, err := StatementPDF(sampleStatement(t, 120))
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, doc)
	if pages := strings.Count(text, "· page "); pages < 3 {
		t.Errorf("%d pages, want 3 or more", pages)
	}
	if heads := strings.Count(text, "BALANCE"); heads < 3 {
		t.Errorf("the table's headings are on %d pages, want every page", heads)
	}
	if !strings.Contains(text, "Closing balance") || !strings.Contains(text, "DEMO-100119") {
		t.Error("the last rows are missing")
	}
}

func TestAStatementWithoutRecordsSaysSo(t *testing.T) {
	s := sampleStatement(t, 0)
	s.Statement = &billing.Statement{Customer: "beispiel", From: s.Statement.From, To: s.Statement.To}
	doc, err := StatementPDF(s)
	if err != nil {
		t.Fatal(err)
	}
	if text := pdfText(t, doc); !strings.Contains(text, "Nothing was invoiced") {
		t.Errorf("the PDF's text does not say the statement is empty:\n%s", text)
	}
	if _, err := StatementPDF(&Statement{}); err == nil {
		t.Error("a document without a statement was rendered")
	}
}

func TestTheStatementsFilenameNamesTheCustomerAndThePeriod(t *testing.T) {
	s := sampleStatement(t, 0)
	if got := StatementFilename(s.Statement, s.Location, "pdf"); got != "statement-beispiel-2026-01-01-2026-03-31.pdf" {
		t.Errorf("StatementFilename = %q", got)
	}
}
