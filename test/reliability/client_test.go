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

package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/httpapi"
)

// client is an HTTP client of one adapter with a pool of keep-alive
// connections big enough for every worker, so that the connection count
// (and with it the server's goroutines) does not churn.
type client struct {
	base string
	http *http.Client
}

func newClient(base string, workers int, timeout time.Duration) *client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = workers
	return &client{base: base, http: &http.Client{Transport: transport, Timeout: timeout}}
}

// result is one exchange: the answer, or the transport error.
type result struct {
	method, path string
	start        time.Time
	took         time.Duration
	err          error
	status       int
	header       http.Header
	body         []byte
}

// call is a request of a caller in a workspace.
type call struct {
	token, workspace string
	key              string // Idempotency-Key, if any
	body             any
}

func (c *client) do(method, path string, cl call) result {
	r := result{method: method, path: path, start: time.Now()}
	var body io.Reader
	if cl.body != nil {
		b, err := json.Marshal(cl.body)
		Expect(err).NotTo(HaveOccurred())
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, c.base+path, body)
	Expect(err).NotTo(HaveOccurred())
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if cl.token != "" {
		req.Header.Set("Authorization", "Bearer "+cl.token)
	}
	if cl.workspace != "" {
		req.Header.Set(httpapi.WorkspaceHeader, cl.workspace)
	}
	if cl.key != "" {
		req.Header.Set(httpapi.IdempotencyKeyHeader, cl.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		r.err = err
		r.took = time.Since(r.start)
		return r
	}
	defer func() { _ = resp.Body.Close() }()
	r.status, r.header = resp.StatusCode, resp.Header
	r.body, r.err = io.ReadAll(resp.Body)
	r.took = time.Since(r.start)
	return r
}

func (r result) String() string {
	if r.err != nil {
		return fmt.Sprintf("%s %s at %s after %s: %v", r.method, r.path, r.start.Format("15:04:05.000"), r.took, r.err)
	}
	return fmt.Sprintf("%s %s at %s after %s: %d %s", r.method, r.path, r.start.Format("15:04:05.000"), r.took,
		r.status, bytes.TrimSpace(r.body))
}

// errorFields is the error envelope's content.
type errorFields struct {
	Type string `json:"type"`
	Code string `json:"code"`
}

func (r result) apiError() errorFields {
	var e struct {
		Error errorFields `json:"error"`
	}
	_ = json.Unmarshal(r.body, &e)
	return e.Error
}

// id is the id of the object a 200 or 201 returned.
func (r result) id() string {
	var o struct {
		ID string `json:"id"`
	}
	Expect(json.Unmarshal(r.body, &o)).To(Succeed(), "%s", r)
	return o.ID
}

// retryAfter is the Retry-After of the answer, 0 when it has none.
func (r result) retryAfter() int {
	n, _ := strconv.Atoi(r.header.Get("Retry-After"))
	return n
}

// isUnavailable reports whether r is the documented answer to an API server
// that cannot be reached: 503 api_error api_unavailable with a Retry-After
// of at least one second.
func (r result) isUnavailable() bool {
	e := r.apiError()
	return r.err == nil && r.status == http.StatusServiceUnavailable && e.Type == "api_error" &&
		e.Code == httpapi.CodeAPIUnavailable && r.retryAfter() >= 1
}

// probeStatus GETs an unauthenticated endpoint and returns the status.
func probeStatus(url string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// Request bodies.

type item struct {
	Description string `json:"description"`
	Quantity    int64  `json:"quantity"`
	Amount      int64  `json:"amount"`
}

type invoiceBody struct {
	CustomerID string `json:"customer_id"`
	Items      []item `json:"items"`
}

func invoiceFor(customer string, amount int64) invoiceBody {
	return invoiceBody{CustomerID: customer, Items: []item{{Description: "Work", Quantity: 1, Amount: amount}}}
}

type customerBody struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

func aCustomer(n int) customerBody {
	return customerBody{Name: fmt.Sprintf("Customer %d", n), Email: fmt.Sprintf("billing-%d@example.com", n)}
}

// createCustomers creates n customers in ws through the adapter at base
// and returns their ids.
func createCustomers(c *client, ws string, n int) []string {
	GinkgoHelper()
	var ids []string
	for i := range n {
		var r result
		Eventually(func() int {
			r = c.do(http.MethodPost, "/v1/customers", call{token: tokens[callers[0]], workspace: ws, body: aCustomer(i)})
			return r.status
		}).Should(Equal(http.StatusCreated), "%s", &r)
		ids = append(ids, r.id())
	}
	return ids
}

// expectInvoicesExist checks that every id names an invoice in ws.
func expectInvoicesExist(ws string, ids []string) {
	GinkgoHelper()
	for _, id := range ids {
		err := k8s.Get(ctx, types.NamespacedName{Namespace: ws, Name: id}, &billingv1.Invoice{})
		Expect(apierrors.IsNotFound(err)).To(BeFalse(), "invoice %s was answered 201 but does not exist", id)
		Expect(err).NotTo(HaveOccurred())
	}
}
