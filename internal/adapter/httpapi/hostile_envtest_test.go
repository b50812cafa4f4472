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
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"

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
