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
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/invoicing-dev/invoicing/internal/adapter/idempotency"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
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
	CodeInvoiceNotIssued     = "invoice_not_issued"
	CodeInvoiceFullyCredited = "invoice_fully_credited" //nolint:gosec // an error code, not a credential
	CodeInvoiceVoid          = "invoice_void"
	CodeInvoiceSealed        = "invoice_sealed"
	CodeCreditNoteNotIssued  = "credit_note_not_issued"
	CodeExceedsCreditable    = "amount_exceeds_creditable"
	CodeAllowanceExceedsBase = "allowance_exceeds_base"
	CodeExceedsRemaining     = "amount_exceeds_remaining"
	CodeExceedsCredit        = "amount_exceeds_credit"
	CodeInvoiceNotOpen       = "invoice_not_open"
	CodeCurrencyMismatch     = "currency_mismatch"
	CodeEInvoiceUnavailable  = "einvoice_unavailable"
	CodePeriodNotEnded       = "period_not_ended"
	CodeAlreadyClosed        = "already_closed"
	CodePeriodClosed         = "period_closed"
	CodeNotIssued            = "not_issued"
	CodeEmailNotConfigured   = "email_not_configured"
	CodeScheduleEnded        = "schedule_ended"
	CodeStatementInvalid     = "statement_invalid"
	CodeAlreadyMatched       = "already_matched"
	CodeNotMatchable         = "transaction_not_matchable"
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

// apiError turns an error of the Kubernetes API into the answer: 503 when
// the API could not be reached or answer in time, 422 when it refused the
// object as invalid, 403 when it refused it otherwise, 404 when the
// workspace does not exist, 500 otherwise. The error is logged with msg.
func apiError(ctx context.Context, err error, msg string) *Error {
	switch {
	case errors.Is(err, store.ErrNotSynced):
		logFrom(ctx).V(1).Info(msg, "error", err.Error())
		return unavailable()
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

// createError is the answer to a create that failed: the Idempotency-Key
// protocol's own errors are 409s, the rest are the Kubernetes API's.
func createError(ctx context.Context, err error) *Error {
	switch {
	case errors.Is(err, idempotency.ErrInUse):
		return errorf(http.StatusConflict, CodeIdempotencyInUse, IdempotencyKeyHeader,
			"A request with this %s is still in progress; retry later.", IdempotencyKeyHeader)
	case errors.Is(err, idempotency.ErrReused):
		return errorf(http.StatusConflict, CodeIdempotencyReused, IdempotencyKeyHeader,
			"This %s was used with another request; use a new key for a new request.", IdempotencyKeyHeader)
	default:
		// ErrUnknownOutcome wraps the API's error, which says what to answer.
		return apiError(ctx, err, "Unable to create an object")
	}
}

// documentError turns an error of rendering a document (kind "Invoice" or
// "Credit note", id), an e-invoice or a Factur-X, into the answer: 409
// einvoice_unavailable, naming every missing piece, when the document
// lacks what the e-invoice's profile needs; 500, logged, otherwise.
func documentError(ctx context.Context, err error, param, kind, id string) *Error {
	var unavailable *einvoice.UnavailableError
	if errors.As(err, &unavailable) {
		return errorf(http.StatusConflict, CodeEInvoiceUnavailable, queryProfile,
			"%s %q cannot be written as an e-invoice under profile %s; it lacks: %s.",
			kind, id, unavailable.Profile, strings.Join(unavailable.Missing, "; "))
	}
	logFrom(ctx).Error(err, "Unable to render a document", param, id)
	return internalError()
}
