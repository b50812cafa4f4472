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

package numbering

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// The allocator's tests run against a real kube-apiserver and etcd (envtest)
// with the generated CRDs. The pure tests (Format, the journal) need none.
// Until the Invoice CRD has status.sequence, the tests write an invoice's
// number where a test can: an annotation, with the same optimistic lock the
// controller's status patch takes.

// sequenceAnnotation holds the number a test wrote on an invoice.
const sequenceAnnotation = "numbering.test.invoicing.dev/sequence"

var (
	// apiServer is nil when KUBEBUILDER_ASSETS is not set; requireAPIServer
	// then fails the tests that need it.
	apiServer *testenv.Env
	k8s       client.Client
)

func TestMain(m *testing.M) {
	flag.Parse() // for testing.Short
	if !testing.Short() && os.Getenv("KUBEBUILDER_ASSETS") != "" {
		// The tests and benchmarks drive many concurrent writers; the
		// client's default rate limit (5/s) would measure itself.
		var err error
		if apiServer, err = testenv.Start(testenv.WithClientRateLimit(5000, 10000)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		k8s = apiServer.Client
	}
	code := m.Run()
	if apiServer != nil {
		if err := apiServer.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
		}
	}
	os.Exit(code)
}

// requireAPIServer skips the test under -short (make test-unit) and fails
// it, saying what to run, when no control plane runs.
func requireAPIServer(tb testing.TB) {
	tb.Helper()
	if apiServer == nil {
		testenv.Require(tb)
		tb.Fatal("KUBEBUILDER_ASSETS is set but the control plane did not start")
	}
}

// newWorkspace creates a namespace of its own for one test.
func newWorkspace(tb testing.TB) string {
	tb.Helper()
	requireAPIServer(tb)
	return builder.Namespace(tb, context.Background(), k8s, "numbering-")
}

// annotatedSequence reads the number a test wrote on an invoice.
func annotatedSequence(inv *billingv1.Invoice) int64 {
	seq, err := strconv.ParseInt(inv.Annotations[sequenceAnnotation], 10, 64)
	if err != nil {
		return 0
	}
	return seq
}

// allocatorOption changes the Options of a test's allocator.
type allocatorOption func(*Options)

// withMaxReserved bounds the journal.
func withMaxReserved(n int) allocatorOption { return func(o *Options) { o.MaxReserved = n } }

// withClock sets the allocator's clock.
func withClock(now func() time.Time) allocatorOption {
	return func(o *Options) { o.Now = now }
}

// newAllocator returns an allocator on the test API server, as a manager
// replica would run it, reading invoices' numbers from the test annotation.
func newAllocator(tb testing.TB, opts ...allocatorOption) *Allocator {
	tb.Helper()
	requireAPIServer(tb)
	o := Options{
		Client:    k8s,
		APIReader: k8s,
		Cached:    InvoiceReader(k8s, annotatedSequence),
		Live:      InvoiceReader(k8s, annotatedSequence),
	}
	for _, opt := range opts {
		opt(&o)
	}
	a, err := New(o)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	return a
}

// createInvoice creates a valid invoice named name in ns.
func createInvoice(tb testing.TB, ns, name string) *billingv1.Invoice {
	tb.Helper()
	inv := builder.Invoice(ns, name, builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 100))
	if err := k8s.Create(context.Background(), inv); err != nil {
		tb.Fatalf("creating invoice %s: %v", name, err)
	}
	return inv
}

// assign asks a for inv's sequence and fails the test on an error.
func assign(tb testing.TB, a *Allocator, inv *billingv1.Invoice) Assignment {
	tb.Helper()
	got, err := a.Assign(context.Background(), inv.Namespace, inv.Name, inv.UID)
	if err != nil {
		tb.Fatalf("Assign(%s): %v", inv.Name, err)
	}
	return got
}

// writeNumber writes seq on inv as the controller writes status.sequence:
// with inv's resourceVersion as an optimistic lock, so a stale invoice is
// refused (a Conflict error).
func writeNumber(inv *billingv1.Invoice, seq int64) error {
	if inv.Annotations == nil {
		inv.Annotations = map[string]string{}
	}
	inv.Annotations[sequenceAnnotation] = strconv.FormatInt(seq, 10)
	return k8s.Update(context.Background(), inv)
}

// mustWriteNumber writes seq on inv and fails the test on an error.
func mustWriteNumber(tb testing.TB, inv *billingv1.Invoice, seq int64) {
	tb.Helper()
	if err := writeNumber(inv, seq); err != nil {
		tb.Fatalf("writing number %d on %s: %v", seq, inv.Name, err)
	}
}

// writtenSequences returns the numbers written on the invoices of ns, by invoice name.
func writtenSequences(tb testing.TB, ns string) map[string]int64 {
	tb.Helper()
	list := &billingv1.InvoiceList{}
	if err := k8s.List(context.Background(), list, client.InNamespace(ns)); err != nil {
		tb.Fatalf("listing invoices: %v", err)
	}
	out := map[string]int64{}
	for i := range list.Items {
		if seq := annotatedSequence(&list.Items[i]); seq != 0 {
			out[list.Items[i].Name] = seq
		}
	}
	return out
}

// sequenceOf reads the workspace's InvoiceSequence.
func sequenceOf(tb testing.TB, ns string) *billingv1.InvoiceSequence {
	tb.Helper()
	seq := &billingv1.InvoiceSequence{}
	key := types.NamespacedName{Namespace: ns, Name: billingv1.InvoiceSequenceName}
	if err := k8s.Get(context.Background(), key, seq); err != nil {
		tb.Fatalf("reading the invoice sequence: %v", err)
	}
	return seq
}

// deleteInvoice deletes inv and fails the test on an error.
func deleteInvoice(tb testing.TB, inv *billingv1.Invoice) {
	tb.Helper()
	if err := k8s.Delete(context.Background(), inv); err != nil && !apierrors.IsNotFound(err) {
		tb.Fatalf("deleting invoice %s: %v", inv.Name, err)
	}
}

// memoryInvoices stands in for invoices' statuses where a benchmark measures
// allocation alone: it remembers the numbers written, by invoice.
type memoryInvoices struct{ written sync.Map } // types.NamespacedName -> InvoiceState

func (m *memoryInvoices) LookupInvoice(_ context.Context, key types.NamespacedName) (InvoiceState, bool, error) {
	state, ok := m.written.Load(key)
	if !ok {
		return InvoiceState{}, false, nil
	}
	return state.(InvoiceState), true, nil
}

func (m *memoryInvoices) write(key types.NamespacedName, uid types.UID, seq int64) {
	m.written.Store(key, InvoiceState{UID: uid, Sequence: seq})
}

// typesUID converts a string to a UID.
func typesUID(s string) types.UID { return types.UID(s) }
