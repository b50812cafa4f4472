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

// Package mailing holds the e-mail reconcilers: EmailReconciler (sends each
// Email through internal/manager/mail, with the issued document, e-invoice
// or statement it is about attached, retries with backoff, and records the
// delivery on what it is about) and ReminderReconciler (queues the
// reminders of an overdue invoice on the days the BillingProfile names).
// email_queue.go is how other reconcilers queue an Email: the Invoice and
// CreditNote reconcilers on issue. It is named mailing so as not to clash
// with internal/manager/mail, the MIME and SMTP it uses.
package mailing
