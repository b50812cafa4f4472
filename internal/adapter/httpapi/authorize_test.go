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
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/invoicing-dev/invoicing/internal/adapter/cluster"
)

// Who the caller is and may do: the workspace of a request and the
// SubjectAccessReviews authorize sends.

func TestWorkspaceFor(t *testing.T) {
	sa := &user.DefaultInfo{Name: "system:serviceaccount:demo:billing"}
	alice := &user.DefaultInfo{Name: "alice"}
	cases := []struct {
		name   string
		header []string
		user   user.Info
		want   string
		code   string
	}{
		{"a ServiceAccount works in its namespace", nil, sa, "demo", ""},
		{"the header wins", []string{"other"}, sa, "other", ""},
		{"a user names the workspace", []string{"team-a"}, alice, "team-a", ""},
		{"a user without the header", nil, alice, "", CodeWorkspaceRequired},
		{"a malformed ServiceAccount name", nil, &user.DefaultInfo{Name: "system:serviceaccount:demo"}, "", CodeWorkspaceRequired},
		{"an upper-case header", []string{"Demo"}, sa, "", CodeParameterInvalid},
		{"an empty header", []string{""}, sa, "", CodeParameterInvalid},
		{"a header with a dot", []string{"a.b"}, sa, "", CodeParameterInvalid},
		{"a header of 64 characters", []string{strings.Repeat("a", 64)}, sa, "", CodeParameterInvalid},
		{"the header twice", []string{"a", "b"}, sa, "", CodeParameterInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, e := workspaceFor(tc.header, tc.user)
			switch {
			case tc.code == "" && (e != nil || got != tc.want):
				t.Errorf("got %q, %v; want %q", got, e, tc.want)
			case tc.code != "" && (e == nil || e.Code != tc.code || e.Status != http.StatusBadRequest || e.Param != WorkspaceHeader):
				t.Errorf("got %q, %v; want 400 %s", got, e, tc.code)
			}
		})
	}
}

// sarStub is an API server that answers SubjectAccessReviews with allow, and
// counts them.
func sarStub(t *testing.T, allow func(who, name string) bool) (*Adapter, *atomic.Int64) {
	var reviews atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reviews.Add(1)
		var sar authorizationv1.SubjectAccessReview
		if err := json.NewDecoder(r.Body).Decode(&sar); err != nil || sar.Spec.ResourceAttributes == nil {
			http.Error(w, "bad review", http.StatusBadRequest)
			return
		}
		sar.Status.Allowed = allow(sar.Spec.User, sar.Spec.ResourceAttributes.Name)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(&sar)
	}))
	t.Cleanup(srv.Close)
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	authz, err := cluster.NewAuthorizer(cs, time.Minute, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return &Adapter{authz: authz}, &reviews
}

func TestAuthorizeAsksOnceForACallerAllowedEveryName(t *testing.T) {
	a, reviews := sarStub(t, func(who, name string) bool { return who == "all" && name == "" })
	all := &user.DefaultInfo{Name: "all"}
	for i := range 50 {
		if e := a.authorize(t.Context(), all, "get", resourceInvoices, "ws", fmt.Sprintf("inv-%d", i)); e != nil {
			t.Fatalf("get %d: %v", i, e)
		}
	}
	if n := reviews.Load(); n != 1 {
		t.Errorf("%d SubjectAccessReviews for 50 gets; want 1", n)
	}
}

func TestAuthorizeChecksTheNameForACallerLimitedToNames(t *testing.T) {
	a, reviews := sarStub(t, func(who, name string) bool { return who == "named" && name == "inv-ok" })
	named := &user.DefaultInfo{Name: "named"}
	if e := a.authorize(t.Context(), named, "get", resourceInvoices, "ws", "inv-ok"); e != nil {
		t.Errorf("get of the named invoice: %v", e)
	}
	if e := a.authorize(t.Context(), named, "get", resourceInvoices, "ws", "inv-other"); e == nil ||
		e.Status != http.StatusForbidden {
		t.Errorf("get of another invoice: %v; want 403", e)
	}
	if e := a.authorize(t.Context(), named, "list", resourceInvoices, "ws", ""); e == nil ||
		e.Status != http.StatusForbidden {
		t.Errorf("list: %v; want 403", e)
	}
	if n := reviews.Load(); n != 4 {
		t.Errorf("%d SubjectAccessReviews; want 4 (the whole resource once per verb, each name once)", n)
	}
}
