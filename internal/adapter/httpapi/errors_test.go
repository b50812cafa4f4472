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
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/net/http2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// Errors: their types, and which answer an error of the Kubernetes API
// becomes.

func TestErrorTypesFollowTheStatus(t *testing.T) {
	for status, typ := range map[int]string{
		400: typeInvalidRequest, 404: typeInvalidRequest, 409: typeInvalidRequest, 413: typeInvalidRequest,
		415: typeInvalidRequest, 422: typeInvalidRequest, 405: typeInvalidRequest,
		401: typeAuthentication, 403: typePermission, 429: typeRateLimit, 500: typeAPI, 503: typeAPI,
	} {
		if got := (&Error{Status: status}).Type(); got != typ {
			t.Errorf("status %d has type %s, want %s", status, got, typ)
		}
	}
}

func TestClassifyingAPIErrors(t *testing.T) {
	gr := schema.GroupResource{Group: "billing.invoicing.dev", Resource: "customers"}
	refused := &url.Error{Op: "Post", URL: "https://k8s", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}
	cases := []struct {
		name            string
		err             error
		failure, status bool
	}{
		{"a refused connection", refused, true, false},
		{"a deadline", fmt.Errorf("getting: %w", context.DeadlineExceeded), true, false},
		{"a 503", apierrors.NewServiceUnavailable("down"), true, true},
		{"a 500", apierrors.NewInternalError(errors.New("boom")), true, true},
		{"a 504", apierrors.NewTimeoutError("slow", 1), true, true},
		{"a 429", apierrors.NewTooManyRequests("busy", 1), true, true},
		{"a 403", apierrors.NewForbidden(gr, "x", errors.New("no")), false, true},
		{"a 422", apierrors.NewInvalid(schema.GroupKind{Kind: "Customer"}, "x", nil), false, true},
		{"a rejected token's message", errors.New("invalid bearer token"), false, false},
		{"an aggregate with a refused connection", utilerrors.NewAggregate([]error{errors.New("x"), refused}), true, false},
		{"an aggregate of messages", utilerrors.NewAggregate([]error{errors.New("x"), errors.New("y")}), false, false},
		{"a response body cut off", fmt.Errorf("unexpected error when reading response body. Please retry. "+
			"Original error: %w", io.ErrUnexpectedEOF), true, false},
		{"a reset connection", fmt.Errorf("creating: %w", syscall.ECONNRESET), true, false},
		{"an HTTP/2 connection going away", errors.New("http2: server sent GOAWAY and closed the connection"), true, false},
		{"an error of the adapter's own", errors.New("no kind is registered for the type"), false, false},
		{"a flattened webhook timeout", errors.New("webhook call failed: context deadline exceeded"), true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := isAPIFailure(tc.err); got != tc.failure {
				t.Errorf("isAPIFailure = %v, want %v", got, tc.failure)
			}
			if got := hasAPIStatus(tc.err); got != tc.status {
				t.Errorf("hasAPIStatus = %v, want %v", got, tc.status)
			}
		})
	}
}

// Each case is recognised by one branch of isLostConnection and by no other
// check of isAPIFailure, so that removing any branch fails its case.
func TestEachWayOfLosingTheConnectionIsAnAPIFailure(t *testing.T) {
	// The two messages client-go's rest.Request wraps a broken-off body in.
	unexpected := func(cause error) error {
		return fmt.Errorf("unexpected error when reading response body. Please retry. Original error: %w", cause)
	}
	streamBroken := func(cause error) error {
		return fmt.Errorf("stream error when reading response body, may be caused by closed connection. "+
			"Please retry. Original error: %w", cause)
	}
	cases := []struct {
		name string
		err  error
	}{
		{"an HTTP/1.1 body that ends before its length is an unexpected EOF", unexpected(io.ErrUnexpectedEOF)},
		{"a wrapped end of a response is an EOF", fmt.Errorf("decoding: %w", io.EOF)},
		{"an HTTP/2 stream the API server reset is a stream error",
			streamBroken(http2.StreamError{StreamID: 3, Code: http2.ErrCodeInternal})},
		{"an HTTP/2 connection the API server broke is a connection error",
			unexpected(http2.ConnectionError(http2.ErrCodeProtocol))},
		{"an API server going away is a GOAWAY, which apimachinery takes for an EOF",
			unexpected(http2.GoAwayError{LastStreamID: 1, ErrCode: http2.ErrCodeNo})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !isLostConnection(tc.err) {
				t.Errorf("isLostConnection(%q) = false, want true", tc.err)
			}
			if !isAPIFailure(tc.err) {
				t.Errorf("isAPIFailure(%q) = false, want true", tc.err)
			}
		})
	}
}

func TestAPIErrorsBecomeTheDocumentedAnswers(t *testing.T) {
	gr := schema.GroupResource{Group: "billing.invoicing.dev", Resource: "invoices"}
	quota := apierrors.NewForbidden(gr, "inv-1", errors.New("exceeded quota: invoices, requested: count/invoices=1"))
	cases := []struct {
		name   string
		err    error
		status int
		code   string
	}{
		{"an unreachable API server is 503", apierrors.NewServiceUnavailable("down"), http.StatusServiceUnavailable, CodeAPIUnavailable},
		{"an object the API server finds invalid is 422", apierrors.NewInvalid(schema.GroupKind{Kind: "Invoice"}, "x", nil),
			http.StatusUnprocessableEntity, CodeParameterInvalid},
		{"a used-up ResourceQuota is 403 with Kubernetes' reason", quota, http.StatusForbidden, CodePermissionDenied},
		{"a missing namespace is 404", apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, "gone"),
			http.StatusNotFound, CodeResourceMissing},
		{"anything else is 500", apierrors.NewConflict(gr, "x", errors.New("again")), http.StatusInternalServerError, CodeInternal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := apiError(context.Background(), tc.err, "Unable to create an object")
			if e.Status != tc.status || e.Code != tc.code {
				t.Fatalf("got %d %s, want %d %s", e.Status, e.Code, tc.status, tc.code)
			}
			if errors.Is(tc.err, quota) && !strings.Contains(e.Message, "exceeded quota") {
				t.Errorf("the message %q does not say why", e.Message)
			}
		})
	}
}
