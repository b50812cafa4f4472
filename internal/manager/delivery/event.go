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

package delivery

import (
	"encoding/json"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// EventBody is the body of a delivery: the workspace's event of sequence
// and type t, created at createdAt, about object (an *Invoice, *CreditNote,
// *Payment, *PeriodClose, *LedgerSeal, *CreditApplication, *Refund,
// *WriteOff or *Email of api/v1), exactly as GET /v1/events answers it
// (apiobject.EventOf, apiobject.EventDataOf). Its id,
// "evt-<workspace>-<sequence>", is the same on every attempt and for every
// endpoint, so a receiver drops a repeat by it. invoice reads the invoice
// of a record, when its representation needs it, and the invoice of a
// write-off or reminder, which is the event's object.
func EventBody(workspace string, sequence int64, t billingv1.EventType, createdAt time.Time, object any,
	invoice apiobject.InvoiceReader) ([]byte, error) {
	return json.Marshal(apiobject.EventOf(workspace, sequence, string(t), createdAt, apiobject.EventDataOf(object, invoice)))
}
