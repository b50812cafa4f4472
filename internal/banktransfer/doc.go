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

// Package banktransfer holds what a SEPA credit transfer quotes to pay an
// invoice: the ISO 11649 structured creditor reference derived from its
// number (made, checked and found in a remittance text) and the payload of
// the EPC QR code (EPC069-12) a banking app scans. It is pure and shared:
// the manager gives an invoice its reference at issue and matches bank
// statements by it, the documents print both.
package banktransfer
