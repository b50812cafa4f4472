/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package httpapi

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apiserver/pkg/authentication/user"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// Resources, as named in SubjectAccessReviews and IdempotencyKeys.
const (
	resourceCustomers = "customers"
	resourceInvoices  = "invoices"
)

// Headers of the idempotency protocol.
const (
	IdempotencyKeyHeader     = "Idempotency-Key"
	IdempotentReplayedHeader = "Idempotent-Replayed"
	maxIdempotencyKeyLength  = 255
	listLimitDefault         = 20
	listLimitMax             = 100
	queryLimit, queryCursor  = "limit", "cursor"
	queryCustomerID          = "customer_id"
)

// routes is the one route table.
func (a *Adapter) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", a.healthz)
	mux.HandleFunc("GET /readyz", a.readyz)
	mux.HandleFunc("GET /v1/openapi.json", a.openAPI)

	mux.Handle("POST /v1/customers", a.api("create", resourceCustomers, "", nil, a.createCustomer))
	mux.Handle("GET /v1/customers", a.api("list", resourceCustomers, "",
		[]string{queryLimit, queryCursor}, a.listCustomers))
	mux.Handle("GET /v1/customers/{customer_id}", a.api("get", resourceCustomers, "customer_id", nil, a.getCustomer))

	mux.Handle("POST /v1/invoices", a.api("create", resourceInvoices, "", nil, a.createInvoice))
	mux.Handle("GET /v1/invoices", a.api("list", resourceInvoices, "",
		[]string{queryLimit, queryCursor, queryCustomerID}, a.listInvoices))
	mux.Handle("GET /v1/invoices/{invoice_id}", a.api("get", resourceInvoices, "invoice_id", nil, a.getInvoice))
	return mux
}

// call is an authenticated, authorized request.
type call struct {
	ns    string
	user  user.Info
	id    string // the path's id, for gets
	query url.Values
}

type apiHandler func(w http.ResponseWriter, r *http.Request, c *call) *Error

// api wraps an operation with what every /v1 operation does first:
// authenticate, rate-limit, find the workspace, authorize verb on resource,
// and check the query parameters. Any failure is answered by writeError.
func (a *Adapter) api(verb, resource, idParam string, queryParams []string, h apiHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e := a.serveAPI(w, r, verb, resource, idParam, queryParams, h); e != nil {
			writeError(w, r, e)
		}
	})
}

func (a *Adapter) serveAPI(w http.ResponseWriter, r *http.Request, verb, resource, idParam string,
	queryParams []string, h apiHandler) *Error {
	u, e := a.authenticate(r)
	if e != nil {
		return e
	}
	infoFrom(r.Context()).user = u.GetName()
	if e := a.rateLimit(u); e != nil {
		return e
	}
	ns, e := workspaceFor(r.Header.Values(WorkspaceHeader), u)
	if e != nil {
		return e
	}
	c := &call{ns: ns, user: u}
	if idParam != "" {
		c.id = r.PathValue(idParam)
	}
	if e := a.authorize(r.Context(), u, verb, resource, ns, c.id); e != nil {
		return e
	}
	if c.query, e = parseQuery(r.URL.RawQuery, queryParams); e != nil {
		return e
	}
	return h(w, r, c)
}

// parseQuery parses a query string that may hold each of allowed once.
func parseQuery(raw string, allowed []string) (url.Values, *Error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, "", "The query string is malformed: %v.", err)
	}
	for name, values := range q {
		known := false
		for _, a := range allowed {
			known = known || a == name
		}
		if !known {
			return nil, errorf(http.StatusBadRequest, CodeParameterUnknown, name, "Unknown query parameter %s.", name)
		}
		if len(values) > 1 {
			return nil, errorf(http.StatusBadRequest, CodeParameterInvalid, name, "Send %s once.", name)
		}
	}
	return q, nil
}

func (a *Adapter) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, http.StatusOK, map[string]string{"status": "ok"})
}

func (a *Adapter) readyz(w http.ResponseWriter, r *http.Request) {
	if err := a.ready(r.Context()); err != nil {
		logFrom(r.Context()).V(1).Info("Not ready", "reason", err.Error())
		e := unavailable()
		e.Message = "Not ready: " + err.Error()
		writeError(w, r, e)
		return
	}
	writeJSON(w, r, http.StatusOK, map[string]string{"status": "ok"})
}

func (a *Adapter) openAPI(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, http.StatusOK, openAPIDocument)
}

// readBody checks the content type and reads a JSON body of at most
// MaxBodyBytes.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *Error) {
	media, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || media != "application/json" ||
		(params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8")) {
		return nil, errorf(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "Content-Type",
			"Send the body as JSON, with Content-Type: application/json.")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errorf(http.StatusRequestEntityTooLarge, CodeBodyTooLarge, "",
				"The body exceeds %d bytes.", MaxBodyBytes)
		}
		return nil, errorf(http.StatusBadRequest, CodeBodyInvalid, "", "The body could not be read.")
	}
	return body, nil
}

// idempotencyKey returns the request's Idempotency-Key, "" when it has none.
func idempotencyKey(h http.Header) (string, *Error) {
	values := h.Values(IdempotencyKeyHeader)
	if len(values) == 0 {
		return "", nil
	}
	if len(values) > 1 || !validIdempotencyKey(values[0]) {
		return "", errorf(http.StatusBadRequest, CodeParameterInvalid, IdempotencyKeyHeader,
			"The %s header must be sent once, 1 to %d printable ASCII characters.",
			IdempotencyKeyHeader, maxIdempotencyKeyLength)
	}
	return values[0], nil
}

func validIdempotencyKey(k string) bool {
	if k == "" || len(k) > maxIdempotencyKeyLength {
		return false
	}
	for _, c := range []byte(k) {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// validName reports whether s can be the name of a Customer or Invoice.
func validName(s string) bool { return len(validation.IsDNS1123Subdomain(s)) == 0 }

func (a *Adapter) createCustomer(w http.ResponseWriter, r *http.Request, c *call) *Error {
	key, e := idempotencyKey(r.Header)
	if e != nil {
		return e
	}
	body, e := readBody(w, r)
	if e != nil {
		return e
	}
	p, e := DecodeCustomer(body)
	if e != nil {
		return e
	}
	obj, replayed, e := a.create(r.Context(), c.ns, key, creation{
		resource: resourceCustomers,
		hash:     requestHash(r.Method, r.URL.Path, p),
		empty:    func() client.Object { return &billingv1.Customer{} },
		build: func(id string) client.Object {
			return &billingv1.Customer{
				ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: c.ns},
				Spec:       billingv1.CustomerSpec{Name: p.Name, Email: p.Email},
			}
		},
		prefix: billing.CustomerIDPrefix,
		index:  a.customers,
		sets:   customerSets,
	})
	if e != nil {
		return e
	}
	created(w, r, "/v1/customers/", obj.GetName(), replayed, customerJSON(obj.(*billingv1.Customer)))
	return nil
}

func (a *Adapter) createInvoice(w http.ResponseWriter, r *http.Request, c *call) *Error {
	key, e := idempotencyKey(r.Header)
	if e != nil {
		return e
	}
	body, e := readBody(w, r)
	if e != nil {
		return e
	}
	p, e := DecodeInvoice(body)
	if e != nil {
		return e
	}
	found, e := a.get(r.Context(), c.ns, p.CustomerID, &billingv1.Customer{})
	if e != nil {
		return e
	}
	if !found {
		return errorf(http.StatusUnprocessableEntity, CodeResourceMissing, "customer_id",
			"There is no customer %q in workspace %q.", p.CustomerID, c.ns)
	}
	obj, replayed, e := a.create(r.Context(), c.ns, key, creation{
		resource: resourceInvoices,
		hash:     requestHash(r.Method, r.URL.Path, p),
		empty:    func() client.Object { return &billingv1.Invoice{} },
		build: func(id string) client.Object {
			items := make([]billingv1.LineItem, len(p.Items))
			for i, it := range p.Items {
				items[i] = billingv1.LineItem{Description: it.Description, Quantity: it.Quantity, Amount: it.Amount}
			}
			return &billingv1.Invoice{
				ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: c.ns},
				Spec: billingv1.InvoiceSpec{
					CustomerRef: billingv1.CustomerReference{Name: p.CustomerID},
					Currency:    p.Currency,
					Items:       items,
				},
			}
		},
		prefix: billing.InvoiceIDPrefix,
		index:  a.invoices,
		sets:   invoiceSets,
	})
	if e != nil {
		return e
	}
	created(w, r, "/v1/invoices/", obj.GetName(), replayed, invoiceJSON(obj.(*billingv1.Invoice)))
	return nil
}

// created answers 201 with the object and its Location.
func created(w http.ResponseWriter, r *http.Request, collection, id string, replayed bool, v any) {
	w.Header().Set("Location", collection+id)
	if replayed {
		w.Header().Set(IdempotentReplayedHeader, "true")
	}
	writeJSON(w, r, http.StatusCreated, v)
}

func (a *Adapter) getCustomer(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getOne(a, w, r, c, &billingv1.Customer{}, "customer", "customer_id", customerJSON)
}

func (a *Adapter) getInvoice(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getOne(a, w, r, c, &billingv1.Invoice{}, "invoice", "invoice_id", invoiceJSON)
}

// getOne answers the object named by the path, or 404 resource_missing.
func getOne[O client.Object, R any](a *Adapter, w http.ResponseWriter, r *http.Request, c *call, obj O,
	what, param string, render func(O) R) *Error {
	found, e := a.get(r.Context(), c.ns, c.id, obj)
	if e != nil {
		return e
	}
	if !found {
		return errorf(http.StatusNotFound, CodeResourceMissing, param, "There is no %s %q in workspace %q.", what, c.id, c.ns)
	}
	writeJSON(w, r, http.StatusOK, render(obj))
	return nil
}

// get reads ns/name into obj from the cache and, when the cache does not
// have it (an object just created by someone else, with kubectl or through
// another replica), from the API server.
func (a *Adapter) get(ctx context.Context, ns, name string, obj client.Object) (bool, *Error) {
	if !validName(name) {
		return false, nil
	}
	key := types.NamespacedName{Namespace: ns, Name: name}
	if a.synced.Load() {
		err := a.cache.Get(ctx, key, obj, client.UnsafeDisableDeepCopy)
		if err == nil {
			return true, nil
		}
		if !apierrors.IsNotFound(err) {
			return false, a.apiError(ctx, err, "Unable to read from the cache")
		}
		if a.pendingInto(ns, name, obj) {
			return true, nil
		}
	}
	err := a.live.Get(ctx, key, obj)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, a.apiError(ctx, err, "Unable to read from the API server")
	}
	return true, nil
}

func (a *Adapter) listCustomers(w http.ResponseWriter, r *http.Request, c *call) *Error {
	scope := listScope{workspace: c.ns, resource: resourceCustomers}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	page, more, e := listPage[billingv1.Customer](r.Context(), a, a.customers, workspaceSet(c.ns), c.ns, after, limit)
	if e != nil {
		return e
	}
	writePage(w, r, scope, page, more, customerJSON)
	return nil
}

func (a *Adapter) listInvoices(w http.ResponseWriter, r *http.Request, c *call) *Error {
	scope := listScope{workspace: c.ns, resource: resourceInvoices}
	limit, after, e := pageParams(c.query, scope)
	if e != nil {
		return e
	}
	set := workspaceSet(c.ns)
	if c.query.Has(queryCustomerID) {
		id := c.query.Get(queryCustomerID)
		if id == "" {
			return errorf(http.StatusBadRequest, CodeParameterInvalid, queryCustomerID, "customer_id must not be empty.")
		}
		set = customerSet(c.ns, id)
	}
	page, more, e := listPage[billingv1.Invoice](r.Context(), a, a.invoices, set, c.ns, after, limit)
	if e != nil {
		return e
	}
	writePage(w, r, scope, page, more, invoiceJSON)
	return nil
}

// listPage reads the page of set (ordered by name) after after: the names
// from the index, each object from the cache. It costs O(log n + limit),
// whatever the size of the workspace. An object deleted since the index
// listed it is skipped.
func listPage[T any, PT interface {
	*T
	client.Object
}](ctx context.Context, a *Adapter, idx *nameIndex, set, ns, after string, limit int) ([]PT, bool, *Error) {
	if e := a.awaitSync(ctx); e != nil {
		return nil, false, e
	}
	page := make([]PT, 0, limit+1)
	for len(page) <= limit {
		want := limit + 1 - len(page)
		names := idx.after(set, after, want)
		for _, name := range names {
			obj := PT(new(T))
			err := a.cache.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, obj, client.UnsafeDisableDeepCopy)
			if apierrors.IsNotFound(err) {
				// Created by this replica a moment ago, and not yet
				// delivered by the informer; else deleted since the index
				// listed it.
				if p, ok := idx.pendingObject(ns, name); ok {
					if pt, ok := p.(PT); ok {
						page = append(page, pt)
					}
				}
				continue
			}
			if err != nil {
				return nil, false, a.apiError(ctx, err, "Unable to read from the cache")
			}
			page = append(page, obj)
		}
		if len(names) < want {
			break
		}
		after = names[len(names)-1]
	}
	if len(page) > limit {
		return page[:limit], true, nil
	}
	return page, false, nil
}

// awaitSync waits until the cache and the name indexes hold every object,
// or answers 503 when the request's time runs out first.
func (a *Adapter) awaitSync(ctx context.Context) *Error {
	if a.synced.Load() {
		return nil
	}
	select {
	case <-a.syncedCh:
		return nil
	case <-ctx.Done():
		return unavailable()
	}
}

// writePage answers a page (ordered by id) of the list scope; more says
// whether others follow.
func writePage[O client.Object, R any](w http.ResponseWriter, r *http.Request, scope listScope, page []O, more bool,
	render func(O) R) {
	out := List[R]{Object: "list", Data: make([]R, len(page)), HasMore: more}
	for i, item := range page {
		out.Data[i] = render(item)
	}
	if more {
		next := encodeCursor(scope, page[len(page)-1].GetName())
		out.NextCursor = &next
	}
	writeJSON(w, r, http.StatusOK, out)
}

// remember makes obj, which this replica has just created (or found
// created by an earlier request with its Idempotency-Key), visible to this
// replica's gets and lists at once, without waiting for the informer to
// deliver it: read your writes. It returns obj.
func (a *Adapter) remember(c creation, obj client.Object) client.Object {
	c.index.remember(obj, c.sets(obj), a.now(), a.opts.ReadYourWritesTimeout)
	return obj
}

// pendingInto copies into obj the object this replica created as ns/name
// and its informer has not delivered yet, if there is one.
func (a *Adapter) pendingInto(ns, name string, obj client.Object) bool {
	switch o := obj.(type) {
	case *billingv1.Customer:
		if p, ok := a.customers.pendingObject(ns, name); ok {
			if c, ok := p.(*billingv1.Customer); ok {
				c.DeepCopyInto(o)
				return true
			}
		}
	case *billingv1.Invoice:
		if p, ok := a.invoices.pendingObject(ns, name); ok {
			if inv, ok := p.(*billingv1.Invoice); ok {
				inv.DeepCopyInto(o)
				return true
			}
		}
	}
	return false
}

// apiError turns an error of the Kubernetes API into the answer: 503 when
// the API could not be reached or answer in time, 422 when it refused the
// object as invalid, 500 otherwise. The error is logged.
func (a *Adapter) apiError(ctx context.Context, err error, msg string) *Error {
	switch {
	case isAPIFailure(err):
		logFrom(ctx).Error(err, msg)
		return unavailable()
	case apierrors.IsInvalid(err):
		logFrom(ctx).Info(msg, "error", err.Error())
		return errorf(http.StatusUnprocessableEntity, CodeParameterInvalid, "", "Kubernetes refused the object: %s",
			statusMessage(err))
	case apierrors.IsForbidden(err):
		// The caller may create here (the SubjectAccessReview said so), so
		// this is the workspace refusing the object: most often a
		// ResourceQuota that is used up. It is logged as an error because
		// it is also what a ClusterRole of the adapter's that lacks a rule
		// looks like.
		logFrom(ctx).Error(err, msg)
		return errorf(http.StatusForbidden, CodePermissionDenied, "", "Kubernetes refused the object: %s",
			statusMessage(err))
	case apierrors.IsNotFound(err):
		// Creating in a namespace that does not exist.
		logFrom(ctx).Info(msg, "error", err.Error())
		return errorf(http.StatusNotFound, CodeResourceMissing, WorkspaceHeader, "The workspace does not exist: %s",
			statusMessage(err))
	default:
		logFrom(ctx).Error(err, msg)
		return internalError()
	}
}

func statusMessage(err error) string {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return status.Status().Message
	}
	return err.Error()
}
