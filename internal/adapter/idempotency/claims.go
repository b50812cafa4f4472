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

// Package idempotency is the Idempotency-Key protocol of creates: a request
// that carries a key first claims it by creating an IdempotencyKey object
// named after it. The API server's AlreadyExists makes the claim atomic, so
// requests racing with one key create one object between them, and a retry
// of a request answers with the object the first one created.
package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// The errors of the protocol. Any other error Create returns is one of the
// Kubernetes API's.
var (
	// ErrInUse: another request with the key is still in flight (or keeps
	// releasing it); retry later.
	ErrInUse = errors.New("a request with this idempotency key is still in progress")
	// ErrReused: the key was claimed by a request with another hash or for
	// another resource.
	ErrReused = errors.New("the idempotency key was used with another request")
	// ErrUnknownOutcome wraps the error of a create that may have happened
	// (a timeout, a lost connection, a 5xx): the claim is kept, so that a
	// retry with the key finds the object, or the claim goes stale.
	ErrUnknownOutcome = errors.New("the create may or may not have happened")
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

// Claims creates objects at most once per Idempotency-Key.
type Claims struct {
	// kube reads and writes the API server directly (not a cache: a claim
	// must be seen the moment it exists). It is unexported so that no
	// handler reads around the store through it.
	kube client.Client
	// InFlightWait bounds how long a retry waits for the request that first
	// used its key to create the object.
	InFlightWait time.Duration
	// StaleAfter is the age after which a claim whose object does not exist
	// is taken to belong to a request that died, and is claimed anew. It
	// must exceed the longest a create can take.
	StaleAfter time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Request is one create.
type Request struct {
	Namespace string
	// Key is the Idempotency-Key; "" creates without a claim.
	Key string
	// Resource ("customers", "invoices") and Hash (the request's fingerprint)
	// say what the key was used for: a retry must match both.
	Resource string
	Hash     string
	// Prefix starts the ids of new objects (recordkind.Customer.IDPrefix, ...).
	Prefix string
	// Build returns the object to create, named id.
	Build func(id string) client.Object
	// Empty returns an empty object of the type, to read one into.
	Empty func() client.Object
}

// NewClaims returns claims made through c, which must read and write the
// API server directly, not through a cache.
func NewClaims(c client.Client, inFlightWait, staleAfter time.Duration) *Claims {
	return &Claims{kube: c, InFlightWait: inFlightWait, StaleAfter: staleAfter}
}

// ClaimName is the name of the IdempotencyKey object of key: a hash, so
// that any key makes a valid name and keys of any length fit.
func ClaimName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return claimPrefix + hex.EncodeToString(sum[:])
}

func (c *Claims) now() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

// Create creates the object of r in r.Namespace, once per key. It returns
// the object (as the API server answered it) and whether it was made by an
// earlier request with the key. Its errors are ErrInUse, ErrReused,
// ErrUnknownOutcome (wrapping the API's error) or the API's errors.
func (c *Claims) Create(ctx context.Context, r Request) (client.Object, bool, error) {
	if r.Key == "" {
		obj := r.Build(billing.NewID(r.Prefix))
		if err := c.kube.Create(ctx, obj); err != nil {
			return nil, false, fmt.Errorf("creating the object: %w", err)
		}
		return obj, false, nil
	}
	ctx = logf.IntoContext(ctx, logf.FromContext(ctx).WithValues("idempotencyKey", ClaimName(r.Key)))
	for range maxClaimAttempts {
		id := billing.NewID(r.Prefix)
		claim := &billingv1.IdempotencyKey{
			ObjectMeta: metav1.ObjectMeta{Name: ClaimName(r.Key), Namespace: r.Namespace},
			Spec: billingv1.IdempotencyKeySpec{
				RequestHash: r.Hash,
				Resource:    r.Resource,
				ObjectName:  id,
				ExpiresAt:   metav1.NewTime(c.now().Add(billingv1.IdempotencyKeyRetention)),
			},
		}
		err := c.kube.Create(ctx, claim)
		if err == nil {
			obj := r.Build(id)
			if err := c.kube.Create(ctx, obj); err != nil {
				if !definiteFailure(err) {
					return nil, false, fmt.Errorf("%w: creating the object: %w", ErrUnknownOutcome, err)
				}
				// Nothing was created: let a retry with the key proceed.
				c.release(ctx, claim)
				return nil, false, fmt.Errorf("creating the object: %w", err)
			}
			return obj, false, nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return nil, false, fmt.Errorf("claiming the idempotency key: %w", err)
		}
		obj, again, err := c.replay(ctx, r)
		if err != nil {
			return nil, false, err
		}
		if !again {
			return obj, true, nil
		}
	}
	return nil, false, ErrInUse
}

// replay answers a request whose key is already claimed: with the object
// the claim names when the request is the same, after waiting (boundedly)
// for the claiming request to create it. again says the claim is gone
// (released, expired or stale) and the key should be claimed anew.
func (c *Claims) replay(ctx context.Context, r Request) (obj client.Object, again bool, err error) {
	deadline := c.now().Add(c.InFlightWait)
	for {
		claim := &billingv1.IdempotencyKey{}
		err := c.kube.Get(ctx, types.NamespacedName{Namespace: r.Namespace, Name: ClaimName(r.Key)}, claim)
		if apierrors.IsNotFound(err) {
			return nil, true, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("reading the idempotency key: %w", err)
		}
		if !claim.Spec.ExpiresAt.After(c.now()) {
			c.release(ctx, claim)
			return nil, true, nil
		}
		if claim.Spec.RequestHash != r.Hash || claim.Spec.Resource != r.Resource {
			return nil, false, ErrReused
		}
		obj = r.Empty()
		err = c.kube.Get(ctx, types.NamespacedName{Namespace: r.Namespace, Name: claim.Spec.ObjectName}, obj)
		if err == nil {
			return obj, false, nil
		}
		if !apierrors.IsNotFound(err) {
			return nil, false, fmt.Errorf("reading the object of the idempotency key: %w", err)
		}
		// The object does not exist: its request is still in flight, or
		// died after claiming the key.
		if c.now().Sub(claim.CreationTimestamp.Time) > c.StaleAfter {
			logf.FromContext(ctx).Info("Releasing a stale idempotency key whose object was never created")
			c.release(ctx, claim)
			return nil, true, nil
		}
		if c.now().After(deadline) {
			return nil, false, ErrInUse
		}
		select {
		case <-ctx.Done():
			return nil, false, fmt.Errorf("waiting for the object of the idempotency key: %w", ctx.Err())
		case <-time.After(replayPollPeriod):
		}
	}
}

// Find returns the object that an earlier request with r's key created,
// when that request was r (the same resource and hash), its claim has not
// expired and the object exists; found is false otherwise. It neither
// claims nor waits: a retry that its own first attempt made fail the
// checks of its kind (a write-off leaves nothing to write off) still
// answers with the first attempt's object.
func (c *Claims) Find(ctx context.Context, r Request) (obj client.Object, found bool, err error) {
	if r.Key == "" {
		return nil, false, nil
	}
	claim := &billingv1.IdempotencyKey{}
	err = c.kube.Get(ctx, types.NamespacedName{Namespace: r.Namespace, Name: ClaimName(r.Key)}, claim)
	if apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading the idempotency key: %w", err)
	}
	if !claim.Spec.ExpiresAt.After(c.now()) || claim.Spec.RequestHash != r.Hash || claim.Spec.Resource != r.Resource {
		return nil, false, nil
	}
	obj = r.Empty()
	err = c.kube.Get(ctx, types.NamespacedName{Namespace: r.Namespace, Name: claim.Spec.ObjectName}, obj)
	if apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading the object of the idempotency key: %w", err)
	}
	return obj, true, nil
}

// release deletes a claim, only that very one (precondition on its UID),
// even when the request's own context has ended.
func (c *Claims) release(ctx context.Context, claim *billingv1.IdempotencyKey) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	uid := claim.UID
	err := c.kube.Delete(ctx, claim, client.Preconditions{UID: &uid})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		logf.FromContext(ctx).Error(err, "Unable to release an idempotency key")
	}
}

// definiteFailure reports whether err is an answer of the API server that
// says the create did not happen: an error status other than a timeout or
// a 5xx (a 429 refuses the request before it is served). A timeout, a lost
// connection or a 5xx may hide a create that did.
func definiteFailure(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	code := status.Status().Code
	if code == 429 {
		return true
	}
	return code != 0 && code < 500 && !apierrors.IsTimeout(err) && !apierrors.IsServerTimeout(err)
}

// Patch writes patch to obj through the API server, and obj takes its
// answer. It claims no key: the handlers' patches set a field to a value,
// which a retry sets again to the same.
func (c *Claims) Patch(ctx context.Context, obj client.Object, patch client.Patch) error {
	return c.kube.Patch(ctx, obj, patch)
}

// CreateNamed creates obj under the name it has, with no claim: the name
// itself makes the create happen once. An object of that name that exists
// is created false, not an error.
func (c *Claims) CreateNamed(ctx context.Context, obj client.Object) (bool, error) {
	err := c.kube.Create(ctx, obj)
	if apierrors.IsAlreadyExists(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("creating %s: %w", obj.GetName(), err)
	}
	return true, nil
}
