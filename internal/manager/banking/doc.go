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

// Package banking holds the BankTransactionReconciler: each booked line
// of an imported bank statement matched once to the invoice it pays, by
// its payment reference or by an invoice number and the amount that
// remained, recorded as a Payment created under the transaction's own
// name, so that no crash or second manager records it twice
// (docs/payments.md).
package banking
