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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

const (
	// claimPrefix starts the names of IdempotencyKey objects.
	claimPrefix = "idem-"
	// maxClaimAttempts bounds how often a request tries to claim a key that
	// keeps being released or expiring under it.
	maxClaimAttempts = 5
	replayPollPeriod = 20 * time.Millisecond
	cleanupTimeout   = 5 * time.Second
)

// creation is what create needs to know about the object to create.
type creation struct {
	resource string
	prefix   string
	// hash identifies the request (see requestHash).
	hash string
	// build returns the object to create, named id.
	build func(id string) client.Object
	// empty returns an empty object of the type, to read one into.
	empty func() client.Object
	// index is the name index of the type, and sets names the sets of an
	// object in it: a created object is remembered there (read your writes).
	index *nameIndex
	sets  func(client.Object) []string
}

// claimName is the name of the IdempotencyKey object of key: a hash, so
// that any key makes a valid name and keys of any length fit.
func claimName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return claimPrefix + hex.EncodeToString(sum[:])
}

// requestHash is the hex SHA-256 of the method, the path and the validated
// parameters re-encoded as JSON: two bodies that differ only in white
// space, key order, the case of the currency or an explicit default (USD)
// are the same request.
func requestHash(method, path string, params any) string {
	body, err := json.Marshal(params)
	if err != nil {
		panic(err) // params are plain structs of strings and numbers
	}
	h := sha256.New()
	_, _ = h.Write([]byte(method + "\n" + path + "\n")) // a hash never fails to write
	_, _ = h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// create creates the object of c in ns. With an Idempotency-Key it first
// claims the key by creating an IdempotencyKey object named after it; the
// API server's AlreadyExists makes the claim atomic, so requests racing
// with one key create one object between them. It returns the object (as
// the API server answered it, see remember) and whether it was made by an
// earlier request with the key.
func (a *Adapter) create(ctx context.Context, ns, key string, c creation) (client.Object, bool, *Error) {
	if key == "" {
		obj := c.build(billing.NewID(c.prefix))
		if err := a.live.Create(ctx, obj); err != nil {
			return nil, false, a.apiError(ctx, err, "Unable to create an object")
		}
		return a.remember(c, obj), false, nil
	}
	log := logFrom(ctx).WithValues("idempotencyKey", claimName(key))
	ctx = logIntoContext(ctx, log)
	for range maxClaimAttempts {
		id := billing.NewID(c.prefix)
		claim := &billingv1.IdempotencyKey{
			ObjectMeta: metav1.ObjectMeta{Name: claimName(key), Namespace: ns},
			Spec: billingv1.IdempotencyKeySpec{
				RequestHash: c.hash,
				Resource:    c.resource,
				ObjectName:  id,
				ExpiresAt:   metav1.NewTime(a.now().Add(billingv1.IdempotencyKeyRetention)),
			},
		}
		err := a.live.Create(ctx, claim)
		if err == nil {
			obj := c.build(id)
			if err := a.live.Create(ctx, obj); err != nil {
				if definiteFailure(err) {
					// Nothing was created: let a retry with the key proceed.
					a.release(ctx, claim)
				}
				return nil, false, a.apiError(ctx, err, "Unable to create an object")
			}
			return a.remember(c, obj), false, nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return nil, false, a.apiError(ctx, err, "Unable to claim an idempotency key")
		}
		obj, again, e := a.replay(ctx, ns, claimName(key), c)
		if e != nil {
			return nil, false, e
		}
		if !again {
			return a.remember(c, obj), true, nil
		}
	}
	return nil, false, inUse()
}

// replay answers a request whose key is already claimed: with the object
// the claim names when the request is the same, after waiting (boundedly)
// for the claiming request to create it. again says the claim is gone
// (released, expired or stale) and the key should be claimed anew.
func (a *Adapter) replay(ctx context.Context, ns, name string, c creation) (obj client.Object, again bool, e *Error) {
	deadline := a.now().Add(a.opts.IdempotencyInFlightWait)
	for {
		claim := &billingv1.IdempotencyKey{}
		err := a.live.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, claim)
		if apierrors.IsNotFound(err) {
			return nil, true, nil
		}
		if err != nil {
			return nil, false, a.apiError(ctx, err, "Unable to read an idempotency key")
		}
		if !claim.Spec.ExpiresAt.After(a.now()) {
			a.release(ctx, claim)
			return nil, true, nil
		}
		if claim.Spec.RequestHash != c.hash || claim.Spec.Resource != c.resource {
			return nil, false, errorf(http.StatusConflict, CodeIdempotencyReused, IdempotencyKeyHeader,
				"This %s was used with another request; use a new key for a new request.", IdempotencyKeyHeader)
		}
		obj = c.empty()
		err = a.live.Get(ctx, types.NamespacedName{Namespace: ns, Name: claim.Spec.ObjectName}, obj)
		if err == nil {
			return obj, false, nil
		}
		if !apierrors.IsNotFound(err) {
			return nil, false, a.apiError(ctx, err, "Unable to read the object of an idempotency key")
		}
		// The object does not exist: its request is still in flight, or
		// died after claiming the key.
		if a.now().Sub(claim.CreationTimestamp.Time) > a.opts.StaleClaimAfter {
			logFrom(ctx).Info("Releasing a stale idempotency key whose object was never created")
			a.release(ctx, claim)
			return nil, true, nil
		}
		if a.now().After(deadline) {
			return nil, false, inUse()
		}
		select {
		case <-ctx.Done():
			return nil, false, unavailable()
		case <-time.After(replayPollPeriod):
		}
	}
}

func inUse() *Error {
	return errorf(http.StatusConflict, CodeIdempotencyInUse, IdempotencyKeyHeader,
		"A request with this %s is still in progress; retry later.", IdempotencyKeyHeader)
}

// release deletes a claim, only that very one (precondition on its UID),
// even when the request's own context has ended.
func (a *Adapter) release(ctx context.Context, claim *billingv1.IdempotencyKey) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	uid := claim.UID
	err := a.live.Delete(ctx, claim, client.Preconditions{UID: &uid})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		logFrom(ctx).Error(err, "Unable to release an idempotency key")
	}
}

// definiteFailure reports whether err is an answer of the API server that
// says the create did not happen. A timeout, a lost connection or a 5xx
// may hide a create that did, so the claim is kept: a retry then finds the
// object, or the claim goes stale.
func definiteFailure(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || isAPIFailure(err) {
		return apierrors.IsTooManyRequests(err)
	}
	return true
}
