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
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Slow clients: connections that trickle their headers or body are cut at
// the server's timeouts, and others are served meanwhile.

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
