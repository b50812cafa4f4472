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

	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// The one create path of POST /v1/<kind>. Every kind's create takes the
// same steps: the Idempotency-Key, the body, the kind's own decoding and
// checks, the claim of the key and the create, the object remembered for
// read your writes, and 201 with its Location. A kind brings only what
// differs: how a body becomes the object to create (its creation), and
// how the created object is answered.

// createKind is what the create path knows of a kind beside its creation:
// its resource, as IdempotencyKeys record it, the prefix of its ids, and
// the path its objects are read at.
type createKind struct {
	resource, prefix, path string
	// replay, when set, renders an object of the kind that an earlier
	// request with the same Idempotency-Key created, as a get does, for a
	// retry that the kind's checks refuse because of that very object (a
	// payment leaves less to pay, a write-off nothing): the retry answers
	// with it, as the key promises. nil for a kind whose checks its
	// objects do not change (customers, invoices).
	replay func(a *Adapter, r *http.Request, ns string, obj client.Object) any
	// queued marks a kind whose object is work queued for the controller
	// (an Email to send), not a resource of its own path: its body may be
	// empty (read as {}), and the create answers 202 Accepted without a
	// Location. path is then "".
	queued bool
}

// The create path's kinds, each from its row of the table of record kinds
// (internal/recordkind): its resource, id prefix and path.
var (
	customerKind          = createKindOf(&recordkind.Customer, nil)
	invoiceKind           = createKindOf(&recordkind.Invoice, nil)
	creditNoteKind        = createKindOf(&recordkind.CreditNote, replayCreditNote)
	paymentKind           = createKindOf(&recordkind.Payment, replayPayment)
	periodCloseKind       = createKindOf(&recordkind.PeriodClose, nil)
	creditApplicationKind = createKindOf(&recordkind.CreditApplication, replayCreditApplication)
	refundKind            = createKindOf(&recordkind.Refund, replayRefund)
	writeOffKind          = createKindOf(&recordkind.WriteOff, replayWriteOff)
	invoiceScheduleKind   = createKindOf(&recordkind.InvoiceSchedule, nil)
	// What a send checks its Email does not change: a retry creates none.
	emailKind = createKindOf(&recordkind.Email, nil)
)

// createKindOf is the create path's kind of k, replayed with replay: a
// kind without a path (an Email) is queued.
func createKindOf(k *recordkind.Kind, replay func(a *Adapter, r *http.Request, ns string, obj client.Object) any) createKind {
	return createKind{resource: k.Resource, prefix: k.IDPrefix, path: k.Path, replay: replay, queued: k.Path == ""}
}

// apiObject is a pointer to an API type the create path creates.
type apiObject[T any] interface {
	*T
	client.Object
}

// creation is a create request that its kind has decoded and checked.
type creation[O client.Object] struct {
	// object is the object to create, but for its name and namespace.
	object O
	// answer renders the created object: obj made now, or by an earlier
	// request with the key when replayed (then shown as it is now). What a
	// kind computed to check the request, it answers a new object with,
	// instead of computing it again.
	answer func(obj O, replayed bool) any
}

// create serves a POST that creates an object of kind in the caller's
// workspace: decode turns the body into the kind's validated parameters
// (which an Idempotency-Key's request hash covers), check turns those into
// its creation.
func create[T any, O apiObject[T], P any](a *Adapter, w http.ResponseWriter, r *http.Request, c *call,
	kind createKind, decode func(body []byte) (P, *Error), check func(params P) (*creation[O], *Error)) *Error {
	key, e := idempotencyKey(r.Header)
	if e != nil {
		return e
	}
	read := readBody
	if kind.queued {
		read = readOptionalBody
	}
	body, e := read(w, r)
	if e != nil {
		return e
	}
	params, e := decode(body)
	if e != nil {
		return e
	}
	hash := keyHash(key, r, params)
	made, e := check(params)
	if e != nil {
		return a.refused(w, r, kind, idempotency.Request{Namespace: c.ns, Key: key, Resource: kind.resource, Hash: hash,
			Empty: func() client.Object { return O(new(T)) }}, e)
	}
	obj, replayed, err := a.claims.Create(r.Context(), idempotency.Request{
		Namespace: c.ns,
		Key:       key,
		Resource:  kind.resource,
		Hash:      hash,
		Prefix:    kind.prefix,
		Build: func(id string) client.Object {
			// A copy: the API server's answer is decoded into the object,
			// which must share nothing with the creation.
			obj := made.object.DeepCopyObject().(O)
			obj.SetName(id)
			obj.SetNamespace(c.ns)
			return obj
		},
		Empty: func() client.Object { return O(new(T)) },
	})
	if err != nil {
		return createError(r.Context(), err)
	}
	a.store.Created(obj)
	created, ok := obj.(O)
	if !ok {
		return internalError()
	}
	kind.write(w, r, obj.GetName(), replayed, made.answer(created, replayed))
	return nil
}

// write answers the object named name that a create of kind made (or an
// earlier request with its Idempotency-Key did, replayed), rendered as v:
// 201 with its Location, or 202 for a queued kind.
func (kind createKind) write(w http.ResponseWriter, r *http.Request, name string, replayed bool, v any) {
	if kind.queued {
		writeAccepted(w, r, replayed, v)
		return
	}
	writeCreated(w, r, kind.path+name, replayed, v)
}

// refused answers a create that its kind's checks refused with e, unless
// it is the retry of the request with the same Idempotency-Key that
// created an object of kind (idempotency.Claims.Find): the checks then
// fail because of that object, and the retry answers with it (201,
// replayed) as any retry with the key does.
func (a *Adapter) refused(w http.ResponseWriter, r *http.Request, kind createKind, req idempotency.Request,
	e *Error) *Error {
	if kind.replay == nil || req.Key == "" {
		return e
	}
	obj, found, err := a.claims.Find(r.Context(), req)
	if err != nil {
		// Whether the first request created the object cannot be told.
		return apiError(r.Context(), err, "Unable to read an idempotency key")
	}
	if !found {
		return e
	}
	kind.write(w, r, obj.GetName(), true, kind.replay(a, r, req.Namespace, obj))
	return nil
}
