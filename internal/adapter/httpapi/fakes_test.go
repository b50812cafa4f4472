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
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// The fakes that drive handlers without a control plane: a Store over a
// map, Claims that create into it, an authenticator that knows one token
// and an authorizer that allows everything.

const (
	fakeToken     = "good-token"
	fakeWorkspace = "demo"
)

// fakeStore is a Store over a map of objects by namespace/name.
type fakeStore struct {
	mu      sync.Mutex
	objects map[string]client.Object
	// err, when set, is what every read answers.
	err error
	// profile is the billing profile of every workspace; profileReads
	// counts its reads; profileErr, when set, is what they answer.
	profile      store.Profile
	profileReads int
	profileErr   error
	// endless, when set, is the object of an event sequence that never
	// ends: Events answers a full page of invoice.issued events about it
	// after any sequence.
	endless *billingv1.Invoice
	// closedThrough and closedBy are how far every workspace is closed, and
	// by which close; zero: not closed.
	closedThrough time.Time
	closedBy      string
}

func newFakeStore(objs ...client.Object) *fakeStore {
	s := &fakeStore{objects: map[string]client.Object{}}
	for _, o := range objs {
		s.put(o)
	}
	return s
}

func fakeKey(obj client.Object, ns, name string) string {
	return fmt.Sprintf("%T %s/%s", obj, ns, name)
}

func (s *fakeStore) put(obj client.Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objects[fakeKey(obj, obj.GetNamespace(), obj.GetName())] = obj.DeepCopyObject().(client.Object)
}

func (s *fakeStore) Get(_ context.Context, ns, name string, obj client.Object) (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	found, ok := s.objects[fakeKey(obj, ns, name)]
	if !ok {
		return false, nil
	}
	switch dst := obj.(type) {
	case *billingv1.Customer:
		found.(*billingv1.Customer).DeepCopyInto(dst)
	case *billingv1.Invoice:
		found.(*billingv1.Invoice).DeepCopyInto(dst)
	case *billingv1.CreditNote:
		found.(*billingv1.CreditNote).DeepCopyInto(dst)
	case *billingv1.Payment:
		found.(*billingv1.Payment).DeepCopyInto(dst)
	case *billingv1.PeriodClose:
		found.(*billingv1.PeriodClose).DeepCopyInto(dst)
	case *billingv1.LedgerSeal:
		found.(*billingv1.LedgerSeal).DeepCopyInto(dst)
	case *billingv1.BillingProfile:
		found.(*billingv1.BillingProfile).DeepCopyInto(dst)
	case *billingv1.CreditApplication:
		found.(*billingv1.CreditApplication).DeepCopyInto(dst)
	case *billingv1.Refund:
		found.(*billingv1.Refund).DeepCopyInto(dst)
	case *billingv1.WriteOff:
		found.(*billingv1.WriteOff).DeepCopyInto(dst)
	case *billingv1.Email:
		found.(*billingv1.Email).DeepCopyInto(dst)
	default:
		return false, fmt.Errorf("the fake store holds no %T", obj)
	}
	return true, nil
}

// Page is the page of the fake store's objects of kind k in sel's
// workspace (no other filter) after the name after, by name.
func (s *fakeStore) Page(_ context.Context, k *recordkind.Kind, sel store.Selection, after string, limit int) (
	[]client.Object, bool, error) {
	if s.err != nil {
		return nil, false, s.err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []client.Object
	for _, o := range s.objects {
		if k != nil && recordkind.Of(o) == k && o.GetNamespace() == sel.Namespace && o.GetName() > after {
			all = append(all, o.DeepCopyObject().(client.Object))
		}
	}
	slices.SortFunc(all, func(a, b client.Object) int { return strings.Compare(a.GetName(), b.GetName()) })
	if len(all) > limit {
		return all[:limit], true, nil
	}
	return all, false, nil
}

func (s *fakeStore) ClosedThrough(context.Context, string) (time.Time, string, bool, error) {
	if s.err != nil {
		return time.Time{}, "", false, s.err
	}
	return s.closedThrough, s.closedBy, !s.closedThrough.IsZero(), nil
}

func (s *fakeStore) Seals(ctx context.Context, ns string) ([]*billingv1.LedgerSeal, error) {
	seals, _, err := pages[*billingv1.LedgerSeal](s)(ctx, store.Selection{Namespace: ns}, "", 1<<30)
	return seals, err
}

func (s *fakeStore) Feed(context.Context, string, int64, int) ([]*billingv1.Invoice, bool, error) {
	return nil, false, errors.New("the fake store has no feed")
}

func (s *fakeStore) FeedChanged(string) <-chan struct{} { return make(chan struct{}) }

func (s *fakeStore) EventsChanged(string) <-chan struct{} { return make(chan struct{}) }

func (s *fakeStore) Events(_ context.Context, _ string, after int64, limit int, _ map[billingv1.EventType]bool) (
	[]store.Event, int64, bool, error) {
	if s.endless == nil {
		return nil, 0, false, errors.New("the fake store has no events")
	}
	page := make([]store.Event, limit)
	for i := range page {
		page[i] = store.Event{Sequence: after + 1 + int64(i), Type: billingv1.EventTypeInvoiceIssued, Object: s.endless}
	}
	return page, after + int64(limit), true, nil
}

func (s *fakeStore) Profile(context.Context, string) (store.Profile, error) {
	if s.err != nil {
		return store.Profile{}, s.err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.profileReads++
	if s.profileErr != nil {
		return store.Profile{}, s.profileErr
	}
	return store.Profile{Footer: s.profile.Footer, DefaultTax: s.profile.DefaultTax.DeepCopy(),
		Email: s.profile.Email.DeepCopy(), TimeZone: s.profile.TimeZone}, nil
}

func (s *fakeStore) Created(obj client.Object) { s.put(obj) }

// fakeClaims creates objects named by a counter, at a fixed time, without
// an API server; it records the requests, and what each key created.
type fakeClaims struct {
	mu       sync.Mutex
	next     int
	requests []idempotency.Request
	// byKey is what the request with each key created, and that request.
	byKey map[string]fakeClaim
	// err, when set, is what Create answers.
	err error
}

// fakeClaim is the object a request with a key created, and the request.
type fakeClaim struct {
	req idempotency.Request
	obj client.Object
}

// Patch is refused: no fake handler test patches.
func (c *fakeClaims) Patch(context.Context, client.Object, client.Patch) error {
	return errors.New("the fake claims do not patch")
}

// CreateNamed is refused: no fake handler test imports a statement.
func (c *fakeClaims) CreateNamed(context.Context, client.Object) (bool, error) {
	return false, errors.New("the fake claims do not create named objects")
}

func (c *fakeClaims) Create(_ context.Context, r idempotency.Request) (client.Object, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, r)
	if c.err != nil {
		return nil, false, c.err
	}
	if made, ok := c.byKey[r.Key]; ok && r.Key != "" {
		if made.req.Hash != r.Hash || made.req.Resource != r.Resource {
			return nil, false, idempotency.ErrReused
		}
		return made.obj, true, nil
	}
	c.next++
	obj := r.Build(fmt.Sprintf("%s%d", r.Prefix, c.next))
	obj.SetCreationTimestamp(metav1.NewTime(time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)))
	obj.SetUID(types.UID(fmt.Sprintf("uid-%d", c.next)))
	if r.Key != "" {
		if c.byKey == nil {
			c.byKey = map[string]fakeClaim{}
		}
		c.byKey[r.Key] = fakeClaim{req: r, obj: obj}
	}
	return obj, false, nil
}

// Find answers what the request with r's key created, when it was r.
func (c *fakeClaims) Find(_ context.Context, r idempotency.Request) (client.Object, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	made, ok := c.byKey[r.Key]
	if !ok || r.Key == "" || made.req.Hash != r.Hash || made.req.Resource != r.Resource {
		return nil, false, nil
	}
	return made.obj, true, nil
}

// fakeAuthn accepts fakeToken as a ServiceAccount of fakeWorkspace.
var fakeAuthn = authenticator.RequestFunc(func(r *http.Request) (*authenticator.Response, bool, error) {
	if r.Header.Get("Authorization") != "Bearer "+fakeToken {
		return nil, false, nil
	}
	return &authenticator.Response{User: &user.DefaultInfo{
		Name: "system:serviceaccount:" + fakeWorkspace + ":client", UID: "42",
	}}, true, nil
})

// allowAll is an authorizer that allows every request.
var allowAll = authorizer.AuthorizerFunc(func(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
})

// fakeAdapter is an adapter over s and c, authenticated and authorized by
// the fakes, without rate limiting.
func fakeAdapter(t *testing.T, s *fakeStore, c *fakeClaims) http.Handler {
	t.Helper()
	a, err := New(Deps{Store: s, Claims: c, Authn: fakeAuthn, Authz: allowAll}, Options{RateLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	return a.Handler()
}

// serve sends one request, with the fake token, to h and returns the answer.
func serve(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	var r *http.Request
	if body == "" {
		r = httptest.NewRequest(method, path, nil)
	} else {
		r = httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
	}
	r.Header.Set("Authorization", "Bearer "+fakeToken)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}
