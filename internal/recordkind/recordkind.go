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

package recordkind

import (
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Kind is one row of the table: what the adapter and the manager know of
// one kind of object, beside its type's methods.
type Kind struct {
	// Name is the kind, as its TypeMeta, a seal's record and a list's kind
	// ("<Name>List") say: "WriteOff".
	Name string
	// Resource is the resource SubjectAccessReviews and IdempotencyKeys
	// name: "writeoffs".
	Resource string
	// IDPrefix starts the ids the adapter makes for the kind's objects
	// ("wo-"); "" for a kind the adapter does not create.
	IDPrefix string
	// Path is the /v1 path its objects are read at, with a trailing slash
	// ("/v1/write_offs/"); "" for a kind without one (an Email, queued
	// work).
	Path string
	// Events are the event types its objects carry in status.events
	// (docs/events.md); none for a kind that carries none.
	Events []billingv1.EventType
	// EventBlocks says that webhook delivery finds its events through the
	// cache's index of event sequence blocks; period.closed and
	// ledger.sealed are read from their objects of their own.
	EventBlocks bool
	// Sealed, when set, says that a seal holds its settled objects, as
	// records of its payload whose "kind" is Name, and points at how many
	// a seal holds in its counts.
	Sealed func(*billingv1.SealCounts) *int32
	// Cached says that the adapter's store keeps it in its informer cache
	// with a name index for pages; Overlaid that it also serves its sealed
	// or just created objects as if live.
	Cached, Overlaid bool
	// StatusOwnershipDropped says that the manager drops the field
	// ownership of its status after each status patch (internal/manager/trim).
	StatusOwnershipDropped bool
	// Ledger is the name of the manager's ledger descriptor of the kind
	// ("write-off"): a record entered in an invoice's ledger or a
	// customer's credit; "" for another kind.
	Ledger string
	// New is an empty object of the kind, NewList an empty list of them.
	New     func() client.Object
	NewList func() client.ObjectList
}

// The rows of the table, by kind.
var (
	Customer = Kind{Name: "Customer", Resource: "customers", IDPrefix: "cus-", Path: "/v1/customers/",
		Cached:  true,
		New:     func() client.Object { return &billingv1.Customer{} },
		NewList: func() client.ObjectList { return &billingv1.CustomerList{} }}
	Invoice = Kind{Name: "Invoice", Resource: "invoices", IDPrefix: "inv-", Path: "/v1/invoices/",
		Events: []billingv1.EventType{billingv1.EventTypeInvoiceIssued, billingv1.EventTypeInvoicePaid,
			billingv1.EventTypeInvoiceVoided, billingv1.EventTypeInvoiceOverdue},
		EventBlocks: true, Cached: true, Overlaid: true, StatusOwnershipDropped: true,
		Sealed:  func(c *billingv1.SealCounts) *int32 { return &c.Invoices },
		New:     func() client.Object { return &billingv1.Invoice{} },
		NewList: func() client.ObjectList { return &billingv1.InvoiceList{} }}
	CreditNote = Kind{Name: "CreditNote", Resource: "creditnotes", IDPrefix: "cn-", Path: "/v1/credit_notes/",
		Events:      []billingv1.EventType{billingv1.EventTypeCreditNoteIssued},
		EventBlocks: true, Cached: true, Overlaid: true, StatusOwnershipDropped: true,
		Sealed:  func(c *billingv1.SealCounts) *int32 { return &c.CreditNotes },
		Ledger:  "credit note",
		New:     func() client.Object { return &billingv1.CreditNote{} },
		NewList: func() client.ObjectList { return &billingv1.CreditNoteList{} }}
	Payment = Kind{Name: "Payment", Resource: "payments", IDPrefix: "pay-", Path: "/v1/payments/",
		Events:      []billingv1.EventType{billingv1.EventTypePaymentRecorded},
		EventBlocks: true, Cached: true, Overlaid: true, StatusOwnershipDropped: true,
		Sealed:  func(c *billingv1.SealCounts) *int32 { return &c.Payments },
		Ledger:  "payment",
		New:     func() client.Object { return &billingv1.Payment{} },
		NewList: func() client.ObjectList { return &billingv1.PaymentList{} }}
	// PeriodClose's ids start with pclose-, the kind's short name, as do
	// those of the kinds of money on account.
	PeriodClose = Kind{Name: "PeriodClose", Resource: "periodcloses", IDPrefix: "pclose-",
		Path:   "/v1/period_closes/",
		Events: []billingv1.EventType{billingv1.EventTypePeriodClosed}, Cached: true,
		New:     func() client.Object { return &billingv1.PeriodClose{} },
		NewList: func() client.ObjectList { return &billingv1.PeriodCloseList{} }}
	LedgerSeal = Kind{Name: "LedgerSeal", Resource: "ledgerseals", Path: "/v1/seals/",
		Events: []billingv1.EventType{billingv1.EventTypeLedgerSealed}, Cached: true,
		New:     func() client.Object { return &billingv1.LedgerSeal{} },
		NewList: func() client.ObjectList { return &billingv1.LedgerSealList{} }}
	CreditApplication = Kind{Name: "CreditApplication", Resource: "creditapplications", IDPrefix: "capp-",
		Path:   "/v1/credit_applications/",
		Events: []billingv1.EventType{billingv1.EventTypeCreditApplied}, EventBlocks: true,
		Cached: true, Overlaid: true, Ledger: "credit application",
		Sealed:  func(c *billingv1.SealCounts) *int32 { return &c.CreditApplications },
		New:     func() client.Object { return &billingv1.CreditApplication{} },
		NewList: func() client.ObjectList { return &billingv1.CreditApplicationList{} }}
	Refund = Kind{Name: "Refund", Resource: "refunds", IDPrefix: "rf-", Path: "/v1/refunds/",
		Events: []billingv1.EventType{billingv1.EventTypeRefundRecorded}, EventBlocks: true,
		Cached: true, Overlaid: true, Ledger: "refund",
		Sealed:  func(c *billingv1.SealCounts) *int32 { return &c.Refunds },
		New:     func() client.Object { return &billingv1.Refund{} },
		NewList: func() client.ObjectList { return &billingv1.RefundList{} }}
	WriteOff = Kind{Name: "WriteOff", Resource: "writeoffs", IDPrefix: "wo-", Path: "/v1/write_offs/",
		Events: []billingv1.EventType{billingv1.EventTypeInvoiceMarkedUncollectible}, EventBlocks: true,
		Cached: true, Overlaid: true, Ledger: "write-off",
		Sealed:  func(c *billingv1.SealCounts) *int32 { return &c.WriteOffs },
		New:     func() client.Object { return &billingv1.WriteOff{} },
		NewList: func() client.ObjectList { return &billingv1.WriteOffList{} }}
	// InvoiceSchedule's ids start with isch-, the kind's short name: its
	// invoices are named after it, <id>-<YYYYMMDD>.
	InvoiceSchedule = Kind{Name: "InvoiceSchedule", Resource: "invoiceschedules", IDPrefix: "isch-",
		Path: "/v1/invoice_schedules/",
		Events: []billingv1.EventType{billingv1.EventTypeInvoiceScheduleStalled,
			billingv1.EventTypeInvoiceScheduleCompleted}, EventBlocks: true, Cached: true,
		New:     func() client.Object { return &billingv1.InvoiceSchedule{} },
		NewList: func() client.ObjectList { return &billingv1.InvoiceScheduleList{} }}
	// BankTransaction's ids are btx- and the SHA-256 of the entry's
	// identity at its bank (banktransfer.TransactionName), never random:
	// a statement imported twice creates each once. The Payment that
	// matches one takes its name.
	BankTransaction = Kind{Name: "BankTransaction", Resource: "banktransactions", IDPrefix: "btx-",
		Path: "/v1/bank_transactions/",
		Events: []billingv1.EventType{billingv1.EventTypeBankTransactionUnmatched,
			billingv1.EventTypeBankTransactionMatched}, EventBlocks: true, Cached: true,
		New:     func() client.Object { return &billingv1.BankTransaction{} },
		NewList: func() client.ObjectList { return &billingv1.BankTransactionList{} }}
	// PendingItem's ids start with pitem-, the kind's short name. Its /v1
	// path is under its schedule's (/v1/invoice_schedules/{id}/pending_items).
	PendingItem = Kind{Name: "PendingItem", Resource: "pendingitems", IDPrefix: "pitem-", Cached: true,
		New:     func() client.Object { return &billingv1.PendingItem{} },
		NewList: func() client.ObjectList { return &billingv1.PendingItemList{} }}
	// Email's ids start with em-, the kind's short name. An Email is work
	// queued for the manager, not a resource of its own path; a reminder's
	// carries invoice.reminder_sent. A final one is sealed, and the adapter
	// serves a sealed reminder's event from its seal (Overlaid).
	Email = Kind{Name: "Email", Resource: "emails", IDPrefix: "em-",
		Events: []billingv1.EventType{billingv1.EventTypeInvoiceReminderSent}, EventBlocks: true,
		Cached: true, Overlaid: true,
		Sealed:  func(c *billingv1.SealCounts) *int32 { return &c.Emails },
		New:     func() client.Object { return &billingv1.Email{} },
		NewList: func() client.ObjectList { return &billingv1.EmailList{} }}
)

// All is the table, in the order the kinds are listed everywhere.
var All = []*Kind{&Customer, &Invoice, &CreditNote, &Payment, &PeriodClose, &LedgerSeal,
	&CreditApplication, &Refund, &WriteOff, &InvoiceSchedule, &PendingItem, &BankTransaction, &Email}

var (
	byType  = map[reflect.Type]*Kind{}
	byName  = map[string]*Kind{}
	byEvent = map[billingv1.EventType]*Kind{}
)

func init() {
	for _, k := range All {
		byType[reflect.TypeOf(k.New())] = k
		byName[k.Name] = k
		for _, t := range k.Events {
			byEvent[t] = k
		}
	}
}

// Of is the kind of obj (a pointer to an api/v1 type); nil for an object
// of no kind of the table.
func Of(obj any) *Kind { return byType[reflect.TypeOf(obj)] }

// Named is the kind named name ("WriteOff"); nil for none.
func Named(name string) *Kind { return byName[name] }

// OfEvent is the kind whose objects carry events of type t; nil for an
// unknown type.
func OfEvent(t billingv1.EventType) *Kind { return byEvent[t] }

// Where returns the kinds of the table for which keep is true, in order.
func Where(keep func(*Kind) bool) []*Kind {
	var out []*Kind
	for _, k := range All {
		if keep(k) {
			out = append(out, k)
		}
	}
	return out
}
