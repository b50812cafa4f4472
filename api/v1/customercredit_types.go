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

// A customer's credit, kept in its status: the money on account that its
// invoices' overpaid amounts gave it, less what credit applications applied
// to other invoices and refunds paid back. Each source and each use is
// entered by name and uid with an optimistic lock on the customer, so that
// two uses handled at the same moment never spend the same credit, and the
// credit survives the sealing of the invoices it came from
// (docs/ledger.md#money-on-account). Once a seal holds the record behind a
// source or a use, the customer reconciler folds the entry into carried,
// so the ledger holds only the entries of live records
// (docs/ledger.md#the-credit-ledger-across-seals).

// MaxCreditEntries is how many sources, and how many uses, one customer's
// credit ledger holds at most. It stays as a guard: since entries whose
// records are sealed are folded into carried, a customer reaches it only
// with a thousand uses (or overpaid invoices) live at once.
const MaxCreditEntries = 1000

// CreditUseKind is the kind of record that uses a customer's credit.
// +kubebuilder:validation:Enum=CreditApplication;Refund
type CreditUseKind string

const (
	// CreditUseApplication is a CreditApplication: credit applied to an
	// invoice.
	CreditUseApplication CreditUseKind = "CreditApplication" //nolint:gosec // a kind's name, not a credential
	// CreditUseRefund is a Refund: credit paid back.
	CreditUseRefund CreditUseKind = "Refund"
)

// CurrencyAmount is an amount in one currency.
type CurrencyAmount struct {
	// currency is an ISO 4217 code.
	// +required
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency"` //nolint:kubeapilinter // the pattern bounds the length

	// amount is in minor units of currency.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`
}

// CreditSource is an invoice whose overpaid amount is the customer's
// credit.
type CreditSource struct {
	// invoice is the metadata.name of the Invoice.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Invoice string `json:"invoice"`

	// uid is the invoice's metadata.uid.
	// +required
	// +kubebuilder:validation:MaxLength=128
	UID string `json:"uid"`

	// currency is the invoice's currency.
	// +required
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency"` //nolint:kubeapilinter // the pattern bounds the length

	// amount is the invoice's amountOverpaid when it was last entered; it
	// only grows.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`

	// eventSequence is the highest event sequence of the records that made
	// the invoice overpaid: the events of the uses that draw on it come
	// after it in the workspace's feed.
	// +optional
	// +kubebuilder:validation:Minimum=0
	EventSequence int64 `json:"eventSequence,omitempty"`
}

// CreditUse is a credit application or a refund that spends the
// customer's credit.
type CreditUse struct {
	// kind is CreditApplication or Refund.
	// +required
	Kind CreditUseKind `json:"kind"`

	// name is the record's metadata.name.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// uid is the record's metadata.uid.
	// +required
	// +kubebuilder:validation:MaxLength=128
	UID string `json:"uid"`

	// currency is the credit's currency.
	// +required
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency"` //nolint:kubeapilinter // the pattern bounds the length

	// amount is what it spends, in minor units.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`
}

// CarriedCredit is what the entries folded out of a customer's credit
// ledger left in one currency: the sources whose invoices are sealed less
// the uses whose records are sealed.
type CarriedCredit struct {
	// currency is an ISO 4217 code.
	// +required
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency"` //nolint:kubeapilinter // the pattern bounds the length

	// amount is, in minor units of currency, what the folded sources left
	// once the folded uses were taken from them; 0 when the uses took it
	// all. It counts in the balance like a source.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	Amount int64 `json:"amount"`

	// eventSequence is the highest event sequence of the folded sources in
	// currency: the events of later uses come after it, as after a
	// source's.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	EventSequence int64 `json:"eventSequence,omitempty"`
}

// CustomerCredit is a customer's credit ledger and the balance derived
// from it.
type CustomerCredit struct {
	// sources are the customer's overpaid invoices, in the order they were
	// entered. A source moves into carried once a seal holds its invoice
	// and the invoice has left the live set: the list holds the overpaid
	// invoices not sealed yet.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	Sources []CreditSource `json:"sources,omitempty"`

	// uses are the credit applications and refunds that spent the credit,
	// in the order they were entered. A use moves into carried once a seal
	// holds its record and the record has left the live set, or is
	// labelled to: the list holds the uses not sealed yet, and a new use
	// is refused (CreditLedgerFull) only when 1,000 of them are.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	Uses []CreditUse `json:"uses,omitempty"`

	// carried is, per currency, what the sources and uses folded out of
	// the ledger left: entries whose records a seal holds, which no one
	// looks up by name again. The balance counts it like a source.
	// +optional
	// +listType=map
	// +listMapKey=currency
	// +kubebuilder:validation:MaxItems=200
	Carried []CarriedCredit `json:"carried,omitempty"`

	// foldedThrough is the sequence of the last LedgerSeal whose entries
	// were folded into carried; 0 when none were. Entries of a seal up to
	// it may still be listed: those whose records were still live, and a
	// use whose sources are not folded yet.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=9007199254740991
	FoldedThrough int64 `json:"foldedThrough,omitempty"`

	// balance is, per currency with credit, carried and the sources less
	// the uses.
	// +optional
	// +listType=map
	// +listMapKey=currency
	// +kubebuilder:validation:MaxItems=200
	Balance []CurrencyAmount `json:"balance,omitempty"`

	// summary is the balance for people, "EUR 15.00, USD 2.50", as kubectl
	// shows it.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Summary string `json:"summary,omitempty"`
}
