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
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/netutil"
)

// closedPort returns a loopback address nothing listens on.
func closedPort() string {
	GinkgoHelper()
	return netutil.MustFreeAddr(GinkgoT())
}

func expectUnavailable(resp response) {
	ExpectWithOffset(1, resp.status).To(Equal(http.StatusServiceUnavailable), "body: %s", resp.body)
	ExpectWithOffset(1, resp.apiErr().Type).To(Equal("api_error"))
	ExpectWithOffset(1, resp.apiErr().Code).To(Equal(CodeAPIUnavailable))
	retry, err := strconv.Atoi(resp.header.Get("Retry-After"))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	ExpectWithOffset(1, retry).To(BeNumerically(">=", 1))
}

var _ = Describe("When the Kubernetes API cannot be reached", func() {
	It("answers 503 with Retry-After, never 401 or 403, and keeps serving", func() {
		cfg := rest.CopyConfig(adapterCfg)
		cfg.Host = "https://" + closedPort()
		down := startAdapter(cfg, Options{RequestTimeout: 2 * time.Second, RateLimit: -1})

		for _, r := range []struct{ method, path string }{
			{http.MethodGet, "/v1/customers"},
			{http.MethodGet, "/v1/invoices/inv-1"},
			{http.MethodPost, "/v1/customers"},
		} {
			start := time.Now()
			resp := send(r.method, r.path, on(down), withJSON(customerBody()))
			expectUnavailable(resp)
			Expect(time.Since(start)).To(BeNumerically("<", 2500*time.Millisecond))
		}
		expectUnavailable(send(http.MethodGet, "/readyz", on(down)))
		Expect(send(http.MethodGet, "/healthz", on(down)).status).To(Equal(http.StatusOK))
		By("still refusing requests without a token with 401: no API call is needed for that")
		Expect(send(http.MethodGet, "/v1/customers", on(down), as("")).status).To(Equal(http.StatusUnauthorized))
	})

	It("answers 503 within the request timeout when the API server stops answering", func() {
		apiURL, err := url.Parse(adminCfg.Host)
		Expect(err).NotTo(HaveOccurred())
		proxy, err := newTCPProxy(apiURL.Host)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.close)
		cfg := rest.CopyConfig(adapterCfg)
		cfg.Host = "https://" + proxy.addr()
		const timeout = 3 * time.Second
		hung := startAdapter(cfg, Options{
			RequestTimeout: timeout, RateLimit: -1,
			TokenCacheTTL: time.Minute, AllowCacheTTL: time.Minute,
		})
		Eventually(func() int { return send(http.MethodGet, "/readyz", on(hung)).status }).Should(Equal(http.StatusOK))

		By("warming the token and access caches")
		var c apiobject.Customer
		Eventually(func(g Gomega) {
			resp := send(http.MethodPost, "/v1/customers", on(hung), withJSON(customerBody()))
			g.Expect(resp.status).To(Equal(http.StatusCreated))
			c = resp.customer()
		}).Should(Succeed())
		Expect(send(http.MethodGet, "/v1/customers/"+c.ID, on(hung)).status).To(Equal(http.StatusOK))

		proxy.hang()

		By("serving what the caches hold")
		Expect(send(http.MethodGet, "/v1/customers/"+c.ID, on(hung)).status).To(Equal(http.StatusOK))

		By("answering 503 in time where the API server is needed")
		for _, r := range []struct {
			what string
			opts []reqOpt
			path string
		}{
			{"a create", []reqOpt{withJSON(customerBody())}, "/v1/customers"},
			{"a get needing a new access review", nil, "/v1/customers/cus-unknown"},
			{"a new token", []reqOpt{as(readerToken)}, "/v1/customers"},
		} {
			method := http.MethodGet
			if strings.HasSuffix(r.path, "customers") && len(r.opts) > 0 && r.what == "a create" {
				method = http.MethodPost
			}
			start := time.Now()
			resp := send(method, r.path, append(r.opts, on(hung))...)
			expectUnavailable(resp)
			Expect(time.Since(start)).To(BeNumerically("<", timeout+time.Second), r.what)
		}
		expectUnavailable(send(http.MethodGet, "/readyz", on(hung)))
		Expect(send(http.MethodGet, "/healthz", on(hung)).status).To(Equal(http.StatusOK))
	})
})

var _ = Describe("Limits", func() {
	It("answers 429 rate_limit_error with Retry-After once a caller exceeds its budget", func() {
		limited := startAdapter(adapterCfg, Options{RateLimit: 0.2, RateBurst: 2})
		Eventually(func() int { return send(http.MethodGet, "/readyz", on(limited)).status }).Should(Equal(http.StatusOK))
		Expect(send(http.MethodGet, "/v1/customers", on(limited)).status).To(Equal(http.StatusOK))
		Expect(send(http.MethodGet, "/v1/customers", on(limited)).status).To(Equal(http.StatusOK))
		resp := send(http.MethodGet, "/v1/customers", on(limited))
		Expect(resp.status).To(Equal(http.StatusTooManyRequests))
		Expect(resp.apiErr().Type).To(Equal("rate_limit_error"))
		Expect(resp.apiErr().Code).To(Equal(CodeRateLimited))
		Expect(resp.header.Get("Retry-After")).To(Equal("5"))

		By("limiting each identity on its own")
		Expect(send(http.MethodGet, "/v1/customers", on(limited), as(readerToken)).status).To(Equal(http.StatusOK))
		By("not limiting the unauthenticated endpoints")
		for range 5 {
			Expect(send(http.MethodGet, "/healthz", on(limited)).status).To(Equal(http.StatusOK))
		}
	})

	It("closes a connection whose headers do not arrive in time", func() {
		slow := startAdapter(adapterCfg, Options{ReadHeaderTimeout: 300 * time.Millisecond})
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", strings.TrimPrefix(slow, "http://"))
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = conn.Close() }()
		_, err = conn.Write([]byte("GET /healthz HTTP/1.1\r\nHost: x\r\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(conn.SetReadDeadline(time.Now().Add(5 * time.Second))).To(Succeed())
		start := time.Now()
		_, err = io.ReadAll(conn)
		Expect(err).NotTo(HaveOccurred()) // EOF: the server closed the connection
		Expect(time.Since(start)).To(BeNumerically("<", 2*time.Second))
	})

	It("stops serving a caller soon after RBAC revokes its access", func() {
		quick := startAdapter(adapterCfg, Options{
			RateLimit: -1, TokenCacheTTL: 500 * time.Millisecond,
			AllowCacheTTL: 500 * time.Millisecond, DenyCacheTTL: 500 * time.Millisecond,
		})
		ns := newWorkspace()
		Eventually(func() int {
			return send(http.MethodGet, "/v1/customers", on(quick), inWorkspace(ns)).status
		}).Should(Equal(http.StatusOK))
		Expect(clientset.RbacV1().RoleBindings(ns).Delete(ctx, "billing-alpha-writer", metav1.DeleteOptions{})).To(Succeed())
		Eventually(func() int {
			return send(http.MethodGet, "/v1/customers", on(quick), inWorkspace(ns)).status
		}).WithTimeout(3 * time.Second).Should(Equal(http.StatusForbidden))
	})
})

var _ = Describe("Handler failures", func() {
	It("answers a panicking handler with 500 api_error and keeps serving", func() {
		a := &Adapter{opts: Options{}.withDefaults()}
		mux := http.NewServeMux()
		mux.HandleFunc("GET /v1/customers", func(http.ResponseWriter, *http.Request) { panic("boom") })
		mux.HandleFunc("GET /healthz", a.healthz)
		srv := httptest.NewUnstartedServer(a.middleware(mux))
		srv.Config.BaseContext = func(net.Listener) context.Context { return ctx }
		srv.Start()
		DeferCleanup(srv.Close)

		resp := send(http.MethodGet, "/v1/customers", on(srv.URL), withHeader(RequestIDHeader, "panic-1"))
		Expect(resp.status).To(Equal(http.StatusInternalServerError))
		Expect(resp.apiErr().Type).To(Equal("api_error"))
		Expect(resp.apiErr().Code).To(Equal(CodeInternal))
		Expect(resp.apiErr().RequestID).To(Equal("panic-1"))
		Expect(send(http.MethodGet, "/healthz", on(srv.URL)).status).To(Equal(http.StatusOK))
	})
})
