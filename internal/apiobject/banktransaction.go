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

package apiobject

import (
	"strings"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// BankTransaction is the /v1 representation of a BankTransaction: the
// bank's line and what it was matched to.
type BankTransaction struct {
	ID        string `json:"id"`
	Object    string `json:"object"`
	Workspace string `json:"workspace"`
	// Account is the statement's IBAN.
	Account     string  `json:"account"`
	BookingDate string  `json:"booking_date"`
	ValueDate   *string `json:"value_date"`
	Amount      int64   `json:"amount"`
	Currency    string  `json:"currency"`
	// CreditDebit is "credit" (received) or "debit" (paid out).
	CreditDebit          string   `json:"credit_debit"`
	Reversal             bool     `json:"reversal"`
	BankReference        *string  `json:"bank_reference"`
	EntryReference       *string  `json:"entry_reference"`
	EndToEndID           *string  `json:"end_to_end_id"`
	StructuredReferences []string `json:"structured_references"`
	RemittanceText       *string  `json:"remittance_text"`
	DebtorName           *string  `json:"debtor_name"`
	DebtorAccount        *string  `json:"debtor_account"`
	StatementSHA256      string   `json:"statement_sha256"`
	// Status is "pending" until the controller has looked at it, then
	// "matched", "unmatched" or "ignored".
	Status string `json:"status"`
	// StatusReason says why it is unmatched or ignored (no_match,
	// period_closed, currency_mismatch, ambiguous_reference, debit,
	// reversal); null otherwise.
	StatusReason *string `json:"status_reason"`
	// MatchedBy is reference, number_and_amount or manual once matched.
	MatchedBy *string `json:"matched_by"`
	InvoiceID *string `json:"invoice_id"`
	PaymentID *string `json:"payment_id"`
	CreatedAt string  `json:"created_at"`
}

// BankTransactionOf is the /v1 representation of t.
func BankTransactionOf(t *billingv1.BankTransaction) BankTransaction {
	e := &t.Spec.Entry
	out := BankTransaction{ID: t.Name, Object: "bank_transaction", Workspace: t.Namespace, Account: e.Account,
		BookingDate: e.BookingDate, ValueDate: optional(e.ValueDate), Amount: e.Amount, Currency: e.Currency,
		CreditDebit: strings.ToLower(string(e.CreditDebit)), Reversal: e.Reversal,
		BankReference: optional(e.BankReference), EntryReference: optional(e.EntryReference),
		EndToEndID: optional(e.EndToEndID), StructuredReferences: e.StructuredReferences,
		RemittanceText: optional(e.RemittanceText), DebtorName: optional(e.DebtorName),
		DebtorAccount: optional(e.DebtorAccount), StatementSHA256: e.StatementSHA256,
		Status: t.Status.Phase.Status(), StatusReason: optional(string(t.Status.Reason)), MatchedBy: optional(string(t.Status.MatchedBy)),
		InvoiceID: optional(t.Status.Invoice), PaymentID: optional(t.Status.Payment),
		CreatedAt: timestamp(t.CreationTimestamp.Time)}
	if out.StructuredReferences == nil {
		out.StructuredReferences = []string{}
	}
	return out
}

// BankStatement is the answer to an imported statement: how many
// transactions it holds, how many of them are new, and what has become of
// them by the time of the answer (Pending: not looked at yet).
type BankStatement struct {
	Object       string `json:"object"`
	Account      string `json:"account"`
	SHA256       string `json:"sha256"`
	Transactions int    `json:"transactions"`
	New          int    `json:"new"`
	Matched      int    `json:"matched"`
	Unmatched    int    `json:"unmatched"`
	Ignored      int    `json:"ignored"`
	Pending      int    `json:"pending"`
}
