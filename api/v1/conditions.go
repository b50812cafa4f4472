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

// Conditions. Every condition type and reason of every kind is here, so
// that the vocabulary the controller writes, and Flux, Argo CD and people
// read, is in one place. Types and reasons are CamelCase, as
// metav1.Condition requires.

// Condition types. They follow the kstatus conventions
// (sigs.k8s.io/cli-utils/pkg/kstatus), so Flux, Argo CD and
// `kubectl wait --for=condition=Ready` read them without custom health checks.
const (
	// ConditionReady is set on every kind the controller reconciles. It is
	// True when the object is in its desired state: an invoice is issued, a
	// customer can be billed, a billing profile applies, a webhook endpoint
	// has delivered every issued invoice.
	ConditionReady = "Ready"

	// ConditionReconciling is set on invoices. It is True while the object
	// is expected to change by itself, for example an invoice waiting for
	// its customer to be created. kstatus reports such an object as
	// InProgress.
	ConditionReconciling = "Reconciling"

	// ConditionStalled is set on invoices, billing profiles and webhook
	// endpoints. It is True when the object cannot reach its desired state
	// without a change from a person, for example an invoice whose total is
	// too large. kstatus reports such an object as Failed.
	ConditionStalled = "Stalled"
)

// Reasons of an Invoice's conditions.
const (
	// ReasonIssued is Ready's reason (True) once the invoice is issued.
	ReasonIssued = "Issued"

	// ReasonCustomerNotFound is the reason of Ready (False) and Reconciling
	// (True) while spec.customerRef names no Customer in the invoice's
	// namespace. The invoice is issued as soon as that customer is created.
	ReasonCustomerNotFound = "CustomerNotFound"

	// ReasonTotalTooLarge is the reason of Ready (False) and Stalled (True)
	// when the invoice's total is above 2^53-1 minor units. The spec is
	// immutable, so the invoice stays Invalid; create a smaller one.
	ReasonTotalTooLarge = "TotalTooLarge"

	// ReasonTaxIDRequired is the reason of Ready (False) and Reconciling
	// (True) while a line of category AE (reverse charge) or K
	// (intra-community supply) needs tax ids that are missing: the
	// BillingProfile's spec.issuer.taxId or the customer's spec.taxId. The
	// invoice is issued as soon as both exist.
	ReasonTaxIDRequired = "TaxIDRequired"

	// ReasonInvalidTax is the reason of Ready (False) when the items' taxes
	// break a rule that spans lines: a line of category O beside lines of
	// another category, or one category and rate with two exemption
	// reasons. Stalled (True) when the items' own taxes break it (the spec
	// is immutable: create a new invoice); Reconciling (True) when the
	// BillingProfile's defaultTax does, so that changing it issues the
	// invoice.
	ReasonInvalidTax = "InvalidTax"

	// ReasonAllowanceExceedsBase is the reason of Ready (False) and
	// Stalled (True) when a line's discount exceeds the line's gross, or a
	// document allowance takes its tax group's base below 0: the spec is
	// immutable, create a new invoice.
	ReasonAllowanceExceedsBase = "AllowanceExceedsBase"
)

// Reasons of a Customer's conditions.
const (
	// ReasonActive is Ready's reason (True) while the customer can be
	// billed.
	ReasonActive = "Active"

	// ReasonDeletionBlocked is Ready's reason (False) when the customer's
	// deletion was requested but invoices still reference it; it is deleted
	// once they are gone.
	ReasonDeletionBlocked = "DeletionBlocked"
)

// Reasons of a BillingProfile's conditions.
const (
	// ReasonDefault is Ready's reason (True) when the profile is named
	// "default", so it applies to the invoices its workspace issues from now
	// on.
	ReasonDefault = "Default"

	// ReasonNotDefault is the reason of Ready (False) and Stalled (True)
	// when the profile is not named "default", so it applies to no invoice.
	// Rename it (create it as "default") to use it.
	ReasonNotDefault = "NotDefault"
)

// Reasons of a WebhookEndpoint's conditions. A reason of a failure is also
// Stalled's (True): at once for SecretNotFound and URLNotAllowed, which only
// a person can fix, and after WebhookStalledAfterFailures failures in a row
// for DeliveryFailing.
const (
	// ReasonDelivered is Ready's reason (True) when every issued invoice of
	// the workspace up to status.deliveredSequence was accepted, and the
	// last attempt succeeded.
	ReasonDelivered = "Delivered"

	// ReasonPaused is Ready's reason (False) while spec.paused is true;
	// nothing is sent until it is false, and delivery then resumes after
	// status.deliveredSequence.
	ReasonPaused = "Paused"

	// ReasonDeliveryFailing is Ready's reason (False) when the last attempt
	// failed (an error, a timeout or a status other than 2xx); it is retried
	// with exponential backoff.
	ReasonDeliveryFailing = "DeliveryFailing"

	// ReasonSecretNotFound is Ready's reason (False) when spec.secretRef
	// names no Secret, or no key in it, in the endpoint's namespace.
	// Delivery starts once it exists.
	ReasonSecretNotFound = "SecretNotFound"

	// ReasonURLNotAllowed is Ready's reason (False) when spec.url is not an
	// https URL (and the manager does not allow plain http to loopback), or
	// it resolved to an address in a refused range: link-local and cloud
	// metadata, and loopback unless the manager allows it.
	ReasonURLNotAllowed = "URLNotAllowed"
)

// Reasons of the conditions of a CreditNote and of a Payment. An issued
// credit note is Ready with ReasonIssued, a recorded payment with
// ReasonRecorded. Both wait
// with Reconciling (True) while their invoice is missing or not issued.
const (
	// ReasonInvoiceNotFound is the reason of Ready (False) and Reconciling
	// (True) while spec.invoiceRef names no Invoice in the object's
	// namespace. The credit note or payment is entered as soon as that
	// invoice exists and is issued.
	ReasonInvoiceNotFound = "InvoiceNotFound"

	// ReasonInvoiceNotIssued is the reason of Ready (False) and Reconciling
	// (True) while the referenced invoice is not issued yet.
	ReasonInvoiceNotIssued = "InvoiceNotIssued"

	// ReasonExceedsCreditable is the reason of Ready (False) and Stalled
	// (True) of a Rejected credit note: what it credits exceeds what is
	// left to credit of its invoice's lines (often because another credit
	// note took it first), or the invoice is fully credited. A rejected
	// credit note takes no number; create a smaller one.
	ReasonExceedsCreditable = "ExceedsCreditable"

	// ReasonInvalidLine is the reason of Ready (False) and Stalled (True)
	// of a Rejected credit note with a malformed line: an invoiceLine that
	// is not an index of the invoice's items, or neither or both of
	// quantity and amount.
	ReasonInvalidLine = "InvalidLine"

	// ReasonRecorded is Ready's reason (True) once the payment is entered in
	// its invoice's ledger.
	ReasonRecorded = "Recorded"

	// ReasonLedgerFull is the reason of Ready (False) and Stalled (True) of
	// a credit note (Rejected) or payment (Pending) whose invoice's ledger
	// already holds MaxLedgerEntries credit notes or payments.
	ReasonLedgerFull = "LedgerFull"

	// ReasonCurrencyMismatch is the reason of Ready (False) and Stalled
	// (True) of a payment whose spec.currency is not its invoice's
	// currency. It is never entered; create it in the invoice's currency.
	ReasonCurrencyMismatch = "CurrencyMismatch"
)

// Reasons of money on account (docs/ledger.md#money-on-account): the
// conditions of a CreditApplication, a Refund and a WriteOff.
const (
	// ReasonApplied is Ready's reason (True) once a credit application is
	// entered in its invoice's ledger.
	ReasonApplied = "Applied"

	// ReasonExceedsCredit is the reason of Ready (False) and Stalled (True)
	// of a CreditApplication or a Refund rejected because the customer's
	// credit in its currency is less than its amount when the controller
	// enters it; over HTTP status_reason exceeds_credit.
	ReasonExceedsCredit = "ExceedsCredit"

	// ReasonExceedsRemaining is the reason of Ready (False) and Stalled
	// (True) of a CreditApplication rejected because its invoice leaves
	// less to pay than its amount; over HTTP status_reason
	// exceeds_remaining.
	ReasonExceedsRemaining = "ExceedsRemaining"

	// ReasonNothingRemaining is the reason of Ready (False) and Stalled
	// (True) of a WriteOff rejected because nothing remained of its
	// invoice to write off.
	ReasonNothingRemaining = "NothingRemaining"

	// ReasonCreditLedgerFull is the reason of Ready (False) and Stalled
	// (True) of a CreditApplication or a Refund when its customer's credit
	// ledger holds MaxCreditEntries uses.
	ReasonCreditLedgerFull = "CreditLedgerFull"
)

// Reasons of closing the books (docs/ledger.md#closing-the-books).
const (
	// ReasonAlreadySealed is the reason of Ready (False) and Stalled (True)
	// of an Invoice, CreditNote or Payment (phase Invalid) whose name is
	// already held by a LedgerSeal: a sealed record's manifest applied
	// again, by a person or a GitOps tool re-creating what it finds
	// missing. It takes no number and enters no ledger; the message names
	// the seal. Delete it, and stop the tool from re-creating sealed
	// records (docs/gitops.md#closed-books).
	ReasonAlreadySealed = "AlreadySealed"

	// ReasonPeriodClosed is the reason of Ready (False) and Stalled (True)
	// of a Payment (phase Invalid) whose paidAt is at or before its
	// workspace's closed_through. It is never recorded; record it again
	// dated in the open period.
	ReasonPeriodClosed = "PeriodClosed"

	// ReasonInvoiceSealed is the reason of Ready (False) and Stalled (True)
	// of a CreditNote (Rejected) or Payment (Invalid) whose invoice is
	// sealed: a sealed invoice is settled in a closed period and its
	// ledger is closed. It takes no number and enters no ledger; record a
	// correction or a payment received later in the open period
	// (docs/ledger.md#closing-the-books).
	ReasonInvoiceSealed = "InvoiceSealed"

	// ReasonClosed is Ready's reason (True) of a PeriodClose that moved its
	// workspace's closed_through forward.
	ReasonClosed = "Closed"

	// ReasonPeriodNotEnded is the reason of Ready (False) and Reconciling
	// (True) of a PeriodClose whose spec.through is not past yet: it closes
	// the moment it is.
	ReasonPeriodNotEnded = "PeriodNotEnded"

	// ReasonAlreadyClosed is the reason of Ready (False) and Stalled (True)
	// of a PeriodClose (phase Superseded) whose moment the workspace was
	// already closed through, by the PeriodClose the message names. It
	// changes nothing.
	ReasonAlreadyClosed = "AlreadyClosed"

	// ReasonInvalidThrough is the reason of Ready (False) and Stalled (True)
	// of a PeriodClose whose spec.through is no month, day or instant, or
	// whose workspace's time zone is unknown.
	ReasonInvalidThrough = "InvalidThrough"
)

// ConditionDeliveryFailing is set on Emails: True after an attempt to hand
// the message to the SMTP server failed, and while it cannot be sent as
// asked; False (reason Sent) once it is sent.
const ConditionDeliveryFailing = "DeliveryFailing"

// Reasons of an Email's conditions. Ready is True with reason Sent once the
// SMTP server accepted the message. After a failed attempt DeliveryFailing
// is True with reason SMTPError and Reconciling True until the next attempt;
// when the attempts run out (EmailMaxAttempts) or the message can never be
// sent as asked, Ready is False and Stalled True with the failing reason.
const (
	// ReasonSent is the reason of Ready (True) and DeliveryFailing (False):
	// the SMTP server accepted the message.
	ReasonSent = "Sent"

	// ReasonSMTPError is the reason of DeliveryFailing (True) after a
	// failed attempt that will be retried: refused, timed out, or not
	// reached. status.lastError says what the server or network said.
	ReasonSMTPError = "SMTPError"

	// ReasonAttemptsExhausted is the reason of Ready (False), Stalled and
	// DeliveryFailing (True) when EmailMaxAttempts attempts failed.
	ReasonAttemptsExhausted = "AttemptsExhausted"

	// ReasonNotConfigured is the reason of Ready (False), Stalled and
	// DeliveryFailing (True) when the workspace's BillingProfile has no
	// spec.email, or its credentials Secret lacks username or password.
	ReasonNotConfigured = "NotConfigured"

	// ReasonNoRecipient is the reason of Ready (False), Stalled and
	// DeliveryFailing (True) when the message names no recipient and its
	// customer has no e-mail address.
	ReasonNoRecipient = "NoRecipient"

	// ReasonSubjectNotFound is the reason of Ready (False), Stalled and
	// DeliveryFailing (True) when the invoice, credit note or customer the
	// message is about does not exist, or is not issued.
	ReasonSubjectNotFound = "SubjectNotFound"

	// ReasonSettled is the reason of Ready (True) of a reminder skipped
	// because its invoice was settled before it went out: nothing is sent.
	ReasonSettled = "Settled"

	// ReasonWaitingForIssue is the reason of Reconciling (True) of a
	// message about an invoice or credit note not issued yet: it is sent
	// once the object is issued.
	ReasonWaitingForIssue = "WaitingForIssue"
)

// Reasons of an InvoiceSchedule's conditions. A schedule also uses
// ReasonCustomerNotFound (Ready False and Stalled True until its customer
// exists, when it issues what came due meanwhile) and ReasonPaused (Ready
// False alone while spec.paused holds, as a paused webhook endpoint).
const (
	// ReasonScheduled is Ready's reason (True) while the schedule issues
	// each period's invoice when it comes due.
	ReasonScheduled = "Scheduled"

	// ReasonScheduleCompleted is Ready's reason (True) once every period
	// up to spec.end is issued or skipped.
	ReasonScheduleCompleted = "Completed"

	// ReasonScheduleCancelled is Ready's reason (True) once spec.cancelled
	// is set: the schedule issues nothing more.
	ReasonScheduleCancelled = "Cancelled"

	// ReasonInvalidSchedule is the reason of Ready (False) and Stalled
	// (True) when the schedule's calendar cannot be computed: a start date,
	// end date or time zone that does not exist.
	ReasonInvalidSchedule = "InvalidSchedule"

	// ReasonInvalidTemplate is the reason of Ready (False) and Stalled
	// (True) when the template would make an invoice that cannot be issued
	// (a tax rule broken, an allowance above its base): nothing is issued
	// until the template is fixed.
	ReasonInvalidTemplate = "InvalidTemplate"

	// ReasonInvoiceNameTaken is the reason of Ready (False) and Stalled
	// (True) when an invoice the schedule did not issue holds the name of
	// one of its periods' invoices (<schedule>-<YYYYMMDD>).
	ReasonInvoiceNameTaken = "InvoiceNameTaken"
)

// The reasons of a PendingItem's conditions. A pending item has none until
// an invoice takes it, or it is found invalid: waiting for its schedule's
// next invoice is where it is meant to be, not progress towards it.
const (
	// ReasonTaken is Ready's reason (True) once an invoice took the item.
	ReasonTaken = "Taken"

	// ReasonInvalidPendingItem is the reason of Ready (False) and Stalled
	// (True) when the item cannot be invoiced with its schedule's template:
	// no invoice takes it.
	ReasonInvalidPendingItem = "InvalidPendingItem"
)

// The reasons of a BankTransaction's Ready condition.
const (
	// ReasonBankMatched is Ready's reason (True) once a Payment under the
	// transaction's name pays an invoice.
	ReasonBankMatched = "Matched"
	// ReasonBankIgnored is Ready's reason (True) for a debit or a reversal,
	// which pays no invoice.
	ReasonBankIgnored = "Ignored"
	// ReasonBankUnmatched is Ready's reason (True: the controller has
	// decided it) for a credit no rule matched: it waits for a person to
	// match it.
	ReasonBankUnmatched = "Unmatched"
)

// EmailMaxAttempts is how many times the controller hands a message to the
// SMTP server before it gives up (Stalled, AttemptsExhausted). The waits
// between attempts double from EmailFirstRetrySeconds up to an hour: the
// eighth attempt comes about two hours after the first.
const (
	EmailMaxAttempts       = 8
	EmailFirstRetrySeconds = 30
)
