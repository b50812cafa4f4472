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
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// readyCondition returns the profile's Ready condition as the API server has it.
func readyCondition(g Gomega, p *billingv1.BillingProfile) *metav1.Condition {
	current := &billingv1.BillingProfile{}
	g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), current)).To(Succeed())
	g.Expect(current.Status.ObservedGeneration).To(Equal(current.Generation))
	return meta.FindStatusCondition(current.Status.Conditions, billingv1.ConditionReady)
}

// Until the suite's manager runs the BillingProfile controller, these specs
// run it in a manager of their own on the suite's API server.
var _ = Describe("BillingProfile controller", Ordered, func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	It("reports the profile named default Ready with the defaults filled in", func() {
		profile := builder.BillingProfile(ns, billingv1.DefaultBillingProfileName)
		Expect(k8sClient.Create(ctx, profile)).To(Succeed())
		Expect(profile.Spec.NumberPrefix).To(HaveValue(Equal(billingv1.DefaultNumberPrefix)))
		Expect(profile.Spec.PaymentTermsDays).To(HaveValue(BeEquivalentTo(billingv1.DefaultPaymentTermsDays)))
		Eventually(func(g Gomega) {
			ready := readyCondition(g, profile)
			g.Expect(ready).NotTo(BeNil())
			g.Expect(ready.Status).To(Equal(metav1.ConditionTrue))
			g.Expect(ready.Reason).To(Equal(billingv1.ReasonDefault))
		}).Should(Succeed())
	})

	It("reports a profile of another name not Ready with reason NotDefault", func() {
		profile := builder.BillingProfile(ns, "acme")
		Expect(k8sClient.Create(ctx, profile)).To(Succeed())
		Eventually(func(g Gomega) {
			ready := readyCondition(g, profile)
			g.Expect(ready).NotTo(BeNil())
			g.Expect(ready.Status).To(Equal(metav1.ConditionFalse))
			g.Expect(ready.Reason).To(Equal(billingv1.ReasonNotDefault))
		}).Should(Succeed())
	})

	It("follows an edited profile's generation", func() {
		profile := builder.BillingProfile(ns, billingv1.DefaultBillingProfileName)
		Expect(k8sClient.Create(ctx, profile)).To(Succeed())
		Eventually(func(g Gomega) { g.Expect(readyCondition(g, profile)).NotTo(BeNil()) }).Should(Succeed())
		before := profile.DeepCopy()
		profile.Spec.Footer = "Thank you for your business."
		Expect(k8sClient.Patch(ctx, profile, client.MergeFrom(before))).To(Succeed())
		Expect(profile.Generation).To(BeNumerically(">", before.Generation))
		Eventually(func(g Gomega) {
			g.Expect(readyCondition(g, profile).ObservedGeneration).To(Equal(profile.Generation))
		}).Should(Succeed())
	})
})

var _ = Describe("BillingProfile API", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	It("keeps an explicitly empty prefix and zero payment terms", func() {
		profile := builder.BillingProfile(ns, "default", func(p *billingv1.BillingProfile) {
			p.Spec.NumberPrefix = ptr.To("")
			p.Spec.PaymentTermsDays = ptr.To[int32](0)
		})
		Expect(k8sClient.Create(ctx, profile)).To(Succeed())
		current := &billingv1.BillingProfile{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(profile), current)).To(Succeed())
		Expect(current.Spec.NumberPrefix).To(HaveValue(BeEmpty()))
		Expect(current.Spec.PaymentTermsDays).To(HaveValue(BeZero()))
	})

	It("accepts a complete issuer", func() {
		Expect(k8sClient.Create(ctx, builder.BillingProfile(ns, "default", builder.WithIssuer(billingv1.Issuer{
			Name:  "Example GmbH",
			Email: "billing@example.com",
			TaxID: "DE123456789",
			Address: &billingv1.Address{
				Line1: "Friedrichstrasse 1", Line2: "3rd floor", City: "Berlin", PostalCode: "10117",
				State: "Berlin", Country: "DE",
			},
		}), func(p *billingv1.BillingProfile) {
			p.Spec.NumberPrefix = ptr.To("2026/A.-")
			p.Spec.PaymentTermsDays = ptr.To[int32](365)
			p.Spec.Footer = strings.Repeat("x", 2000)
		}))).To(Succeed())
	})

	DescribeTable("refuses an invalid profile, naming the field",
		func(field string, change func(*billingv1.BillingProfile)) {
			err := k8sClient.Create(ctx, builder.BillingProfile(ns, "default", change))
			Expect(err).To(MatchError(ContainSubstring(field)))
		},
		Entry("a user-assigned country code", "spec.issuer.address.country",
			builder.WithIssuer(billingv1.Issuer{Name: "Example", Address: &billingv1.Address{Country: "ZZ"}})),
		Entry("a lower-case country code", "spec.issuer.address.country",
			builder.WithIssuer(billingv1.Issuer{Name: "Example", Address: &billingv1.Address{Country: "de"}})),
		Entry("a three-letter country code", "spec.issuer.address.country",
			builder.WithIssuer(billingv1.Issuer{Name: "Example", Address: &billingv1.Address{Country: "DEU"}})),
		Entry("an issuer without a name", "spec.issuer.name",
			builder.WithIssuer(billingv1.Issuer{Email: "billing@example.com"})),
		Entry("an issuer name of 257 characters", "spec.issuer.name",
			builder.WithIssuer(billingv1.Issuer{Name: strings.Repeat("n", 257)})),
		Entry("an issuer e-mail that is not an address", "spec.issuer.email",
			builder.WithIssuer(billingv1.Issuer{Name: "Example", Email: "Example <billing@example.com>"})),
		Entry("a tax id of 65 characters", "spec.issuer.taxId",
			builder.WithIssuer(billingv1.Issuer{Name: "Example", TaxID: strings.Repeat("1", 65)})),
		Entry("a prefix with a lower-case letter", "spec.numberPrefix",
			func(p *billingv1.BillingProfile) { p.Spec.NumberPrefix = ptr.To("inv-") }),
		Entry("a prefix with a space", "spec.numberPrefix",
			func(p *billingv1.BillingProfile) { p.Spec.NumberPrefix = ptr.To("INV ") }),
		Entry("a prefix of 21 characters", "spec.numberPrefix",
			func(p *billingv1.BillingProfile) { p.Spec.NumberPrefix = ptr.To(strings.Repeat("A", 21)) }),
		Entry("negative payment terms", "spec.paymentTermsDays",
			func(p *billingv1.BillingProfile) { p.Spec.PaymentTermsDays = ptr.To[int32](-1) }),
		Entry("payment terms of 366 days", "spec.paymentTermsDays",
			func(p *billingv1.BillingProfile) { p.Spec.PaymentTermsDays = ptr.To[int32](366) }),
		Entry("a footer of 2001 characters", "spec.footer",
			func(p *billingv1.BillingProfile) { p.Spec.Footer = strings.Repeat("x", 2001) }),
	)
})
