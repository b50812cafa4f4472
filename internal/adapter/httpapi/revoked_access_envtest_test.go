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
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A caller whose access is revoked is refused once the authorizer's cache
// says so.

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
