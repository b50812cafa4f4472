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

package argocdhealth

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/config/crd"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/manager/controller"
	"github.com/invoicing-dev/invoicing/internal/test/envtestbins"
)

// The test objects of health_test.yaml are written by hand. This test
// checks the scripts against what the real controller writes: it runs the
// reconcilers on a control plane (envtest), brings objects into each state,
// and evaluates the scripts on the live objects as Argo CD would.
func TestHealthChecksReadWhatTheControllerWrites(t *testing.T) {
	c := startController(t) // skips under -short: it needs a control plane
	ctx := context.Background()
	scripts := map[string]string{}
	for _, check := range loadChecks(t) {
		scripts[check.Kind] = check.Script
	}

	const ns = "books"
	items := func(quantity, amount int64) []billingv1.LineItem {
		return []billingv1.LineItem{
			{Description: "Consulting", Quantity: quantity, Amount: amount},
			{Description: "More consulting", Quantity: quantity, Amount: amount},
		}
	}
	for _, obj := range []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		&billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "acme", Namespace: ns},
			Spec: billingv1.CustomerSpec{Name: "Acme Corporation", Email: "billing@acme.example"}},
		&billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: "issued", Namespace: ns},
			Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}, Items: items(3, 15000)}},
		&billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: "waiting", Namespace: ns},
			Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "nobody"}, Items: items(3, 15000)}},
		&billingv1.Invoice{ObjectMeta: metav1.ObjectMeta{Name: "too-large", Namespace: ns},
			Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"},
				Items: items(billing.MaxQuantity, billing.MaxAmount)}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "erp-webhook", Namespace: ns},
			Data: map[string][]byte{"signing-secret": []byte("0123456789abcdef0123456789abcdef")}},
		endpoint("delivering", "https://erp.example/hooks", "erp-webhook", false),
		endpoint("paused", "https://erp.example/hooks", "erp-webhook", true),
		endpoint("no-secret", "https://erp.example/hooks", "missing", false),
		endpoint("plain-http", "http://erp.example/hooks", "erp-webhook", false),
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
	expectHealthEndingWith := func(kind, name, status, suffix string) {
		t.Helper()
		expectHealthWith(kind, name, status,
			func(message string) bool { return strings.HasSuffix(message, suffix) }, "ending with "+strconv.Quote(suffix))
	}
	expectHealth("Invoice", "issued", Status{Healthy, "The invoice is issued"})
	expectHealth("Invoice", "waiting", Status{Progressing,
		`Customer "nobody" does not exist in namespace "books"; the invoice is issued when it is created`})
	expectHealth("Invoice", "too-large", Status{Degraded, "total exceeds 9007199254740991 (2^53-1) minor units"})
	expectHealth("Customer", "acme", Status{Healthy, "The customer can be billed"})
	expectHealth("WebhookEndpoint", "delivering", Status{Healthy, "Delivered every issued invoice up to sequence 1000"})
	expectHealth("WebhookEndpoint", "paused", Status{Suspended,
		"Paused after sequence 1000; delivery resumes there when spec.paused is false"})
	expectHealthEndingWith("WebhookEndpoint", "no-secret", Degraded,
		`attempts in a row: Secret "missing" does not exist in namespace books`)
	expectHealthEndingWith("WebhookEndpoint", "plain-http", Degraded, "attempts in a row: only https URLs receive webhooks")

	if err := c.Delete(ctx, &billingv1.Customer{ObjectMeta: metav1.ObjectMeta{Name: "acme", Namespace: ns}}); err != nil {
		t.Fatal(err)
	}
	expectHealth("Customer", "acme", Status{Progressing, "Deletion waits for 2 invoice(s) that reference this customer"})
}

// endpoint is a WebhookEndpoint in namespace books that starts after
// sequence 1000, beyond every invoice of the test, so that one that works
// sends nothing.
func endpoint(name, url, secret string, paused bool) *billingv1.WebhookEndpoint {
	return &billingv1.WebhookEndpoint{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "books"},
		Spec: billingv1.WebhookEndpointSpec{
			URL:                url,
			SecretRef:          billingv1.SecretKeyRef{Name: secret, Key: "signing-secret"},
			Events:             []string{billingv1.EventInvoiceIssued},
			Paused:             paused,
			StartAfterSequence: 1000,
		},
	}
}

// startController starts a control plane with the CRDs and the manager's
// reconcilers, wired as cmd/main.go wires them, and returns a client that
// reads from the API server.
func startController(t *testing.T) client.Client {
	t.Helper()
	envtestbins.Require(t)
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), billingv1.AddToScheme(scheme)); err != nil {
		t.Fatal(err)
	}
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	env := &envtest.Environment{CRDs: crds, Scheme: scheme}
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Error(err)
		}
	})
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
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
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
