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

package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// newIdempotencyKey returns an IdempotencyKey that expires at expiresAt.
func newIdempotencyKey(ns, name string, expiresAt time.Time) *billingv1.IdempotencyKey {
	hash := sha256.Sum256([]byte("POST /v1/invoices " + name))
	return &billingv1.IdempotencyKey{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.IdempotencyKeySpec{
			RequestHash: hex.EncodeToString(hash[:]),
			Resource:    "invoices",
			ObjectName:  "inv-" + name,
			ExpiresAt:   metav1.NewTime(expiresAt),
		},
	}
}

// toUnstructured converts a typed object to an unstructured one that keeps
// its kind, so a spec can change its JSON in ways the Go types cannot
// express (a missing field, a fractional number).
func toUnstructured(obj client.Object) *unstructured.Unstructured {
	GinkgoHelper()
	gvks, _, err := testScheme.ObjectKinds(obj)
	Expect(err).NotTo(HaveOccurred())
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	Expect(err).NotTo(HaveOccurred())
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(gvks[0])
	return u
}

// getInvoice reads an invoice from the API server.
func getInvoice(g Gomega, inv *billingv1.Invoice) *billingv1.Invoice {
	current := &billingv1.Invoice{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(inv), current)).To(Succeed())
	return current
}

// getCustomer reads a customer from the API server.
func getCustomer(g Gomega, c *billingv1.Customer) *billingv1.Customer {
	current := &billingv1.Customer{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(c), current)).To(Succeed())
	return current
}
