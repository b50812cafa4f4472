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

package idempotency

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestClaimNameIsAValidObjectName(t *testing.T) {
	for _, k := range []string{"a", strings.Repeat("~", 255), "Ünïcode is refused earlier, but still"} {
		if n := ClaimName(k); len(validation.IsDNS1123Subdomain(n)) > 0 || len(n) > 253 {
			t.Errorf("ClaimName(%q) = %q is not a valid object name", k, n)
		}
	}
	if ClaimName("a") == ClaimName("b") {
		t.Error("two keys share a claim")
	}
}

func TestDefiniteFailure(t *testing.T) {
	gr := schema.GroupResource{Group: "billing.invoicing.dev", Resource: "customers"}
	refused := &url.Error{Op: "Post", URL: "https://k8s", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}
	cases := []struct {
		name     string
		err      error
		definite bool
	}{
		{"a refused connection", refused, false},
		{"a deadline", fmt.Errorf("getting: %w", context.DeadlineExceeded), false},
		{"a 503", apierrors.NewServiceUnavailable("down"), false},
		{"a 500", apierrors.NewInternalError(errors.New("boom")), false},
		{"a 504", apierrors.NewTimeoutError("slow", 1), false},
		{"a 429", apierrors.NewTooManyRequests("busy", 1), true},
		{"a 403", apierrors.NewForbidden(gr, "x", errors.New("no")), true},
		{"a 422", apierrors.NewInvalid(schema.GroupKind{Kind: "Customer"}, "x", nil), true},
		{"a rejected token's message", errors.New("invalid bearer token"), false},
		{"an aggregate with a refused connection", utilerrors.NewAggregate([]error{errors.New("x"), refused}), false},
		{"an aggregate of messages", utilerrors.NewAggregate([]error{errors.New("x"), errors.New("y")}), false},
		{"a flattened webhook timeout", errors.New("webhook call failed: context deadline exceeded"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := definiteFailure(tc.err); got != tc.definite {
				t.Errorf("definiteFailure = %v, want %v", got, tc.definite)
			}
		})
	}
}

// The protocol, against controller-runtime's fake client.

const ns = "ws"

var epoch = time.Date(2026, 11, 21, 7, 0, 0, 0, time.UTC)

type fixture struct {
	client client.WithWatch
	claims *Claims
	now    time.Time
}

type fixtureOpt func(*fake.ClientBuilder)

func withObjects(objs ...client.Object) fixtureOpt {
	return func(b *fake.ClientBuilder) { b.WithObjects(objs...) }
}

func withInterceptor(f interceptor.Funcs) fixtureOpt {
	return func(b *fake.ClientBuilder) { b.WithInterceptorFuncs(f) }
}

func newFixture(t *testing.T, opts ...fixtureOpt) *fixture {
	t.Helper()
	s := runtime.NewScheme()
	if err := billingv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	b := fake.NewClientBuilder().WithScheme(s)
	for _, o := range opts {
		o(b)
	}
	f := &fixture{client: b.Build(), now: epoch}
	started := time.Now()
	f.claims = &Claims{
		kube:         f.client,
		InFlightWait: 50 * time.Millisecond,
		StaleAfter:   2 * time.Minute,
		// f.now, moving on with the real time so that waits end.
		Now: func() time.Time { return f.now.Add(time.Since(started)) },
	}
	return f
}

// customerRequest is a create of a customer named name with key.
func customerRequest(key, hash, name string) Request {
	return Request{
		Namespace: ns,
		Key:       key,
		Resource:  "customers",
		Hash:      hash,
		Prefix:    "cus-",
		Build: func(id string) client.Object {
			return &billingv1.Customer{
				ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: ns},
				Spec:       billingv1.CustomerSpec{Name: name, Email: "ada@example.com"},
			}
		},
		Empty: func() client.Object { return &billingv1.Customer{} },
	}
}

// claimOf is an IdempotencyKey of the key k1, made at created, naming object.
func claimOf(hash, object string, created time.Time) *billingv1.IdempotencyKey {
	return &billingv1.IdempotencyKey{
		ObjectMeta: metav1.ObjectMeta{Name: ClaimName("k1"), Namespace: ns, CreationTimestamp: metav1.NewTime(created)},
		Spec: billingv1.IdempotencyKeySpec{
			RequestHash: hash, Resource: "customers", ObjectName: object,
			ExpiresAt: metav1.NewTime(created.Add(billingv1.IdempotencyKeyRetention)),
		},
	}
}

func (f *fixture) customers(t *testing.T) []string {
	t.Helper()
	var list billingv1.CustomerList
	if err := f.client.List(context.Background(), &list); err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(list.Items))
	for i, c := range list.Items {
		names[i] = c.Name
	}
	return names
}

func (f *fixture) claimExists(t *testing.T, key string) bool {
	t.Helper()
	err := f.client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: ClaimName(key)},
		&billingv1.IdempotencyKey{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return err == nil
}

func TestCreateWithoutAKeyCreatesEachTime(t *testing.T) {
	f := newFixture(t)
	for range 2 {
		obj, replayed, err := f.claims.Create(t.Context(), customerRequest("", "h", "Ada"))
		if err != nil || replayed || !strings.HasPrefix(obj.GetName(), "cus-") {
			t.Fatalf("Create = %v, %v, %v; want a new customer", obj, replayed, err)
		}
	}
	if n := len(f.customers(t)); n != 2 {
		t.Errorf("%d customers; want 2", n)
	}
}

func TestARetryWithTheKeyAnswersTheFirstObject(t *testing.T) {
	f := newFixture(t)
	first, replayed, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada"))
	if err != nil || replayed {
		t.Fatalf("first Create = %v, %v", replayed, err)
	}
	again, replayed, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada"))
	if err != nil || !replayed || again.GetName() != first.GetName() {
		t.Fatalf("retry = %v, %v, %v; want the first object, replayed", again, replayed, err)
	}
	if got := again.(*billingv1.Customer).Spec.Name; got != "Ada" {
		t.Errorf("the replayed object reads %q", got)
	}
	if names := f.customers(t); len(names) != 1 {
		t.Errorf("customers %v; want one", names)
	}
}

func TestAKeyUsedWithAnotherRequestIsReused(t *testing.T) {
	f := newFixture(t)
	if _, _, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada")); err != nil {
		t.Fatal(err)
	}
	other := customerRequest("k1", "h2", "Eve")
	if _, _, err := f.claims.Create(t.Context(), other); !errors.Is(err, ErrReused) {
		t.Errorf("another hash: %v; want ErrReused", err)
	}
	other = customerRequest("k1", "h", "Ada")
	other.Resource = "invoices"
	if _, _, err := f.claims.Create(t.Context(), other); !errors.Is(err, ErrReused) {
		t.Errorf("another resource: %v; want ErrReused", err)
	}
	if names := f.customers(t); len(names) != 1 {
		t.Errorf("customers %v; want one", names)
	}
}

func TestFindAnswersTheObjectOfTheSameRequestOnly(t *testing.T) {
	f := newFixture(t)
	if obj, found, err := f.claims.Find(t.Context(), customerRequest("k1", "h", "Ada")); err != nil || found {
		t.Fatalf("before any claim: %v, %v, %v; want nothing", obj, found, err)
	}
	first, _, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		req   func() Request
		found bool
	}{
		{"the same request finds the first object", func() Request { return customerRequest("k1", "h", "Ada") }, true},
		{"another hash finds nothing", func() Request { return customerRequest("k1", "h2", "Ada") }, false},
		{"another resource finds nothing", func() Request {
			r := customerRequest("k1", "h", "Ada")
			r.Resource = "invoices"
			return r
		}, false},
		{"another key finds nothing", func() Request { return customerRequest("k2", "h", "Ada") }, false},
		{"no key finds nothing", func() Request { return customerRequest("", "h", "Ada") }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj, found, err := f.claims.Find(t.Context(), tc.req())
			if err != nil || found != tc.found || (found && obj.GetName() != first.GetName()) {
				t.Errorf("Find = %v, %v, %v; want found %v", obj, found, err, tc.found)
			}
		})
	}
	t.Run("an expired claim finds nothing", func(t *testing.T) {
		f.now = epoch.Add(billingv1.IdempotencyKeyRetention + time.Second)
		defer func() { f.now = epoch }()
		if _, found, err := f.claims.Find(t.Context(), customerRequest("k1", "h", "Ada")); err != nil || found {
			t.Errorf("Find = %v, %v; want nothing", found, err)
		}
	})
	if names := f.customers(t); len(names) != 1 {
		t.Errorf("customers %v; want one: Find creates nothing", names)
	}
}

func TestFindOfAClaimWhoseObjectDoesNotExistFindsNothing(t *testing.T) {
	f := newFixture(t, withObjects(claimOf("h", "cus-inflight", epoch)))
	if _, found, err := f.claims.Find(t.Context(), customerRequest("k1", "h", "Ada")); err != nil || found {
		t.Errorf("Find = %v, %v; want nothing, without waiting", found, err)
	}
	claim := &billingv1.IdempotencyKey{}
	if err := f.client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: ClaimName("k1")}, claim); err != nil {
		t.Errorf("Find released the claim: %v", err)
	}
}

func TestAKeyWhoseObjectIsStillBeingCreatedIsInUse(t *testing.T) {
	f := newFixture(t, withObjects(claimOf("h", "cus-inflight", epoch)))
	f.now = epoch.Add(time.Second)
	_, _, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada"))
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("Create = %v; want ErrInUse", err)
	}
	if len(f.customers(t)) != 0 || !f.claimExists(t, "k1") {
		t.Error("an in-flight claim was released or its request duplicated")
	}
}

func TestAStaleClaimIsClaimedAnew(t *testing.T) {
	f := newFixture(t, withObjects(claimOf("h", "cus-never", epoch)))
	f.now = epoch.Add(3 * time.Minute)
	obj, replayed, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada"))
	if err != nil || replayed || obj.GetName() == "cus-never" {
		t.Fatalf("Create = %v, %v, %v; want a new object", obj, replayed, err)
	}
	if names := f.customers(t); len(names) != 1 || names[0] != obj.GetName() {
		t.Errorf("customers %v; want %s", names, obj.GetName())
	}
}

func TestAnExpiredClaimIsClaimedAnewEvenForAnotherRequest(t *testing.T) {
	f := newFixture(t, withObjects(claimOf("old", "cus-old", epoch)))
	f.now = epoch.Add(billingv1.IdempotencyKeyRetention + time.Second)
	obj, replayed, err := f.claims.Create(t.Context(), customerRequest("k1", "new", "Ada"))
	if err != nil || replayed {
		t.Fatalf("Create = %v, %v, %v; want a new object", obj, replayed, err)
	}
}

func TestARefusedCreateReleasesTheKey(t *testing.T) {
	f := newFixture(t, withInterceptor(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if _, ok := obj.(*billingv1.Customer); ok {
				return apierrors.NewInvalid(schema.GroupKind{Kind: "Customer"}, obj.GetName(), nil)
			}
			return c.Create(ctx, obj, opts...)
		},
	}))
	_, _, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada"))
	if !apierrors.IsInvalid(err) || errors.Is(err, ErrUnknownOutcome) {
		t.Fatalf("Create = %v; want the API's Invalid, a known outcome", err)
	}
	if f.claimExists(t, "k1") {
		t.Error("the claim of a create that did not happen was kept")
	}
}

func TestACreateOfUnknownOutcomeKeepsTheKey(t *testing.T) {
	f := newFixture(t, withInterceptor(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if _, ok := obj.(*billingv1.Customer); ok {
				return apierrors.NewServiceUnavailable("etcd is slow")
			}
			return c.Create(ctx, obj, opts...)
		},
	}))
	_, _, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada"))
	if !errors.Is(err, ErrUnknownOutcome) || !apierrors.IsServiceUnavailable(err) {
		t.Fatalf("Create = %v; want ErrUnknownOutcome wrapping the 503", err)
	}
	if !f.claimExists(t, "k1") {
		t.Error("the claim of a create that may have happened was released")
	}
}

func TestAClaimThatKeepsVanishingEndsInUse(t *testing.T) {
	claims := 0
	f := newFixture(t, withInterceptor(interceptor.Funcs{
		Create: func(_ context.Context, _ client.WithWatch, obj client.Object, _ ...client.CreateOption) error {
			claims++
			return apierrors.NewAlreadyExists(schema.GroupResource{Resource: "idempotencykeys"}, obj.GetName())
		},
	}))
	_, _, err := f.claims.Create(t.Context(), customerRequest("k1", "h", "Ada"))
	if !errors.Is(err, ErrInUse) || claims != maxClaimAttempts {
		t.Errorf("Create = %v after %d claims; want ErrInUse after %d", err, claims, maxClaimAttempts)
	}
}

func TestTheAPIsErrorsPassThrough(t *testing.T) {
	f := newFixture(t, withInterceptor(interceptor.Funcs{
		Create: func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
			return apierrors.NewForbidden(schema.GroupResource{Resource: "idempotencykeys"}, "x", errors.New("quota"))
		},
	}))
	for _, key := range []string{"", "k1"} {
		if _, _, err := f.claims.Create(t.Context(), customerRequest(key, "h", "Ada")); !apierrors.IsForbidden(err) {
			t.Errorf("key %q: %v; want the API's Forbidden", key, err)
		}
	}
}

func TestWaitingForAnInFlightObjectEndsWithTheContext(t *testing.T) {
	f := newFixture(t, withObjects(claimOf("h", "cus-inflight", epoch)))
	f.claims.InFlightWait = time.Hour
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, _, err := f.claims.Create(ctx, customerRequest("k1", "h", "Ada"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Create = %v; want the context's error", err)
	}
}
