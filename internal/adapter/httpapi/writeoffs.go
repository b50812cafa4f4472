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

package httpapi

import (
	"net/http"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// createWriteOff serves POST /v1/write_offs: what remains of an issued
// invoice, written off. The invoice must be issued and not sealed
// (creditableInvoice), and something must remain of it to pay
// (billing.InvoiceRemaining), else 409 invoice_not_open. The controller
// enters it with what remains then, or rejects it when nothing does.
func (a *Adapter) createWriteOff(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return createOnInvoice(a, w, r, c, writeOffKind, DecodeWriteOff,
		func(p *WriteOffParams, inv *billingv1.Invoice) (*creation[*billingv1.WriteOff], *Error) {
			remaining, e := invoiceRemaining(inv)
			if e != nil {
				return nil, e
			}
			if remaining == 0 {
				return nil, errorf(http.StatusConflict, CodeInvoiceNotOpen, "invoice_id",
					"Invoice %q leaves nothing to pay: nothing remains to write off.", inv.Name)
			}
			wo := &billingv1.WriteOff{Spec: billingv1.WriteOffSpec{
				InvoiceRef: billingv1.InvoiceReference{Name: p.InvoiceID}, Reason: p.Reason}}
			return &creation[*billingv1.WriteOff]{object: wo,
				answer: func(wo *billingv1.WriteOff, _ bool) any { return apiobject.WriteOffOf(wo, inv) }}, nil
		})
}

// writeOffOf renders the write-offs of workspace ns, each with its invoice
// when its representation needs it: until the controller has recorded its
// customer and currency (apiobject.WriteOffNeedsInvoice).
func (a *Adapter) writeOffOf(r *http.Request, ns string) func(*billingv1.WriteOff) apiobject.WriteOff {
	return func(wo *billingv1.WriteOff) apiobject.WriteOff {
		return apiobject.WriteOffOf(wo, a.neededInvoice(r, ns, wo.Spec.InvoiceRef.Name, apiobject.WriteOffNeedsInvoice(wo)))
	}
}

// getWriteOff serves GET /v1/write_offs/{write_off_id}.
func (a *Adapter) getWriteOff(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "a write-off", "write_off_id", a.writeOffOf(r, c.ns))
}

// replayWriteOff renders a write-off an earlier request with the key
// created (createKind.replay).
func replayWriteOff(a *Adapter, r *http.Request, ns string, obj client.Object) any {
	return replayAs(obj, a.writeOffOf(r, ns))
}

// listWriteOffs serves GET /v1/write_offs: a page of the workspace's
// write-offs, optionally of one invoice and one customer, ordered by id.
func (a *Adapter) listWriteOffs(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return listRecords(w, r, c, resourceWriteOffs, "write-offs", a.store, a.writeOffOf(r, c.ns))
}
