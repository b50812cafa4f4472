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
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap/zapcore"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/rest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
)

// apiCalls records the requests an adapter makes to the API server, except
// its informers' cluster-wide lists and watches.
type apiCalls struct {
	mu    sync.Mutex
	calls []string
}

func (c *apiCalls) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		informer := req.Method == http.MethodGet && strings.HasPrefix(req.URL.Path, "/apis/"+billingv1.GroupVersion.Group+"/") &&
			!strings.Contains(req.URL.Path, "/namespaces/")
		if !informer {
			c.mu.Lock()
			c.calls = append(c.calls, req.Method+" "+req.URL.Path)
			c.mu.Unlock()
		}
		return rt.RoundTrip(req)
	})
}

// since returns the calls made after the first n.
func (c *apiCalls) since(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.calls[n:])
}

func (c *apiCalls) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.calls)
}

// objectCalls keeps the calls on Customers, Invoices and IdempotencyKeys of
// a workspace, leaving out TokenReviews and SubjectAccessReviews.
func objectCalls(calls []string) []string {
	return slices.DeleteFunc(calls, func(c string) bool {
		return !strings.Contains(c, "/apis/"+billingv1.GroupVersion.Group+"/")
	})
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// startCountingAdapter runs an adapter whose API calls are recorded.
func startCountingAdapter(opts Options) (string, *apiCalls) {
	calls := &apiCalls{}
	cfg := rest.CopyConfig(adapterCfg)
	cfg.WrapTransport = calls.wrap
	base := startAdapter(cfg, opts)
	Eventually(func() int { return send(http.MethodGet, "/readyz", on(base)).status }).Should(Equal(http.StatusOK))
	return base, calls
}

// rawExchange writes raw, as is, on a new connection to the adapter at
// base and reads one response, for requests an HTTP client refuses to send.
func rawExchange(base, raw string) (*http.Response, string) {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", strings.TrimPrefix(base, "http://"))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	defer func() { _ = conn.Close() }()
	ExpectWithOffset(1, conn.SetDeadline(time.Now().Add(10*time.Second))).To(Succeed())
	_, err = io.WriteString(conn, raw)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	body, err := io.ReadAll(resp.Body)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return resp, string(body)
}

var _ = Describe("Hostile input", Ordered, ContinueOnFailure, func() {
	var (
		base  string
		calls *apiCalls
		ns    string
		cust  apiobject.Customer
	)
	BeforeAll(func() {
		base, calls = startCountingAdapter(Options{RateLimit: -1})
		ns = newWorkspace()
		Eventually(func() int {
			resp := send(http.MethodPost, "/v1/customers", on(base), inWorkspace(ns), withJSON(customerBody()))
			if resp.status == http.StatusCreated {
				cust = resp.customer()
			}
			return resp.status
		}).Should(Equal(http.StatusCreated))
	})

	It("records the API calls of a valid request, so that their absence means something", func() {
		n := calls.count()
		resp := send(http.MethodPost, "/v1/invoices", on(base), inWorkspace(ns), withJSON(invoiceBody(cust.ID)))
		Expect(resp.status).To(Equal(http.StatusCreated))
		Expect(objectCalls(calls.since(n))).To(ContainElement(
			"POST /apis/billing.invoicing.dev/v1/namespaces/" + ns + "/invoices"))
	})

	DescribeTable("answers hostile input with its documented 4xx, without an API call on objects",
		func(method, path string, status int, code, param string, opts ...reqOpt) {
			n := calls.count()
			resp := send(method, path, append([]reqOpt{on(base), inWorkspace(ns)}, opts...)...)
			Expect(resp.status).To(Equal(status), "body: %s", resp.body)
			Expect(resp.apiErr().Code).To(Equal(code))
			Expect(resp.apiErr().Param).To(Equal(param))
			Expect(objectCalls(calls.since(n))).To(BeEmpty())
		},
		Entry("an id climbing out with encoded slashes", http.MethodGet, "/v1/invoices/..%2F..%2Fsecrets",
			http.StatusNotFound, CodeResourceMissing, "invoice_id"),
		Entry("an id climbing out, all encoded", http.MethodGet, "/v1/invoices/%2e%2e%2f%2e%2e%2fsecrets",
			http.StatusNotFound, CodeResourceMissing, "invoice_id"),
		Entry("an id of two encoded dots", http.MethodGet, "/v1/customers/%2e%2e",
			http.StatusNotFound, CodeResourceMissing, "customer_id"),
		Entry("an id with an encoded slash", http.MethodGet, "/v1/customers/a%2Fb",
			http.StatusNotFound, CodeResourceMissing, "customer_id"),
		Entry("an id that is not a Kubernetes name", http.MethodGet, "/v1/customers/Not_A_Name",
			http.StatusNotFound, CodeResourceMissing, "customer_id"),
		Entry("an id with a NUL", http.MethodGet, "/v1/customers/a%00b",
			http.StatusNotFound, CodeResourceMissing, "customer_id"),
		Entry("an id of 254 characters", http.MethodGet, "/v1/invoices/"+strings.Repeat("a", 254),
			http.StatusNotFound, CodeResourceMissing, "invoice_id"),
		Entry("a path climbing out with .. segments", http.MethodGet, "/v1/invoices/../../secrets",
			http.StatusNotFound, CodePathUnknown, ""),
		Entry("a path with a . segment", http.MethodGet, "/v1/customers/./cus-1",
			http.StatusNotFound, CodePathUnknown, ""),
		Entry("a path with an empty segment", http.MethodGet, "/v1//customers",
			http.StatusNotFound, CodePathUnknown, ""),
		Entry("a customer id climbing out", http.MethodPost, "/v1/invoices",
			http.StatusUnprocessableEntity, CodeResourceMissing, "customer_id",
			withJSON(invoiceBody("../../secrets"))),
		Entry("a customer id that is not a Kubernetes name", http.MethodPost, "/v1/invoices",
			http.StatusUnprocessableEntity, CodeResourceMissing, "customer_id",
			withJSON(invoiceBody("Not A Name"))),
		Entry("a NUL, escaped, in a name", http.MethodPost, "/v1/customers",
			http.StatusUnprocessableEntity, CodeParameterInvalid, "name",
			withBody(`{"name": "Ada\u0000Lovelace", "email": "ada@example.com"}`)),
		Entry("a NUL byte in the body", http.MethodPost, "/v1/customers",
			http.StatusBadRequest, CodeBodyInvalid, "",
			withBody("{\"name\": \"Ada\x00\", \"email\": \"ada@example.com\"}")),
		Entry("invalid UTF-8", http.MethodPost, "/v1/customers",
			http.StatusBadRequest, CodeBodyInvalid, "",
			withBody("{\"name\": \"\xc3\x28\", \"email\": \"ada@example.com\"}")),
		Entry("a name of 257 characters", http.MethodPost, "/v1/customers",
			http.StatusUnprocessableEntity, CodeParameterInvalid, "name",
			withJSON(customerBody(set("name", strings.Repeat("é", 257))))),
		Entry("a description of 1001 characters", http.MethodPost, "/v1/invoices",
			http.StatusUnprocessableEntity, CodeParameterInvalid, "items[0].description",
			withJSON(invoiceBody("cus-1", set("items", []any{item(strings.Repeat("d", 1001), 1, 1)})))),
		Entry("an e-mail of 255 characters", http.MethodPost, "/v1/customers",
			http.StatusUnprocessableEntity, CodeParameterInvalid, "email",
			withJSON(customerBody(set("email", strings.Repeat("a", 243)+"@example.com")))),
		Entry("501 items", http.MethodPost, "/v1/invoices",
			http.StatusUnprocessableEntity, CodeParameterInvalid, "items",
			withBody(`{"customer_id": "cus-1", "items": [`+items(501)+`]}`)),
		Entry("more JSON values than any valid invoice has", http.MethodPost, "/v1/invoices",
			http.StatusBadRequest, CodeBodyInvalid, "",
			withBody(`{"customer_id": "cus-1", "items": [`+strings.Repeat("0,", 200_000)+`0]}`)),
		Entry("nesting nine deep", http.MethodPost, "/v1/invoices",
			http.StatusBadRequest, CodeBodyInvalid, "",
			withBody(`{"customer_id": "cus-1", "items": [[[[[[[[1]]]]]]]]}`)),
		Entry("nesting 100,000 deep", http.MethodPost, "/v1/invoices",
			http.StatusBadRequest, CodeBodyInvalid, "",
			withBody(`{"items": `+strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000)+`}`)),
		Entry("a body one byte over 1 MiB", http.MethodPost, "/v1/customers",
			http.StatusRequestEntityTooLarge, CodeBodyTooLarge, "",
			withBody(`{"name": "`+strings.Repeat("a", MaxBodyBytes-11)+`"}`)),
		Entry("an Idempotency-Key of 256 characters", http.MethodPost, "/v1/customers",
			http.StatusBadRequest, CodeParameterInvalid, IdempotencyKeyHeader,
			withJSON(customerBody()), withIdempotencyKey(strings.Repeat("k", 256))),
		Entry("an Idempotency-Key that is not ASCII", http.MethodPost, "/v1/customers",
			http.StatusBadRequest, CodeParameterInvalid, IdempotencyKeyHeader,
			withJSON(customerBody()), withIdempotencyKey("ключ")),
		Entry("an Idempotency-Key sent twice", http.MethodPost, "/v1/customers",
			http.StatusBadRequest, CodeParameterInvalid, IdempotencyKeyHeader,
			withJSON(customerBody()), withIdempotencyKey("a"), withIdempotencyKey("b")),
	)

	It("refuses the cursor of another workspace or resource with 400, before any API call", func() {
		for _, c := range []struct{ path, cursor string }{
			{"/v1/customers", encodeCursor(listScope{workspace: nsAlpha, resource: resourceCustomers}, "a")},
			{"/v1/invoices", encodeCursor(listScope{workspace: ns, resource: resourceCustomers}, "a")},
		} {
			n := calls.count()
			resp := send(http.MethodGet, c.path+"?cursor="+url.QueryEscape(c.cursor), on(base), inWorkspace(ns))
			Expect(resp.status).To(Equal(http.StatusBadRequest))
			Expect(resp.apiErr().Code).To(Equal(CodeParameterInvalid))
			Expect(resp.apiErr().Param).To(Equal(queryCursor))
			Expect(objectCalls(calls.since(n))).To(BeEmpty())
		}
	})

	It("refuses a workspace header that climbs out before any API call", func() {
		n := calls.count()
		resp := send(http.MethodGet, "/v1/customers", on(base), inWorkspace("../"+nsAlpha))
		Expect(resp.status).To(Equal(http.StatusBadRequest))
		Expect(resp.apiErr().Param).To(Equal(WorkspaceHeader))
		Expect(objectCalls(calls.since(n))).To(BeEmpty())
	})

	It("lists nothing, from the cache, for a customer_id filter that is no name", func() {
		n := calls.count()
		resp := send(http.MethodGet, "/v1/invoices?customer_id="+url.QueryEscape("../../secrets"), on(base), inWorkspace(ns))
		Expect(resp.status).To(Equal(http.StatusOK))
		Expect(resp.invoices().Data).To(BeEmpty())
		Expect(objectCalls(calls.since(n))).To(BeEmpty())
	})

	It("walks its own list with cursors made by another adapter process", func() {
		for range 2 {
			Expect(send(http.MethodPost, "/v1/customers", on(base), inWorkspace(ns), withJSON(customerBody())).status).
				To(Equal(http.StatusCreated))
		}
		first := send(http.MethodGet, "/v1/customers?limit=1", inWorkspace(ns)).customers() // the main adapter
		Expect(first.NextCursor).NotTo(BeNil())
		next := send(http.MethodGet, "/v1/customers?limit=1&cursor="+url.QueryEscape(*first.NextCursor), on(base), inWorkspace(ns))
		Expect(next.status).To(Equal(http.StatusOK))
		Expect(next.customers().Data[0].ID > first.Data[0].ID).To(BeTrue())
	})

	It("answers headers past 64 KiB with net/http's plain 431, before authentication", func() {
		n := calls.count()
		resp, body := rawExchange(base, "GET /v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+writerToken+
			"\r\nX-Padding: "+strings.Repeat("p", 80<<10)+"\r\n\r\n")
		Expect(resp.StatusCode).To(Equal(http.StatusRequestHeaderFieldsTooLarge))
		Expect(body).To(ContainSubstring("Request Header Fields Too Large"))
		Expect(calls.since(n)).To(BeEmpty())
	})

	It("serves headers just under 64 KiB", func() {
		resp := send(http.MethodGet, "/v1/customers", on(base), inWorkspace(ns),
			withHeader("X-Padding", strings.Repeat("p", 60<<10)))
		Expect(resp.status).To(Equal(http.StatusOK))
	})

	It("answers a bearer token of 60 KiB with 401", func() {
		resp := send(http.MethodGet, "/v1/customers", on(base), as(strings.Repeat("t", 60<<10)))
		Expect(resp.status).To(Equal(http.StatusUnauthorized))
		Expect(resp.apiErr().Code).To(Equal(CodeTokenInvalid))
	})

	DescribeTable("answers malformed HTTP with net/http's plain 400, before authentication",
		func(raw string) {
			n := calls.count()
			resp, _ := rawExchange(base, raw)
			Expect(resp.StatusCode).To(Equal(http.StatusBadRequest))
			Expect(calls.since(n)).To(BeEmpty())
		},
		Entry("a NUL in a header value", "GET /v1/customers HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\x00b\r\n\r\n"),
		Entry("a NUL in the path", "GET /v1/customers/a\x00b HTTP/1.1\r\nHost: x\r\n\r\n"),
		Entry("a header name with a space", "GET /v1/customers HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n"),
		Entry("no Host header", "GET /v1/customers HTTP/1.1\r\n\r\n"),
	)
})

var _ = Describe("Slow clients", func() {
	It("serves others while many connections trickle their headers, and cuts those at the header timeout", func() {
		const slow = 40
		const headerTimeout = 500 * time.Millisecond
		base := startAdapter(adapterCfg, Options{RateLimit: -1, ReadHeaderTimeout: headerTimeout, ReadTimeout: 2 * time.Second})
		Eventually(func() int { return send(http.MethodGet, "/readyz", on(base)).status }).Should(Equal(http.StatusOK))

		trickleCtx, stop := context.WithCancel(ctx)
		defer stop()
		cut := make(chan time.Duration, slow)
		answers := make(chan string, slow)
		var wg sync.WaitGroup
		for range slow {
			wg.Go(func() {
				defer GinkgoRecover()
				d, answer := trickle(trickleCtx, base, "GET /v1/customers HTTP/1.1\r\nHost: x\r\nX-Slow: "+strings.Repeat("s", 1000))
				cut <- d
				answers <- answer
			})
		}
		By("serving other clients meanwhile")
		for range 10 {
			start := time.Now()
			Expect(send(http.MethodGet, "/v1/customers", on(base)).status).To(Equal(http.StatusOK))
			Expect(time.Since(start)).To(BeNumerically("<", time.Second))
		}
		wg.Wait()
		close(cut)
		close(answers)
		By("closing every slow connection, without an answer, soon after the header timeout")
		for answer := range answers {
			Expect(answer).To(BeEmpty())
		}
		Expect(cut).To(HaveLen(slow))
		for d := range cut {
			Expect(d).To(BeNumerically(">=", headerTimeout-50*time.Millisecond))
			Expect(d).To(BeNumerically("<", headerTimeout+2*time.Second))
		}
	})

	It("cuts a request whose body trickles at the read timeout with 400 body_invalid", func() {
		const readTimeout = time.Second
		base := startAdapter(adapterCfg, Options{RateLimit: -1, ReadTimeout: readTimeout})
		Eventually(func() int { return send(http.MethodGet, "/readyz", on(base)).status }).Should(Equal(http.StatusOK))
		head := "POST /v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + writerToken +
			"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"name\": \""
		d, answer := trickle(ctx, base, head)
		Expect(d).To(BeNumerically(">=", readTimeout-50*time.Millisecond))
		Expect(d).To(BeNumerically("<", readTimeout+2*time.Second))
		Expect(answer).To(HavePrefix("HTTP/1.1 400 "))
		Expect(answer).To(ContainSubstring(`"code":"body_invalid"`))
		Expect(send(http.MethodGet, "/v1/customers", on(base)).status).To(Equal(http.StatusOK))
	})
})

// trickle sends head on a new connection to base at once, then one byte
// every 50 ms until the server closes the connection or ctx ends, and
// returns how long the server took to close it and what it answered.
func trickle(ctx context.Context, base, head string) (time.Duration, string) {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", strings.TrimPrefix(base, "http://"))
	Expect(err).NotTo(HaveOccurred())
	defer func() { _ = conn.Close() }()
	start := time.Now()
	Expect(conn.SetDeadline(start.Add(10 * time.Second))).To(Succeed())
	_, err = io.WriteString(conn, head)
	Expect(err).NotTo(HaveOccurred())
	closed := make(chan struct{})
	var answer []byte
	go func() {
		defer close(closed)
		answer, _ = io.ReadAll(conn) // until the server closes (or answers and closes)
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-closed:
			return time.Since(start), string(answer)
		case <-ctx.Done():
			Fail("the connection was not closed")
		case <-tick.C:
			if _, err := conn.Write([]byte("x")); err != nil {
				<-closed
				return time.Since(start), string(answer)
			}
		}
	}
}

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

var _ = Describe("Revoked access", func() {
	// createStatus creates a customer in ns on base as the writer.
	createStatus := func(base, ns string) int {
		return send(http.MethodPost, "/v1/customers", on(base), inWorkspace(ns), withJSON(customerBody())).status
	}

	It("refuses creates within AllowCacheTTL of the RoleBinding's deletion, and not before the cache says so", func() {
		const ttl = time.Second
		short := startAdapter(adapterCfg, Options{RateLimit: -1, AllowCacheTTL: ttl, DenyCacheTTL: ttl})
		long := startAdapter(adapterCfg, Options{RateLimit: -1, AllowCacheTTL: time.Minute})
		ns := newWorkspace()
		for _, base := range []string{short, long} {
			Eventually(func() int { return createStatus(base, ns) }).Should(Equal(http.StatusCreated))
		}

		Expect(clientset.RbacV1().RoleBindings(ns).Delete(ctx, "billing-alpha-writer", metav1.DeleteOptions{})).To(Succeed())
		revoked := time.Now()
		By("still allowing creates on the adapter that caches the allowed answer for a minute")
		Expect(createStatus(long, ns)).To(Equal(http.StatusCreated))

		By("refusing creates on the adapter with a short TTL once it has passed")
		// The margin is for the API server's own RBAC informer to see the deletion.
		const margin = 2 * time.Second
		lastCreated := revoked
		Eventually(func() int {
			status := createStatus(short, ns)
			if status == http.StatusCreated {
				lastCreated = time.Now()
			}
			return status
		}).WithTimeout(ttl + margin).WithPolling(20 * time.Millisecond).Should(Equal(http.StatusForbidden))
		Expect(lastCreated.Sub(revoked)).To(BeNumerically("<", ttl+margin))
		Consistently(func() int { return createStatus(short, ns) }).WithTimeout(ttl + 200*time.Millisecond).
			WithPolling(100 * time.Millisecond).Should(Equal(http.StatusForbidden))
	})
})

var _ = Describe("Rate limiting", func() {
	It("keeps serving one identity while another floods, and answers the flood 429 with Retry-After", func() {
		const perSecond, burst = 5, 5
		limited := startAdapter(adapterCfg, Options{RateLimit: perSecond, RateBurst: burst})
		Eventually(func() int { return send(http.MethodGet, "/readyz", on(limited)).status }).Should(Equal(http.StatusOK))

		const flood = 2 * time.Second
		start := time.Now()
		var ok, limitedCount atomic.Int32
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				defer GinkgoRecover()
				for i := 0; i < 300 && time.Since(start) < flood; i++ {
					resp := send(http.MethodGet, "/v1/customers", on(limited))
					switch resp.status {
					case http.StatusOK:
						ok.Add(1)
					case http.StatusTooManyRequests:
						limitedCount.Add(1)
						Expect(resp.apiErr().Type).To(Equal("rate_limit_error"))
						Expect(strconv.Atoi(resp.header.Get("Retry-After"))).To(BeNumerically(">=", 1))
					default:
						Fail(fmt.Sprintf("the flood got %d: %s", resp.status, resp.body))
					}
				}
			})
		}
		By("serving the quiet identity throughout")
		quiet := 0
		for time.Since(start) < flood {
			Expect(send(http.MethodGet, "/v1/customers", on(limited), as(readerToken)).status).To(Equal(http.StatusOK))
			quiet++
			time.Sleep(250 * time.Millisecond)
		}
		wg.Wait()
		elapsed := time.Since(start)
		Expect(quiet).To(BeNumerically(">=", 4))
		Expect(limitedCount.Load()).To(BeNumerically(">", 0))
		Expect(ok.Load()).To(BeNumerically("<=", burst+int(perSecond*elapsed.Seconds())+1))
	})
})
