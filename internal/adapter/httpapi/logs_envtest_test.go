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
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap/zapcore"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/rest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// What the adapter logs: never a bearer token, and the suite's own logs captured.

// syncBuffer is a bytes.Buffer for several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// suiteLogs receives the suite's own logs, klog's included, while on.
var suiteLogs captureWriter

type captureWriter struct {
	on  atomic.Bool
	buf syncBuffer
}

func (c *captureWriter) Write(p []byte) (int, error) {
	if c.on.Load() {
		return c.buf.Write(p)
	}
	return len(p), nil
}

// startAdapterLogging is startAdapter with the adapter's logs sent to log.
func startAdapterLogging(cfg *rest.Config, opts Options, log logr.Logger) string {
	a, err := newConnected(cfg, opts)
	Expect(err).NotTo(HaveOccurred())
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	actx, stop := context.WithCancel(logf.IntoContext(ctx, log))
	done := make(chan error, 1)
	go func() { done <- a.Run(actx, ln) }()
	DeferCleanup(func() {
		stop()
		Eventually(done).WithTimeout(20 * time.Second).Should(Receive(BeNil()))
	})
	return "http://" + ln.Addr().String()
}

var _ = Describe("Secrets in logs", func() {
	It("never logs a token, valid, invalid or malformed, whatever the answer", func() {
		var buf syncBuffer
		log := zap.New(zap.WriteTo(io.MultiWriter(GinkgoWriter, &buf)), zap.UseDevMode(true), zap.Level(zapcore.Level(-10)))
		// k8s.io/apiserver's authenticator and authorizer, and client-go,
		// log through klog, which the suite sends to its own logger.
		suiteLogs.on.Store(true)
		DeferCleanup(suiteLogs.on.Store, false)

		up := startAdapterLogging(adapterCfg, Options{RateLimit: 1, RateBurst: 8}, log)
		down := rest.CopyConfig(adapterCfg)
		down.Host = "https://" + closedPort()
		unreachable := startAdapterLogging(down, Options{RequestTimeout: time.Second, RateLimit: -1}, log)
		Eventually(func() int { return send(http.MethodGet, "/readyz", on(up)).status }).Should(Equal(http.StatusOK))

		secret := rand.String(40)
		tokens := []string{
			writerToken, readerToken,
			"garbage-" + secret,
			"eyJhbGciOiJSUzI1NiJ9." + b64(`{"sub":"`+secret+`"}`) + ".c2ln",
			writerToken + "x",
			strings.Repeat(secret, 100),
		}
		authorizations := []string{"Basic " + b64("alice:"+secret), "Bearer  " + secret, "Bearer " + secret + " trailing", secret}
		for _, t := range tokens {
			authorizations = append(authorizations, "Bearer "+t)
		}
		for _, authz := range authorizations {
			for _, r := range []struct {
				method, path string
				opts         []reqOpt
			}{
				{http.MethodGet, "/v1/customers", nil},
				{http.MethodGet, "/v1/customers/cus-none", nil},
				{http.MethodPost, "/v1/customers", []reqOpt{withJSON(customerBody())}},
				{http.MethodPost, "/v1/invoices", []reqOpt{withBody(`{"items": [`)}},
				{http.MethodGet, "/v1/invoices", []reqOpt{inWorkspace("gamma")}},
			} {
				opts := append([]reqOpt{as(""), withHeader("Authorization", authz)}, r.opts...)
				send(r.method, r.path, append(opts, on(up))...)
			}
			send(http.MethodGet, "/v1/customers", as(""), withHeader("Authorization", authz), on(unreachable))
		}
		By("rate limiting a valid token, too")
		Eventually(func() int { return send(http.MethodGet, "/v1/customers", on(up)).status }).
			Should(Equal(http.StatusTooManyRequests))

		logs := buf.String() + suiteLogs.buf.String()
		Expect(logs).To(ContainSubstring("Served request"))
		Expect(logs).To(ContainSubstring("Unable to review a bearer token"))
		Expect(logs).To(ContainSubstring("Access denied"))
		for _, t := range append(tokens, secret) {
			for i := 0; i+16 <= len(t); i += 8 {
				if at := strings.Index(logs, t[i:i+16]); at >= 0 {
					Fail(fmt.Sprintf("the logs hold part of a token: %q", logs[max(at-200, 0):min(at+50, len(logs))]))
				}
			}
		}
	})
})
