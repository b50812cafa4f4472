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
	"fmt"
	"log"
	"net/http"
	"path"
	"runtime"
	"strings"
	"time"

	"github.com/go-logr/logr"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/invoicing-dev/invoicing/internal/billing"
)

// RequestIDHeader carries the request id, the client's own when sane.
const RequestIDHeader = "Request-Id"

const maxRequestIDLength = 200

// sanitizeRequestID returns id when it is 1 to 200 characters of
// [A-Za-z0-9._:-], and "" otherwise.
func sanitizeRequestID(id string) string {
	if id == "" || len(id) > maxRequestIDLength {
		return ""
	}
	for _, c := range []byte(id) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '.', c == '_', c == ':', c == '-':
		default:
			return ""
		}
	}
	return id
}

// requestInfo is what the outer middleware learns about a request from the
// inner handlers, for the request log.
type requestInfo struct {
	id   string
	user string
	// untimed is the request's context without the request timeout, for a
	// stream: it ends when the client goes away.
	untimed context.Context
}

type requestInfoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

func requestIDFrom(ctx context.Context) string { return infoFrom(ctx).id }

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// middleware wraps the routes with what every request gets: a request id
// (echoed in the Request-Id header), a per-request timeout, a panic
// barrier that answers 500, and one structured log line.
func (a *Adapter) middleware(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{id: sanitizeRequestID(r.Header.Get(RequestIDHeader))}
		if info.id == "" {
			info.id = billing.NewID("req-")
		}
		w.Header().Set(RequestIDHeader, info.id)
		sw := &statusWriter{ResponseWriter: w}

		log := logf.FromContext(r.Context()).WithValues("requestID", info.id)
		info.untimed = logf.IntoContext(context.WithValue(r.Context(), requestInfoKey{}, info), log)
		ctx, cancel := context.WithTimeout(info.untimed, a.opts.RequestTimeout)
		defer cancel()
		r = r.WithContext(ctx)

		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler { //nolint:errorlint // the sentinel is panicked as is.
					panic(p)
				}
				buf := make([]byte, 64<<10)
				buf = buf[:runtime.Stack(buf, false)]
				log.Error(fmt.Errorf("panic: %v", p), "A handler panicked", "stack", string(buf))
				if sw.status == 0 {
					writeError(sw, r, internalError())
				}
			}
			pattern := r.Pattern
			if pattern == "" {
				pattern = routeUnmatched
			}
			status := sw.status
			if status == 0 {
				status = http.StatusOK // nothing written: net/http answers 200
			}
			a.metrics.observe(pattern, status, time.Since(start))
			// Probes come every few seconds: log them only when asked to.
			l := log
			if pattern == "GET /healthz" || pattern == "GET /readyz" {
				l = log.V(1)
			}
			l.Info("Served request", "method", r.Method, "pattern", pattern, "status", sw.status,
				"duration", time.Since(start).String(), "user", info.user)
		}()
		a.route(mux, sw, r)
	})
}

// route serves r with mux, turning the mux's own plain-text 404 and 405
// answers into JSON error bodies (keeping the Allow header). A path with
// empty, "." or ".." segments is 404 path_unknown: the mux would redirect
// it to its cleaned form with an HTML body, and an API client that sends
// "/v1/invoices/../x" means no resource of the API.
func (a *Adapter) route(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	if p := r.URL.EscapedPath(); r.Method != http.MethodConnect && p != cleanPath(p) {
		writeError(w, r, errorf(http.StatusNotFound, CodePathUnknown, "",
			"There is no %s %s: the path has empty, \".\" or \"..\" segments.", r.Method, p))
		return
	}
	h, pattern := mux.Handler(r)
	if pattern != "" {
		mux.ServeHTTP(w, r)
		return
	}
	rec := &headerRecorder{header: http.Header{}}
	h.ServeHTTP(rec, r)
	if rec.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", rec.header.Get("Allow"))
		writeError(w, r, errorf(http.StatusMethodNotAllowed, CodeMethodNotAllowed, "",
			"%s is not allowed on %s; allowed: %s.", r.Method, r.URL.Path, rec.header.Get("Allow")))
		return
	}
	writeError(w, r, errorf(http.StatusNotFound, CodePathUnknown, "", "There is no %s %s.", r.Method, r.URL.Path))
}

// cleanPath is net/http's canonical form of a request path (as the
// ServeMux computes it): rooted, without empty, "." or ".." segments,
// keeping a trailing slash.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}

// headerRecorder is a ResponseWriter that keeps the status and headers and
// drops the body.
type headerRecorder struct {
	header http.Header
	status int
}

func (h *headerRecorder) Header() http.Header { return h.header }

func (h *headerRecorder) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *headerRecorder) Write(b []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return len(b), nil
}

// newServerErrorLog sends net/http's own error messages (bad requests,
// TLS handshakes) to the logger.
func newServerErrorLog(l logr.Logger) *log.Logger {
	return log.New(logWriter{l.WithName("http")}, "", 0)
}

type logWriter struct{ log logr.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	w.log.Info("HTTP server error", "message", strings.TrimSpace(string(p)))
	return len(p), nil
}
