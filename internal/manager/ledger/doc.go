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

// Package ledger holds the reconcilers of an invoice and of the records
// entered in its ledger, one file a kind: InvoiceReconciler (issues it:
// amounts, gapless number, frozen parties, due date; then keeps its
// balance and gives each fact its event), CreditNoteReconciler (computes a
// credit note against its invoice, enters it and numbers it),
// PaymentReconciler, CreditApplicationReconciler, RefundReconciler and
// WriteOffReconciler. Every record kind describes itself in a ledgerKind
// and brings its own step; ledger.go is the protocol they share (live
// reads, waiting for the invoice to be issued, entering the ledger with an
// optimistic lock, retrying after a conflict; Parts are what each is
// given), recorded.go the steps every record's status takes once it is
// recorded (a payment, refund, credit application or write-off),
// display.go the money each shows to kubectl, and customer_credit.go the
// customer's credit that credit applications and refunds draw on.
package ledger
