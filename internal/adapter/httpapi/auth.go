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
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/http2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// WorkspaceHeader names the workspace (namespace) of a request.
const WorkspaceHeader = "Invoicing-Workspace"

// authenticate answers who the caller is, or 401, or 503 when the TokenReview
// could not be made.
func (a *Adapter) authenticate(r *http.Request) (user.Info, *Error) {
	if r.Header.Get("Authorization") == "" {
		return nil, errorf(http.StatusUnauthorized, CodeAuthRequired, "",
			"Send a Kubernetes bearer token in the Authorization header: \"Authorization: Bearer <token>\".")
	}
	resp, ok, err := a.authn.AuthenticateRequest(r)
	if err != nil && (isAPIFailure(err) || hasAPIStatus(err)) {
		logFrom(r.Context()).Error(err, "Unable to review a bearer token")
		return nil, unavailable()
	}
	if err != nil || !ok || resp == nil || resp.User == nil {
		return nil, errorf(http.StatusUnauthorized, CodeTokenInvalid, "",
			"The bearer token was not accepted by the cluster.")
	}
	return resp.User, nil
}

// authorize checks with a SubjectAccessReview that u may verb resource
// (named name, for get) in namespace ns: 403, or 503 when the review could
// not be made. For a named object it first asks about the whole resource in
// the namespace: a caller allowed that is allowed every name (RBAC grants a
// name only through a rule without resourceNames or one listing it), and
// that answer is cached once per caller and workspace instead of once per
// object. Only a caller not allowed the whole resource (a Role limited to
// resourceNames) is asked about the name.
func (a *Adapter) authorize(ctx context.Context, u user.Info, verb, resource, ns, name string) *Error {
	decision, reason, err := a.review(ctx, u, verb, resource, ns, "")
	if err == nil && name != "" && decision != authorizer.DecisionAllow {
		decision, reason, err = a.review(ctx, u, verb, resource, ns, name)
	}
	if err != nil {
		logFrom(ctx).Error(err, "Unable to review access", "verb", verb, "resource", resource, "namespace", ns)
		return unavailable()
	}
	if decision != authorizer.DecisionAllow {
		logFrom(ctx).V(1).Info("Access denied", "verb", verb, "resource", resource, "namespace", ns, "reason", reason)
		return errorf(http.StatusForbidden, CodePermissionDenied, "",
			"%s may not %s %s in workspace %q.", u.GetName(), verb, resource, ns)
	}
	return nil
}

// review asks (or the cache answers) one SubjectAccessReview.
func (a *Adapter) review(ctx context.Context, u user.Info, verb, resource, ns, name string) (
	authorizer.Decision, string, error) {
	return a.authz.Authorize(ctx, authorizer.AttributesRecord{
		User:            u,
		Verb:            verb,
		Namespace:       ns,
		APIGroup:        billingv1.GroupVersion.Group,
		APIVersion:      billingv1.GroupVersion.Version,
		Resource:        resource,
		Name:            name,
		ResourceRequest: true,
	})
}

// isAPIFailure reports whether err says the Kubernetes API could not be
// reached or could not answer (transport error, timeout, 429 or 5xx), as
// opposed to an answer. Aggregated errors count when any of theirs does.
func isAPIFailure(err error) bool { return anyError(err, apiFailure) }

// apiFailure is isAPIFailure of one error, not an aggregate.
func apiFailure(err error) bool {
	var urlErr *url.Error
	var netErr net.Error
	var status apierrors.APIStatus
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		errors.As(err, &urlErr), errors.As(err, &netErr), isLostConnection(err):
		return true
	case errors.As(err, &status):
		code := status.Status().Code
		return code == http.StatusTooManyRequests || code >= 500 || code == 0 ||
			apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err)
	}
	// k8s.io/apiserver's webhook helper flattens a context error into text
	// (fmt.Errorf with %s, in WithExponentialBackoff): no type is left to
	// check, only the prefix it writes.
	return strings.HasPrefix(err.Error(), "webhook call failed")
}

// isLostConnection reports whether err says the connection to the API
// server ended under a request. When a response's body breaks off (an API
// server stopping or restarting), client-go's rest.Request returns neither a
// *url.Error nor an API status but its own "... Please retry. Original
// error: %w" around what reading the body returned, so the cause is checked:
// the end of the body (HTTP/1.1), an HTTP/2 stream the server reset (the
// cause client-go names a stream error), an HTTP/2 connection error, or what
// k8s.io/apimachinery takes for a probable EOF (its test of the cause: a
// GOAWAY, a closed connection). A broken socket (syscall.Errno) is a
// net.Error, which isAPIFailure checks before. HTTP/2's "client connection
// lost" has no type, but it comes only after 45 s without an answer to a
// ping (client-go's health check), later than --request-timeout, whose
// context error isAPIFailure checks.
func isLostConnection(err error) bool {
	var stream http2.StreamError
	var conn http2.ConnectionError
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &stream) || errors.As(err, &conn) || utilnet.IsProbableEOF(err)
}

// hasAPIStatus reports whether err, or one of an aggregate's, is an error
// status from the API server. A TokenReview refuses a token in its status,
// never with an error status, so such an error is the adapter's own problem.
func hasAPIStatus(err error) bool {
	return anyError(err, func(err error) bool {
		var status apierrors.APIStatus
		return errors.As(err, &status)
	})
}

// anyError reports whether test holds for err or, when err is an aggregate,
// for any of its errors (aggregates within it likewise).
func anyError(err error, test func(error) bool) bool {
	var agg utilerrors.Aggregate
	if errors.As(err, &agg) {
		return slices.ContainsFunc(agg.Errors(), func(e error) bool { return anyError(e, test) })
	}
	return test(err)
}

// workspaceFor returns the namespace a request works in: the
// Invoicing-Workspace header when sent, else the namespace of a
// ServiceAccount caller. A header that is not a namespace name (a DNS-1123
// label) is 400 parameter_invalid; no workspace at all 400 workspace_required.
func workspaceFor(header []string, u user.Info) (string, *Error) {
	switch len(header) {
	case 0:
	case 1:
		if errs := validation.IsDNS1123Label(header[0]); len(errs) > 0 {
			return "", errorf(http.StatusBadRequest, CodeParameterInvalid, WorkspaceHeader,
				"The %s header must be a namespace name (a DNS-1123 label): %s.", WorkspaceHeader, strings.Join(errs, "; "))
		}
		return header[0], nil
	default:
		return "", errorf(http.StatusBadRequest, CodeParameterInvalid, WorkspaceHeader,
			"Send the %s header once.", WorkspaceHeader)
	}
	if u != nil {
		if ns, _, err := serviceaccount.SplitUsername(u.GetName()); err == nil {
			return ns, nil
		}
	}
	return "", errorf(http.StatusBadRequest, CodeWorkspaceRequired, WorkspaceHeader,
		"Name the workspace (a namespace) in the %s header; only ServiceAccounts default to their own namespace.",
		WorkspaceHeader)
}
