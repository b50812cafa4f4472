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

package controller

// The invoice controller numbers invoices through internal/numbering, which
// keeps each workspace's numbering state in an InvoiceSequence named
// "invoices" (the credit note controller's in one named "credit-notes"): it
// creates it, reads it straight from the API server, and updates it with an
// optimistic lock. It never deletes one.
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoicesequences,verbs=get;list;create;update
// It asks the API server, not the cache, whether an invoice named in the
// journal still exists before it frees that invoice's sequence.
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices,verbs=get
// The credit note series asks the same of credit notes.
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=creditnotes,verbs=get
