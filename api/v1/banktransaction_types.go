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

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LabelBankTransaction is the label of a Payment that pays an invoice
// with a BankTransaction: the transaction's name, which is also the
// payment's. The payment is the match: it is created once, under that
// name, whether the controller matched the transaction or a person did.
const LabelBankTransaction = "billing.invoicing.dev/bank-transaction"

// AnnotationMatchedBy is the annotation of a Payment that pays an invoice
// with a BankTransaction: how the transaction was matched
// (BankMatchedBy).
const AnnotationMatchedBy = "billing.invoicing.dev/matched-by"

// CreditDebit is whether a booked entry credits or debits the account.
// +kubebuilder:validation:Enum=Credit;Debit
type CreditDebit string

// The directions of a bank entry (ISO 20022 CdtDbtInd CRDT and DBIT).
const (
	// Credit is money received on the account.
	Credit CreditDebit = "Credit"
	// Debit is money paid from the account.
	Debit CreditDebit = "Debit"
)

// BankEntry is one booked line of a bank statement (camt.053), as the
// bank wrote it: a whole entry, or one of the transactions an entry
// batches.
type BankEntry struct {
	// account is the IBAN of the statement's account.
	// +required
	// +kubebuilder:validation:MinLength=15
	// +kubebuilder:validation:MaxLength=34
	// +kubebuilder:validation:Pattern=`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`
	Account string `json:"account"`

	// statementSHA256 is the SHA-256 (hex) of the statement file the entry
	// was first imported from; the file itself is not kept.
	// +required
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{64}$`
	StatementSHA256 string `json:"statementSHA256"`

	// statementID is the statement's Stmt/Id.
	// +optional
	// +kubebuilder:validation:MaxLength=35
	StatementID string `json:"statementID,omitempty"`

	// entryReference is the entry's NtryRef.
	// +optional
	// +kubebuilder:validation:MaxLength=35
	EntryReference string `json:"entryReference,omitempty"`

	// bankReference is the bank's own reference of the transaction
	// (AcctSvcrRef), the reference its payment records.
	// +optional
	// +kubebuilder:validation:MaxLength=35
	BankReference string `json:"bankReference,omitempty"`

	// endToEndID is the payer's end-to-end id (EndToEndId).
	// +optional
	// +kubebuilder:validation:MaxLength=35
	EndToEndID string `json:"endToEndID,omitempty"`

	// bookingDate is the day the bank booked the entry, YYYY-MM-DD.
	// +required
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	BookingDate string `json:"bookingDate"`

	// valueDate is the entry's value date, YYYY-MM-DD.
	// +optional
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	ValueDate string `json:"valueDate,omitempty"`

	// amount is the transaction's amount in minor units of currency.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`

	// currency is the ISO 4217 code of the amount.
	// +required
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency"` //nolint:kubeapilinter // the pattern bounds the length

	// creditDebit is Credit (received) or Debit (paid out).
	// +required
	CreditDebit CreditDebit `json:"creditDebit"`

	// reversal is true for an entry that reverses an earlier one
	// (RvslInd).
	// +optional
	Reversal bool `json:"reversal,omitempty"` //nolint:kubeapilinter // the bank's own indicator, true or absent

	// structuredReferences are the creditor references the payer quoted
	// (RmtInf/Strd/CdtrRefInf/Ref).
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=10
	// +kubebuilder:validation:items:MaxLength=35
	StructuredReferences []string `json:"structuredReferences,omitempty"`

	// remittanceText is the unstructured remittance (RmtInf/Ustrd), its
	// lines joined by spaces.
	// +optional
	// +kubebuilder:validation:MaxLength=1400
	RemittanceText string `json:"remittanceText,omitempty"`

	// debtorName is the payer's name.
	// +optional
	// +kubebuilder:validation:MaxLength=140
	DebtorName string `json:"debtorName,omitempty"`

	// debtorAccount is the payer's IBAN.
	// +optional
	// +kubebuilder:validation:MaxLength=34
	DebtorAccount string `json:"debtorAccount,omitempty"`
}

// BankTransactionSpec is a booked bank entry. It cannot be changed.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="a bank transaction's spec is immutable"
type BankTransactionSpec struct {
	// entry is the line of the statement.
	// +required
	Entry BankEntry `json:"entry"`
}

// BankTransactionPhase is what became of a bank transaction.
// +kubebuilder:validation:Enum=Matched;Unmatched;Ignored
type BankTransactionPhase string

// The phases of a bank transaction.
const (
	// BankTransactionMatched pays an invoice: status.payment names the
	// Payment, named like the transaction.
	BankTransactionMatched BankTransactionPhase = "Matched"
	// BankTransactionUnmatched is a credit no rule matched (status.reason
	// says why); a person matches it by hand.
	BankTransactionUnmatched BankTransactionPhase = "Unmatched"
	// BankTransactionIgnored is a debit or a reversal: it pays no
	// invoice.
	BankTransactionIgnored BankTransactionPhase = "Ignored"
)

// Status is how /v1 spells a transaction of phase p: the phase in lower
// case, "pending" before the controller has looked at it.
func (p BankTransactionPhase) Status() string {
	switch p {
	case BankTransactionMatched:
		return "matched"
	case BankTransactionUnmatched:
		return "unmatched"
	case BankTransactionIgnored:
		return "ignored"
	}
	return "pending"
}

// BankMatchReason is why a transaction is unmatched or ignored.
// +kubebuilder:validation:Enum=no_match;period_closed;currency_mismatch;ambiguous_reference;debit;reversal
type BankMatchReason string

// The reasons of an unmatched or ignored transaction (status.reason, the
// API's status_reason).
const (
	// BankReasonNoMatch is a credit whose references, invoice numbers and
	// amount match no issued invoice.
	BankReasonNoMatch BankMatchReason = "no_match"
	// BankReasonPeriodClosed is a credit booked in a closed period: its
	// payment could never be entered.
	BankReasonPeriodClosed BankMatchReason = "period_closed"
	// BankReasonCurrencyMismatch is a credit whose reference names an
	// invoice in another currency.
	BankReasonCurrencyMismatch BankMatchReason = "currency_mismatch"
	// BankReasonAmbiguous is a credit that names several invoices.
	BankReasonAmbiguous BankMatchReason = "ambiguous_reference"
	// BankReasonDebit is money paid out.
	BankReasonDebit BankMatchReason = "debit"
	// BankReasonReversal reverses an earlier entry.
	BankReasonReversal BankMatchReason = "reversal"
)

// BankMatchedBy is how a transaction was matched to its invoice.
// +kubebuilder:validation:Enum=reference;number_and_amount;manual
type BankMatchedBy string

// The ways a transaction is matched.
const (
	// MatchedByReference: the payer quoted the invoice's payment
	// reference.
	MatchedByReference BankMatchedBy = "reference"
	// MatchedByNumberAndAmount: the remittance names the invoice's number
	// and the amount is what remained to pay.
	MatchedByNumberAndAmount BankMatchedBy = "number_and_amount"
	// MatchedByManual: a person matched it (POST
	// /v1/bank_transactions/{id}/match, or a Payment created under its
	// name).
	MatchedByManual BankMatchedBy = "manual"
)

// BankTransactionStatus is what the controller made of a transaction.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.events) || (has(self.events) && oldSelf.events.all(e, self.events.exists(n, n.type == e.type && n.sequence == e.sequence && n.createdAt == e.createdAt)))",message="status.events: an event once recorded never changes"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.payment) || (has(self.payment) && self.payment == oldSelf.payment)",message="status.payment cannot change once set"
type BankTransactionStatus struct {
	// conditions are Ready True once the controller has decided the
	// transaction, with reason Matched, Ignored or Unmatched (an unmatched
	// one waits for a person, not for the controller); none before.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Matched, Unmatched or Ignored; empty until the controller
	// has looked at the transaction. Matching is decided once: an
	// unmatched transaction changes only to Matched, by hand.
	// +optional
	Phase BankTransactionPhase `json:"phase,omitempty"`

	// reason says why a transaction is unmatched or ignored.
	// +optional
	Reason BankMatchReason `json:"reason,omitempty"`

	// matchedBy says how a matched transaction was matched.
	// +optional
	MatchedBy BankMatchedBy `json:"matchedBy,omitempty"`

	// invoice is the invoice a matched transaction pays.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Invoice string `json:"invoice,omitempty"`

	// payment is the Payment that records it, named like the transaction.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Payment string `json:"payment,omitempty"`

	// message says, for people, what the controller found.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Message string `json:"message,omitempty"`

	// events are the workspace's events about this transaction:
	// bank_transaction.unmatched and bank_transaction.matched, each at
	// most once. An event once recorded never changes.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=2
	Events []RecordedEvent `json:"events,omitempty"`

	// observedGeneration is the metadata.generation the status was written
	// for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// BankTransaction is one booked entry of an imported bank statement
// (camt.053), named from its identity at the bank so that importing a
// statement twice creates it once. The controller matches each credit to
// the invoice it pays by creating a Payment under the transaction's name.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=btx,categories=invoicing
// +kubebuilder:printcolumn:name="Booked",type=string,JSONPath=`.spec.entry.bookingDate`
// +kubebuilder:printcolumn:name="Amount",type=integer,JSONPath=`.spec.entry.amount`
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.entry.currency`
// +kubebuilder:printcolumn:name="Direction",type=string,JSONPath=`.spec.entry.creditDebit`,priority=1
// +kubebuilder:printcolumn:name="Status",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Invoice",type=string,JSONPath=`.status.invoice`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type BankTransaction struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata; metadata.name is the
	// transaction's id.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the bank's line.
	// +required
	Spec BankTransactionSpec `json:"spec"`

	// status is the controller's match.
	// +optional
	Status BankTransactionStatus `json:"status,omitempty"`
}

// BankTransactionList contains a list of BankTransaction.
// +kubebuilder:object:root=true
type BankTransactionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BankTransaction `json:"items"`
}

func init() {
	register(&BankTransaction{}, &BankTransactionList{})
}
