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
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// One caller's flood of requests does not starve another: the rate limit
// is per identity.

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
