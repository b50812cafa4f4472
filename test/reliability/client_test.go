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

package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// client is the /v1 client of one adapter with a pool of keep-alive
// connections big enough for every worker, so that the connection count
// (and with it the server's goroutines) does not churn.
type client struct {
	http *http.Client
	api  *v1client.Client
}

func newClient(base string, workers int, timeout time.Duration) *client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = workers
	hc := &http.Client{Transport: transport, Timeout: timeout}
	return &client{http: hc, api: v1client.New(base, hc)}
}

// result is one exchange: the answer, or the transport error, and when.
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
	var body []byte
	if cl.body != nil {
		var err error
		body, err = json.Marshal(cl.body)
		Expect(err).NotTo(HaveOccurred())
	}
	opts := []v1client.Option{v1client.Token(cl.token)}
	if cl.workspace != "" {
		opts = append(opts, v1client.Workspace(cl.workspace))
	}
	if cl.key != "" {
		opts = append(opts, v1client.IdempotencyKey(cl.key))
	}
	resp, err := c.api.Do(context.Background(), method, path, body, opts...)
	r.took = time.Since(r.start)
	if err != nil {
		r.err = err
		return r
	}
	r.status, r.header, r.body = resp.Status, resp.Header, resp.Body
	return r
}

func (r result) String() string {
	if r.err != nil {
		return fmt.Sprintf("%s %s at %s after %s: %v", r.method, r.path, r.start.Format("15:04:05.000"), r.took, r.err)
	}
	return fmt.Sprintf("%s %s at %s after %s: %d %s", r.method, r.path, r.start.Format("15:04:05.000"), r.took,
		r.status, bytes.TrimSpace(r.body))
}

func (r result) response() *v1client.Response {
	return &v1client.Response{Status: r.status, Header: r.header, Body: r.body}
}

// apiError is the answer's error object; empty for an answer that has none.
func (r result) apiError() v1client.Error {
	if e := r.response().Err(); e != nil {
		return *e
	}
	return v1client.Error{}
}

// id is the id of the object a 200 or 201 returned.
func (r result) id() string {
	var o struct {
		ID string `json:"id"`
	}
	Expect(r.response().Decode(&o)).To(Succeed(), "%s", r)
	return o.ID
}

// isUnavailable reports whether r is the documented answer to an API server
// that cannot be reached: 503 api_error api_unavailable with a Retry-After
// of at least one second.
func (r result) isUnavailable() bool {
	e := r.apiError()
	return r.err == nil && r.status == http.StatusServiceUnavailable && e.Type == "api_error" &&
		e.Code == httpapi.CodeAPIUnavailable && r.response().RetryAfter() >= 1
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

func invoiceFor(customer string, amount int64) v1client.InvoiceParams {
	return v1client.InvoiceParams{CustomerID: customer, Items: []v1client.Item{{Description: "Work", Quantity: billingv1.Units(1), Amount: amount}}}
}

func aCustomer(n int) v1client.CustomerParams {
	return v1client.CustomerParams{Name: fmt.Sprintf("Customer %d", n), Email: fmt.Sprintf("billing-%d@example.com", n)}
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
