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

// Package trim keeps the controller manager's objects small where nothing
// reads what is dropped: its cache keeps no managedFields and issued
// invoices without the fields no manager code reads (CacheOptions,
// cache_transform.go), and after each status patch of an invoice, credit
// note or payment the status's field ownership is dropped from the object
// the API server keeps (DropStatusOwnership, status_ownership.go). The
// controllers' watches pass over the writes that only drop it
// (ChangedBeyondBookkeeping).
package trim
