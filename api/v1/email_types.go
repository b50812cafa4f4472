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

// SMTPTLSMode is how the manager protects its connection to the SMTP server.
// +kubebuilder:validation:Enum=starttls;implicit;none
type SMTPTLSMode string

const (
	// SMTPTLSStartTLS connects in plain text and upgrades with STARTTLS
	// before anything else is said; a server that does not offer it is an
	// error (port 587).
	SMTPTLSStartTLS SMTPTLSMode = "starttls"
	// SMTPTLSImplicit speaks TLS from the first byte (port 465).
	SMTPTLSImplicit SMTPTLSMode = "implicit"
	// SMTPTLSNone sends in plain text; allowed only to a loopback host
	// (a local mail catcher), never across a network.
	SMTPTLSNone SMTPTLSMode = "none"
)

// SecretReference names a Secret in the same namespace.
type SecretReference struct {
	// name is the metadata.name of a Secret in the same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// SMTPServer is the mail server the manager hands the workspace's messages to.
// +kubebuilder:validation:XValidation:rule="self.tls != 'none' || self.host == 'localhost' || self.host == '::1' || self.host.matches('^127[.][0-9]{1,3}[.][0-9]{1,3}[.][0-9]{1,3}$')",message="tls none is allowed for a loopback host (localhost, 127.0.0.0/8, ::1) only"
type SMTPServer struct {
	// host is the server's host name or IP address, for example
	// "smtp.example.com". 1 to 253 characters.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9.:_-]+$`
	Host string `json:"host"`

	// port is the server's TCP port, 1 to 65535: usually 587 with starttls
	// and 465 with implicit TLS.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port"`

	// tls is starttls (the default), implicit, or none (a loopback host
	// only). The server's certificate is verified against the system's
	// roots and host.
	// +optional
	// +kubebuilder:default=starttls
	TLS SMTPTLSMode `json:"tls,omitempty"`

	// credentialsSecretRef names a Secret in the workspace with the keys
	// "username" and "password", sent with AUTH PLAIN over TLS. Without it
	// the manager sends without authenticating. The credentials never
	// appear in a log, a status or an event.
	// +optional
	CredentialsSecretRef *SecretReference `json:"credentialsSecretRef,omitempty"`
}

// EInvoiceAttachment names the e-invoice attached to a sent invoice or
// credit note: a profile's UBL 2.1 XML beside the PDF, or facturx, the PDF
// itself as a Factur-X (its CII inside).
// +kubebuilder:validation:Enum=en16931;peppol;xrechnung;facturx
type EInvoiceAttachment string

// EInvoiceAttachmentFacturX sends the document as a Factur-X: one PDF/A-3b
// attachment with the EN 16931 CII e-invoice embedded.
const EInvoiceAttachmentFacturX EInvoiceAttachment = "facturx"

// EmailSettings is how a workspace sends its invoices, credit notes,
// reminders and statements by e-mail.
type EmailSettings struct {
	// from is the sender's address, for example "billing@example.com".
	// +required
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=254
	// +kubebuilder:validation:Pattern=`^[^@\s<>()\[\],;:"\\]+@[^@\s<>()\[\],;:"\\]+$`
	From string `json:"from"`

	// replyTo is where the customer's answers go, when not to from.
	// +optional
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=254
	// +kubebuilder:validation:Pattern=`^[^@\s<>()\[\],;:"\\]+@[^@\s<>()\[\],;:"\\]+$`
	ReplyTo string `json:"replyTo,omitempty"`

	// bcc receives a blind copy of every message, for example the
	// accounting system's inbox. Up to 5 addresses.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:MinLength=3
	// +kubebuilder:validation:items:MaxLength=254
	// +kubebuilder:validation:items:Pattern=`^[^@\s<>()\[\],;:"\\]+@[^@\s<>()\[\],;:"\\]+$`
	BCC []string `json:"bcc,omitempty"`

	// smtp is the mail server.
	// +required
	SMTP SMTPServer `json:"smtp"`

	// sendOnIssue sends every invoice and credit note to its customer when
	// it is issued. Default false.
	// +optional
	SendOnIssue bool `json:"sendOnIssue,omitempty"` //nolint:kubeapilinter // the contract pins a boolean: sendOnIssue: true

	// attachEInvoice attaches the e-invoice of this profile (en16931, peppol
	// or xrechnung, as UBL 2.1 XML) beside the PDF, or, with facturx, sends
	// the PDF as a Factur-X (a PDF/A-3b with the EN 16931 CII inside). An
	// invoice that lacks what the profile needs is sent with the plain PDF
	// alone, and its Email's status.note says what it lacks.
	// +optional
	AttachEInvoice EInvoiceAttachment `json:"attachEInvoice,omitempty"`
}

// Reminder is one payment reminder, sent once to every invoice still open or
// partially paid at its moment.
type Reminder struct {
	// days is when the reminder is sent, in days relative to the invoice's
	// due date: -3 is three days before it, 0 on it, 7 a week after it.
	// -30 to 365.
	// +required
	// +kubebuilder:validation:Minimum=-30
	// +kubebuilder:validation:Maximum=365
	Days int32 `json:"days"`
}

// EmailPurpose is what a message sends.
// +kubebuilder:validation:Enum=invoice;credit_note;reminder;statement
type EmailPurpose string

const (
	// EmailPurposeInvoice sends an issued invoice with its PDF.
	EmailPurposeInvoice EmailPurpose = "invoice"
	// EmailPurposeCreditNote sends an issued credit note with its PDF.
	EmailPurposeCreditNote EmailPurpose = "credit_note"
	// EmailPurposeReminder reminds the customer of what remains of an invoice.
	EmailPurposeReminder EmailPurpose = "reminder"
	// EmailPurposeStatement sends a customer's statement of account.
	EmailPurposeStatement EmailPurpose = "statement"
)

// EmailSpec is one message to send: what it is about and to whom.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable: a message once queued is sent as it was asked"
// +kubebuilder:validation:XValidation:rule="(self.purpose == 'invoice' || self.purpose == 'reminder') == has(self.invoiceRef)",message="invoiceRef is required for purpose invoice and reminder, and only for them"
// +kubebuilder:validation:XValidation:rule="(self.purpose == 'credit_note') == has(self.creditNoteRef)",message="creditNoteRef is required for purpose credit_note, and only for it"
// +kubebuilder:validation:XValidation:rule="(self.purpose == 'statement') == has(self.statement)",message="statement is required for purpose statement, and only for it"
// +kubebuilder:validation:XValidation:rule="self.purpose != 'statement' || has(self.customerRef)",message="customerRef is required for purpose statement"
// +kubebuilder:validation:XValidation:rule="(self.purpose == 'reminder') == has(self.reminderDays)",message="reminderDays is required for purpose reminder, and only for it"
type EmailSpec struct {
	// purpose is invoice, credit_note, reminder or statement.
	// +required
	Purpose EmailPurpose `json:"purpose"`

	// invoiceRef names the issued Invoice sent (purpose invoice) or
	// reminded of (purpose reminder).
	// +optional
	InvoiceRef *InvoiceReference `json:"invoiceRef,omitempty"`

	// creditNoteRef names the issued CreditNote sent.
	// +optional
	CreditNoteRef *CreditNoteReference `json:"creditNoteRef,omitempty"`

	// customerRef names the Customer the message is for: a statement
	// requires it; for the others it is informational (the controller sets
	// it on the Emails it creates) and the recipient defaults to the
	// customer of the invoice or credit note.
	// +optional
	CustomerRef *CustomerReference `json:"customerRef,omitempty"`

	// statement is the period of a statement (purpose statement).
	// +optional
	Statement *StatementPeriod `json:"statement,omitempty"`

	// reminderDays is the reminder's days relative to the due date
	// (purpose reminder).
	// +optional
	// +kubebuilder:validation:Minimum=-30
	// +kubebuilder:validation:Maximum=365
	ReminderDays *int32 `json:"reminderDays,omitempty"`

	// to are the recipients; empty sends to the customer's e-mail. Up to
	// 10 addresses.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=10
	// +kubebuilder:validation:items:MinLength=3
	// +kubebuilder:validation:items:MaxLength=254
	// +kubebuilder:validation:items:Pattern=`^[^@\s<>()\[\],;:"\\]+@[^@\s<>()\[\],;:"\\]+$`
	To []string `json:"to,omitempty"`
}

// CreditNoteReference names a CreditNote in the same namespace.
type CreditNoteReference struct {
	// name is the metadata.name of a CreditNote in the same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// StatementPeriod is the range of days a statement covers, both included.
type StatementPeriod struct {
	// from is the first day, YYYY-MM-DD in the workspace's time zone.
	// +required
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	From string `json:"from"`
	// to is the last day, YYYY-MM-DD in the workspace's time zone.
	// +required
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	To string `json:"to"`
}

// EmailPhase is where a message is in its delivery.
// +kubebuilder:validation:Enum=Pending;Sent;Failed;Skipped
type EmailPhase string

const (
	// EmailPending is a message not handed to the SMTP server yet, or
	// being retried.
	EmailPending EmailPhase = "Pending"
	// EmailSent is a message the SMTP server accepted.
	EmailSent EmailPhase = "Sent"
	// EmailFailed is a message given up on: the attempts ran out or the
	// message can never be sent as asked (no recipient, no settings).
	EmailFailed EmailPhase = "Failed"
	// EmailSkipped is a reminder not sent because its invoice was settled
	// (paid, voided, written off or credited) before it went out.
	EmailSkipped EmailPhase = "Skipped"
)

// EmailStatus is the delivery of one message, kept by the controller.
type EmailStatus struct {
	// conditions describe the delivery: "Ready" is True once the message is sent; "Reconciling"
	// while it waits for its next attempt; "DeliveryFailing" is True after
	// a failed attempt (reason SMTPError) and stays True when the attempts
	// run out (reason AttemptsExhausted), or when it cannot be sent as
	// asked (reasons NotConfigured, NoRecipient, NotIssued).
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// phase is Pending, Sent, Failed or Skipped.
	// +optional
	Phase EmailPhase `json:"phase,omitempty"`

	// messageId is the message's Message-ID header, fixed before the first
	// attempt: every copy of the message carries it, so that a copy sent
	// twice across a crash of the manager is recognisable.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	MessageID string `json:"messageId,omitempty"`

	// to are the recipients the message is sent to, fixed with messageId.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=10
	// +kubebuilder:validation:items:MaxLength=254
	To []string `json:"to,omitempty"`

	// attempts is how many times the message was handed to the SMTP
	// server, successful or not.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Attempts int32 `json:"attempts,omitempty"`

	// sentAt is when the SMTP server accepted the message.
	// +optional
	SentAt *metav1.Time `json:"sentAt,omitempty"`

	// nextAttemptAt is when the next attempt is due, after a failure.
	// +optional
	NextAttemptAt *metav1.Time `json:"nextAttemptAt,omitempty"`

	// lastError is the last attempt's error, as the SMTP server or the
	// network gave it (never a credential). At most 1024 characters.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	LastError string `json:"lastError,omitempty"`

	// note says what was left out of the message, for example an e-invoice
	// the invoice lacks data for. At most 1024 characters.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Note string `json:"note,omitempty"`

	// events holds the message's event: invoice.reminder_sent for a
	// reminder, assigned when the SMTP server accepted it.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1
	Events []RecordedEvent `json:"events,omitempty"`

	// observedGeneration is the metadata.generation this status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Email is one message the manager sends over SMTP: an invoice, a credit
// note, a payment reminder or a statement. POST /v1/invoices/{id}/send
// creates one, as does kubectl; the controller creates them for
// sendOnIssue and reminders. Delivery is at least once: a message sent
// twice across a crash carries the same Message-ID.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=em,categories=invoicing
// +kubebuilder:printcolumn:name="Purpose",type=string,JSONPath=`.spec.purpose`
// +kubebuilder:printcolumn:name="Invoice",type=string,JSONPath=`.spec.invoiceRef.name`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Attempts",type=integer,JSONPath=`.status.attempts`
// +kubebuilder:printcolumn:name="Sent",type=date,JSONPath=`.status.sentAt`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Email struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the message asked for.
	// +required
	Spec EmailSpec `json:"spec"`

	// status is its delivery, maintained by the controller.
	// +optional
	Status EmailStatus `json:"status,omitempty"`
}

// EmailList contains a list of Email.
// +kubebuilder:object:root=true
type EmailList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Email `json:"items"`
}

// Delivery is one message about the object whose status holds it, as its
// Email last reported it.
type Delivery struct {
	// email is the metadata.name of the Email.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Email string `json:"email"`
	// purpose is invoice, credit_note, reminder or statement.
	// +required
	Purpose EmailPurpose `json:"purpose"`
	// to are the recipients.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=10
	// +kubebuilder:validation:items:MaxLength=254
	To []string `json:"to,omitempty"`
	// messageId is the message's Message-ID.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	MessageID string `json:"messageId,omitempty"`
	// sentAt is when the SMTP server accepted it; unset until then.
	// +optional
	SentAt *metav1.Time `json:"sentAt,omitempty"`
	// attempts is how many times it was handed to the SMTP server.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Attempts int32 `json:"attempts,omitempty"`
	// lastError is the last failed attempt's error.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	LastError string `json:"lastError,omitempty"`
}

// MaxDeliveries is how many deliveries an object's status keeps: the
// newest, by the Email's creation.
const MaxDeliveries = 20

func init() {
	register(&Email{}, &EmailList{})
}
