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

package store

import (
	toolscache "k8s.io/client-go/tools/cache"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// sequenceIndex keeps, per workspace, the name of the issued invoice that
// carries each sequence, as the informer delivers them, and the highest
// sequence it has seen. Sequences are gapless per workspace
// (internal/numbering), so the feed of issued invoices is a walk from a
// sequence upwards that stops at the first one this replica has not seen.
type sequenceIndex struct {
	bySequence[string]
}

func newSequenceIndex() *sequenceIndex {
	return &sequenceIndex{newBySequence[string]()}
}

// sequenceOf returns the invoice's sequence, 0 when it carries none.
func sequenceOf(obj any) (*billingv1.Invoice, int64) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	inv, ok := obj.(*billingv1.Invoice)
	if !ok || inv.Status.Sequence == nil || inv.Status.Phase != billingv1.InvoiceIssued {
		return inv, 0
	}
	return inv, *inv.Status.Sequence
}

func (x *sequenceIndex) put(ns, name string, sequence int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if ws := x.workspace(ns); ws.set(sequence, name) {
		ws.added()
	}
}

// drop forgets an invoice that was deleted (only with its workspace: issued
// invoices are retained). The highest sequence stays: it was issued.
func (x *sequenceIndex) drop(ns, name string, sequence int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if ws, ok := x.workspaces[ns]; ok && ws.values[sequence] == name {
		delete(ws.values, sequence)
	}
}

// handler keeps the index in step with the Invoice informer.
func (x *sequenceIndex) handler() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if inv, s := sequenceOf(obj); s > 0 {
				x.put(inv.Namespace, inv.Name, s)
			}
		},
		UpdateFunc: func(_, newObj any) {
			// A sequence never changes once written (the API server
			// refuses it), so an update only ever adds one.
			if inv, s := sequenceOf(newObj); s > 0 {
				x.put(inv.Namespace, inv.Name, s)
			}
		},
		DeleteFunc: func(obj any) {
			// An original deleted once it was moved into a seal keeps its
			// sequence: the seal serves it (sealed.go).
			if inv, s := sequenceOf(obj); s > 0 && sealedIn(inv) == "" {
				x.drop(inv.Namespace, inv.Name, s)
			}
		},
	}
}
