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

package argocdhealth

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/controller"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/smtpserver"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// The test objects of health_test.yaml are written by hand. This test
// checks the scripts against what the real controller writes: it runs the
// reconcilers on a control plane (envtest), brings objects into each state,
// and evaluates the scripts on the live objects as Argo CD would.
// Flux and kubectl read the same live objects through kstatus, which must
// agree with each script's status.
func TestHealthChecksReadWhatTheControllerWrites(t *testing.T) {
	c := startController(t) // skips under -short: it needs a control plane
	ctx := context.Background()
	scripts := map[string]string{}
	for _, check := range loadChecks(t) {
		scripts[check.Kind] = check.Script
	}

	const ns = "books"
	items := func(quantity, amount int64) builder.InvoiceOption {
		return builder.WithItems(
			billingv1.LineItem{Description: "Consulting", Quantity: billingv1.Units(quantity), Amount: amount},
			billingv1.LineItem{Description: "More consulting", Quantity: billingv1.Units(quantity), Amount: amount},
		)
	}
	for _, obj := range []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		builder.Customer(ns, "acme", builder.WithDisplayName("Acme Corporation"), builder.WithEmail("billing@acme.example")),
		builder.Invoice(ns, "issued", builder.WithCustomer("acme"), items(3, 15000)),
		builder.Invoice(ns, "waiting", builder.WithCustomer("nobody"), items(3, 15000)),
		builder.Invoice(ns, "too-large", builder.WithCustomer("acme"), items(billing.MaxQuantity, billing.MaxAmount)),
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "erp-webhook", Namespace: ns},
			Data: map[string][]byte{"signing-secret": []byte("0123456789abcdef0123456789abcdef")}},
		endpoint("delivering", "https://erp.example/hooks", "erp-webhook", false),
		endpoint("paused", "https://erp.example/hooks", "erp-webhook", true),
		endpoint("no-secret", "https://erp.example/hooks", "missing", false),
		endpoint("plain-http", "http://erp.example/hooks", "erp-webhook", false),
		builder.CreditNote(ns, "credited", "issued", builder.WithCreditedQuantity(0, 1)),
		builder.CreditNote(ns, "too-much", "issued", builder.WithCreditedAmount(1, 1_000_000)),
		builder.CreditNote(ns, "bad-line", "issued", builder.WithCreditedQuantity(5, 1)),
		builder.CreditNote(ns, "early-credit", "waiting", builder.WithCreditedQuantity(0, 1)),
		builder.CreditNote(ns, "no-invoice", "ghost", builder.WithCreditedQuantity(0, 1)),
		builder.Payment(ns, "paid", "issued", 1000),
		builder.Payment(ns, "early-payment", "waiting", 1000),
		builder.Payment(ns, "in-euros", "issued", 1000, builder.WithPaymentCurrency("EUR")),
	} {
		if err := c.Create(ctx, obj); err != nil {
			t.Fatalf("creating %s: %v", obj.GetName(), err)
		}
	}

	// expectHealthWith waits until the script gives the status want and a
	// message that matches.
	expectHealthWith := func(kind, name, want string, matches func(message string) bool, wantMessage string) {
		t.Helper()
		var got Status
		var err error
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			obj := &unstructured.Unstructured{}
			obj.SetGroupVersionKind(billingv1.GroupVersion.WithKind(kind))
			if err = c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, obj); err == nil {
				if got, err = Evaluate(scripts[kind], obj.Object); err == nil && got.Status == want && matches(got.Message) {
					expectKstatusAgrees(t, kind, name, obj, got.Status)
					return
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("%s %s: health %+v (error %v), want %s with message %s", kind, name, got, err, want, wantMessage)
	}
	expectHealth := func(kind, name string, want Status) {
		t.Helper()
		expectHealthWith(kind, name, want.Status,
			func(message string) bool { return message == want.Message }, strconv.Quote(want.Message))
	}
	// A failing endpoint is retried with backoff, and the message counts
	// the attempts: only the cause at its end is fixed.
	expectHealthEndingWith := func(kind, name, health, suffix string) {
		t.Helper()
		expectHealthWith(kind, name, health,
			func(message string) bool { return strings.HasSuffix(message, suffix) }, "ending with "+strconv.Quote(suffix))
	}
	expectHealth("Invoice", "issued", Status{Healthy, "The invoice is issued"})
	expectHealth("Invoice", "waiting", Status{Progressing,
		`Customer "nobody" does not exist in namespace "books"; the invoice is issued when it is created`})
	expectHealth("Invoice", "too-large", Status{Degraded, "total exceeds 9007199254740991 (2^53-1) minor units"})
	expectHealth("Customer", "acme", Status{Healthy, "The customer can be billed"})
	expectHealth("WebhookEndpoint", "delivering", Status{Healthy, "Delivered every subscribed event up to event sequence 1000"})
	expectHealth("WebhookEndpoint", "paused", Status{Suspended,
		"Paused after event sequence 1000; delivery resumes there when spec.paused is false"})
	expectHealthEndingWith("WebhookEndpoint", "no-secret", Degraded,
		`attempts in a row: Secret "missing" does not exist in namespace books`)
	expectHealthEndingWith("WebhookEndpoint", "plain-http", Degraded, "attempts in a row: only https URLs receive webhooks")

	hasPrefix := func(prefix string) func(string) bool {
		return func(message string) bool { return strings.HasPrefix(message, prefix) }
	}
	expectHealth("CreditNote", "credited", Status{Healthy, "The credit note is issued"})
	expectHealthWith("CreditNote", "too-much", Degraded, hasPrefix("It exceeds what is left to credit of the invoice: line 0: amount 1000000 exceeds the 45000 left"),
		"about what is left to credit of the line")
	expectHealthWith("CreditNote", "bad-line", Degraded, hasPrefix("A line is invalid: line 0: invoice_line"),
		"about the invalid line")
	expectHealth("CreditNote", "early-credit", Status{Progressing,
		`Invoice "waiting" is not issued yet; the credit note is issued once it is`})
	expectHealth("CreditNote", "no-invoice", Status{Progressing,
		`Invoice "ghost" does not exist in namespace "books"; waiting for it`})
	expectHealth("Payment", "paid", Status{Healthy, "The payment is recorded in the invoice's balance"})
	expectHealth("Payment", "early-payment", Status{Progressing,
		`Invoice "waiting" is not issued yet; the payment is recorded once it is`})
	expectHealth("Payment", "in-euros", Status{Degraded,
		`The payment is in EUR but invoice "issued" is in USD; create it in USD`})

	// Closing the books: a close of a past month closes, one of a month to
	// come waits, one behind it is superseded, one of no month is invalid;
	// a payment dated in the closed span is never recorded.
	create := func(objs ...client.Object) {
		t.Helper()
		for _, obj := range objs {
			if err := c.Create(ctx, obj); err != nil {
				t.Fatalf("creating %s: %v", obj.GetName(), err)
			}
		}
	}
	create(builder.PeriodClose(ns, "closed", "2020-01"), builder.PeriodClose(ns, "future", "2099-12"),
		builder.PeriodClose(ns, "bad", "2020-13"))
	expectHealth("PeriodClose", "closed", Status{Healthy, "The workspace's books are closed through 2020-01-31T23:59:59Z"})
	expectHealth("PeriodClose", "future", Status{Progressing,
		"The period through 2099-12-31T23:59:59Z has not ended yet; it is closed once it has"})
	expectHealthWith("PeriodClose", "bad", Degraded, hasPrefix(`Cannot close through "2020-13"`), "about the invalid through")
	create(builder.PeriodClose(ns, "older", "2019-12"),
		builder.Payment(ns, "too-late", "issued", 1000, builder.WithPaidAt(metav1.NewTime(time.Date(2020, 1, 15, 12, 0, 0, 0, time.UTC)))))
	expectHealth("PeriodClose", "older", Status{Degraded,
		`The workspace is already closed through 2020-01-31T23:59:59Z by PeriodClose "closed"; this close changes nothing`})
	expectHealth("Payment", "too-late", Status{Degraded, "The payment's paid_at 2020-01-15T12:00:00Z is at or before the " +
		`workspace's closed_through 2020-01-31T23:59:59Z (PeriodClose "closed"); it is never entered in a ledger`})

	// E-mail: a message without the profile's settings fails at once, one
	// about an invoice not issued yet waits, one through a working server
	// is sent.
	create(builder.Email(ns, "unconfigured", builder.WithPurpose(billingv1.EmailPurposeInvoice),
		builder.WithInvoiceRef("issued")))
	expectHealth("Email", "unconfigured", Status{Degraded, `The BillingProfile "default" of namespace books has no spec.email.`})
	mailServer, err := smtpserver.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mailServer.Close)
	create(builder.BillingProfile(ns, billingv1.DefaultBillingProfileName,
		builder.WithEmailSettings(mailServer.Host, mailServer.Port, "billing@example.com")),
		builder.Email(ns, "sent", builder.WithPurpose(billingv1.EmailPurposeInvoice), builder.WithInvoiceRef("issued")),
		builder.Email(ns, "early", builder.WithPurpose(billingv1.EmailPurposeInvoice), builder.WithInvoiceRef("waiting")))
	expectHealth("Email", "sent", Status{Healthy, "The SMTP server accepted the message."})
	expectHealth("Email", "early", Status{Progressing,
		"Invoice waiting is not issued yet; the message goes out once it is."})

	if err := c.Delete(ctx, builder.Customer(ns, "acme")); err != nil {
		t.Fatal(err)
	}
	expectHealth("Customer", "acme", Status{Progressing, "Deletion waits for 2 invoice(s) that reference this customer"})
}

// expectKstatusAgrees checks that kstatus, as Flux and kubectl compute it,
// reads the live object as the script did.
func expectKstatusAgrees(t *testing.T, kind, name string, obj *unstructured.Unstructured, health string) {
	t.Helper()
	result, err := status.Compute(obj)
	if err != nil {
		t.Errorf("%s %s: kstatus: %v", kind, name, err)
		return
	}
	if !slices.Contains(kstatusAsArgoCD[result.Status], health) {
		t.Errorf("%s %s: Argo CD health %s, but kstatus computes %s (%s)", kind, name, health, result.Status,
			result.Message)
	}
}

// endpoint is a WebhookEndpoint in namespace books that starts after
// event sequence 1000 (and invoice sequence 1000), beyond every event of
// the test, so that one that works sends nothing.
func endpoint(name, url, secret string, paused bool) *billingv1.WebhookEndpoint {
	return builder.WebhookEndpoint("books", name, url, secret, "signing-secret",
		builder.WithPaused(paused), builder.WithStartAfterSequence(1000), builder.WithStartAfterEventSequence(1000))
}

// startController starts a control plane with the CRDs and the manager's
// reconcilers, wired as cmd/main.go wires them, and returns a client that
// reads from the API server.
func startController(t *testing.T) client.Client {
	t.Helper()
	env := testenv.StartTest(t)
	mgr, err := ctrl.NewManager(env.Config, ctrl.Options{
		Scheme:                 env.Client.Scheme(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	if err := controller.Setup(ctx, mgr, controller.Options{}); err != nil {
		stop()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return env.Client
}
