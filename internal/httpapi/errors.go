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
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// Error types, one per family of HTTP status (see the contract).
const (
	typeInvalidRequest = "invalid_request_error"
	typeAuthentication = "authentication_error"
	typePermission     = "permission_error"
	typeRateLimit      = "rate_limit_error"
	typeAPI            = "api_error"
)

// Error codes. Each is listed in the OpenAPI document (openapi.json).
const (
	CodeBodyInvalid          = "body_invalid"
	CodeBodyTooLarge         = "body_too_large"
	CodeParameterInvalid     = "parameter_invalid"
	CodeParameterMissing     = "parameter_missing"
	CodeParameterUnknown     = "parameter_unknown"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeWorkspaceRequired    = "workspace_required"
	CodeResourceMissing      = "resource_missing"
	CodePathUnknown          = "path_unknown"
	CodeMethodNotAllowed     = "method_not_allowed"
	CodeIdempotencyReused    = "idempotency_key_reused"
	CodeIdempotencyInUse     = "idempotency_key_in_use"
	CodeAuthRequired         = "authentication_required"
	CodeTokenInvalid         = "token_invalid"
	CodePermissionDenied     = "permission_denied"
	CodeRateLimited          = "rate_limited"
	CodeAPIUnavailable       = "api_unavailable"
	CodeInternal             = "internal_error"
)

// Error is an error answered to the client: an HTTP status and the fields of
// the {"error": {...}} body. Handlers return it; writeError renders it.
type Error struct {
	Status  int
	Code    string
	Message string
	// Param names the offending parameter: a JSON path into the body such as
	// "items[2].quantity", a query parameter, or a header name.
	Param string
	// RetryAfter, when positive, is sent as the Retry-After header (seconds).
	RetryAfter int
}

// Error describes the error for logs.
func (e *Error) Error() string {
	if e.Param != "" {
		return fmt.Sprintf("%d %s (%s): %s", e.Status, e.Code, e.Param, e.Message)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

// Type is the error type the status belongs to.
func (e *Error) Type() string {
	switch {
	case e.Status == http.StatusUnauthorized:
		return typeAuthentication
	case e.Status == http.StatusForbidden:
		return typePermission
	case e.Status == http.StatusTooManyRequests:
		return typeRateLimit
	case e.Status >= 500:
		return typeAPI
	default:
		return typeInvalidRequest
	}
}

func errorf(status int, code, param, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Param: param, Message: fmt.Sprintf(format, args...)}
}

// unavailable is the answer when the Kubernetes API cannot be reached in time.
func unavailable() *Error {
	return &Error{
		Status:     http.StatusServiceUnavailable,
		Code:       CodeAPIUnavailable,
		Message:    "The Kubernetes API is unavailable; retry later.",
		RetryAfter: 1,
	}
}

func internalError() *Error {
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "An internal error occurred."}
}

type errorBody struct {
	Error errorFields `json:"error"`
}

type errorFields struct {
	Type      string `json:"type"`
	Code      string `json:"code"`
	Message   string `json:"message"`
	Param     string `json:"param,omitempty"`
	RequestID string `json:"request_id"`
}

// writeError is the one place that writes error responses.
func writeError(w http.ResponseWriter, r *http.Request, e *Error) {
	switch e.Status {
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", `Bearer realm="invoicing"`)
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		retry := max(e.RetryAfter, 1)
		w.Header().Set("Retry-After", strconv.Itoa(retry))
	}
	writeJSON(w, r, e.Status, errorBody{Error: errorFields{
		Type:      e.Type(),
		Code:      e.Code,
		Message:   e.Message,
		Param:     e.Param,
		RequestID: requestIDFrom(r.Context()),
	}})
}

// writeJSON is the one place that writes JSON responses.
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		// Only programming errors get here: every response type marshals.
		panic(fmt.Sprintf("marshalling %T: %v", v, err))
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)+1))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	// A failed write means the client went away; there is no one to tell.
	_, _ = w.Write(append(body, '\n'))
}
