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

// Package schedules holds the InvoiceScheduleReconciler: it creates one
// Invoice per period of an InvoiceSchedule when the period comes due
// (internal/schedule's calendar), named after the period so that no period
// is ever issued twice, and writes the schedule's status
// (schedule_status.go, a pure function).
package schedules
