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
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

// kubectlTimeout bounds each kubectl run.
const kubectlTimeout = time.Minute

// kubectl runs the kubectl built with the control plane against the test API
// server as an admin, and returns its combined output. A missing binary fails
// the spec.
func kubectl(args ...string) (string, error) {
	GinkgoHelper()
	path := filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kubectl")
	Expect(path).To(BeAnExistingFile(), "kubectl must be built next to kube-apiserver (make envtest-binaries)")
	runCtx, cancel := context.WithTimeout(ctx, kubectlTimeout)
	defer cancel()
	args = append([]string{"--kubeconfig", kubeconfigPath}, args...)
	out, err := exec.CommandContext(runCtx, path, args...).CombinedOutput()
	return string(out), err
}

// normalizeSpace collapses runs of white space, so wrapped output reads as one line.
func normalizeSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

var _ = Describe("kubectl", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace()
	})

	It("explains the fields of an invoice's line items", func() {
		// The API server publishes a new CRD's OpenAPI document a moment
		// after the CRD is established.
		Eventually(func(g Gomega) {
			out, err := kubectl("explain", "invoice.spec.items")
			g.Expect(err).NotTo(HaveOccurred(), out)
			text := normalizeSpace(out)
			g.Expect(text).To(ContainSubstring("KIND: Invoice"))
			g.Expect(text).To(ContainSubstring(
				"items are the invoice's line items, 1 to 500 of them, in the order they are printed."))
			g.Expect(text).To(ContainSubstring(
				"description <string> -required- description says what is billed, for example \"Consulting, March\". 1 to 1000 characters."))
			g.Expect(text).To(ContainSubstring(
				"quantity <number> -required- quantity is how many units are billed (BT-129): a number above 0 and at most 1,000,000 with at most 4 decimal places, such as 3, 7.5 or 0.25."))
			g.Expect(text).To(ContainSubstring(
				"amount <integer> -required- amount is the price of one unit in minor units of the invoice's currency (cents for USD): a whole number from 0 to 1,000,000,000,000."))
		}).Should(Succeed())
	})

	It("explains the tax of a line item", func() {
		Eventually(func(g Gomega) {
			out, err := kubectl("explain", "invoice.spec.items.tax")
			g.Expect(err).NotTo(HaveOccurred(), out)
			text := normalizeSpace(out)
			g.Expect(text).To(ContainSubstring("tax is the line's tax."))
			g.Expect(text).To(ContainSubstring("category <string> -required- enum: S, Z, E, AE, ...."))
			g.Expect(text).To(ContainSubstring(
				"rate is the tax rate in percent, a decimal from 0 to 100 with at most 4 decimals"))
			g.Expect(text).To(ContainSubstring("exemptionReason says why no tax is charged, printed on the invoice"))
		}).Should(Succeed())
	})

	It("explains the money of an invoice for people", func() {
		Eventually(func(g Gomega) {
			out, err := kubectl("explain", "invoice.status.display")
			g.Expect(err).NotTo(HaveOccurred(), out)
			text := normalizeSpace(out)
			g.Expect(text).To(ContainSubstring(
				"display is the invoice's total and what is left to pay for people, in the currency and its major units (\"USD 680.50\")"))
			g.Expect(text).To(ContainSubstring("amountRemaining <string>"))
			g.Expect(text).To(ContainSubstring("total <string>"))
		}).Should(Succeed())
	})

	It("waits for an issued invoice to be Ready, and times out on one that is not", func() {
		create(builder.Customer(ns, "acme"))
		issued := builder.Invoice(ns, "issued", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100))
		waiting := builder.Invoice(ns, "waiting", builder.WithCustomer("nobody"), builder.WithItem("Consulting", 1, 100))
		create(issued, waiting)

		out, err := kubectl("wait", "--namespace", ns, "--for=condition=Ready", "invoice/"+issued.Name, "--timeout=30s")
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).To(ContainSubstring("condition met"))

		waitForReady(waiting, billingv1.ReasonCustomerNotFound)
		out, err = kubectl("wait", "--namespace", ns, "--for=condition=Ready", "invoice/"+waiting.Name, "--timeout=2s")
		var exitErr *exec.ExitError
		Expect(errors.As(err, &exitErr)).To(BeTrue(), "want kubectl to exit non-zero, got %v: %s", err, out)
		Expect(exitErr.ExitCode()).NotTo(BeZero())
		Expect(out).To(ContainSubstring("timed out"))
	})

	It("shows every money column in its currency and major units, and a close's instant", func() {
		create(builder.Customer(ns, "acme"))
		usd := builder.Invoice(ns, "inv-usd", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 68_050))
		jpy := builder.Invoice(ns, "inv-jpy", builder.WithCustomer("acme"), builder.WithCurrency("JPY"),
			builder.WithItem("Consulting", 1, 500))
		kwd := builder.Invoice(ns, "inv-kwd", builder.WithCustomer("acme"), builder.WithCurrency("KWD"),
			builder.WithItem("Consulting", 1, 1_250))
		create(usd, jpy, kwd)
		for _, inv := range []*billingv1.Invoice{usd, jpy, kwd} {
			waitForReady(inv, billingv1.ReasonIssued)
		}
		pay := builder.Payment(ns, "pay-1", "inv-usd", 50_000)
		note := builder.CreditNote(ns, "cn-1", "inv-jpy", builder.WithFullCredit())
		closing := builder.PeriodClose(ns, "close-2020", "2020-12")
		create(pay, note, closing)
		waitForPayment(pay)
		waitForCreditNote(note, billingv1.CreditNoteIssued)
		waitForClose(closing, billingv1.PeriodCloseClosed)

		Eventually(func(g Gomega) {
			out, err := kubectl("get", "inv", "-n", ns)
			g.Expect(err).NotTo(HaveOccurred(), out)
			text := normalizeSpace(out)
			g.Expect(text).To(ContainSubstring("NAME NUMBER CUSTOMER TOTAL PHASE PAYMENT REMAINING AGE"))
			g.Expect(text).To(MatchRegexp(`inv-usd INV-\d+ acme USD 680\.50 Issued partially_paid USD 180\.50 `))
			g.Expect(text).To(MatchRegexp(`inv-jpy INV-\d+ acme JPY 500 Issued void JPY 0 `))
			g.Expect(text).To(MatchRegexp(`inv-kwd INV-\d+ acme KWD 1\.250 Issued open KWD 1\.250 `))
		}).Should(Succeed())
		out, err := kubectl("get", "pay,cn,pclose", "-n", ns)
		Expect(err).NotTo(HaveOccurred(), out)
		text := normalizeSpace(out)
		Expect(text).To(MatchRegexp(`pay-1 inv-usd USD 500\.00 \S+ Recorded `))
		Expect(text).To(MatchRegexp(`cn-1 \S+ inv-jpy JPY 500 Issued `))
		Expect(text).To(ContainSubstring("close-2020 2020-12 2020-12-31T23:59:59Z Closed"))
	})

	It("writes the money columns of an invoice and a payment settled before they had them", func() {
		create(builder.Customer(ns, "acme"))
		inv := builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 68_050))
		create(inv)
		waitForReady(inv, billingv1.ReasonIssued)
		pay := builder.Payment(ns, "pay-1", "inv-1", 50_000)
		create(pay)
		waitForPayment(pay)

		By("removing their status.display, as a manager before it left them")
		Eventually(func(g Gomega) {
			current := getInvoice(g, inv)
			g.Expect(current.Status.Display).NotTo(BeNil())
			before := current.DeepCopy()
			current.Status.Display = nil
			g.Expect(k8sClient.Status().Patch(ctx, current, client.MergeFromWithOptions(before,
				client.MergeFromWithOptimisticLock{}))).To(Succeed())
		}).Should(Succeed())
		Eventually(func(g Gomega) {
			current := &billingv1.Payment{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pay), current)).To(Succeed())
			before := current.DeepCopy()
			current.Status.Display = nil
			g.Expect(k8sClient.Status().Patch(ctx, current, client.MergeFromWithOptions(before,
				client.MergeFromWithOptimisticLock{}))).To(Succeed())
		}).Should(Succeed())

		Eventually(func(g Gomega) {
			out, err := kubectl("get", "inv,pay", "-n", ns)
			g.Expect(err).NotTo(HaveOccurred(), out)
			text := normalizeSpace(out)
			g.Expect(text).To(MatchRegexp(`inv-1 INV-\d+ acme USD 680\.50 Issued partially_paid USD 180\.50 `))
			g.Expect(text).To(MatchRegexp(`pay-1 inv-1 USD 500\.00 \S+ Recorded `))
		}).Should(Succeed())
	})
})
