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

package store_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/seal"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// A seal made as the manager makes it (internal/seal), and its originals
// deleted, on a control plane (no manager): the store answers the sealed
// records as it answered them live, plus the seal's label, and a get never
// misses one while it moves.
func TestSealedRecordsAreServedAsTheyWereLiveAndNeverMissedWhileTheyMove(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: it needs a control plane")
	}
	env := testenv.StartTest(t)
	c, ctx, ns := env.Client, t.Context(), "books"
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	issuedAt := metav1.NewTime(time.Date(2026, 10, 5, 9, 0, 0, 0, time.UTC))
	names := []string{"inv-a", "inv-b", "inv-c"}
	for i, name := range names {
		inv := builder.Invoice(ns, name, builder.WithCustomer("acme"), builder.WithItem("Work", 1, 1000))
		if err := c.Create(ctx, inv); err != nil {
			t.Fatal(err)
		}
		seq := int64(i + 1)
		inv.Status = billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Sequence: ptr.To(seq),
			Number: fmt.Sprintf("INV-%06d", seq), IssuedAt: &issuedAt, Total: ptr.To[int64](1000),
			Balance: &billingv1.InvoiceBalance{PaymentStatus: billingv1.InvoicePaymentPaid},
			Events: []billingv1.RecordedEvent{{Type: billingv1.EventTypeInvoiceIssued, Sequence: seq,
				CreatedAt: issuedAt}}}
		if err := c.Status().Update(ctx, inv); err != nil {
			t.Fatal(err)
		}
	}

	cch, err := cache.New(env.Config, cache.Options{Scheme: c.Scheme(), Mapper: c.RESTMapper()})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(cch, c, store.Options{ReadYourWritesTimeout: time.Second, ReadOthersWrites: true})
	if err := st.Start(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the store syncs", func() bool { return st.Synced() })
	eventually(t, "the store holds the invoices", func() bool { return len(view(t, st, ns).invoices) == 3 })
	before := view(t, st, ns)

	// Seal inv-a and inv-b, as the manager does: from the API server's
	// objects.
	var lines [][]byte
	for _, name := range names[:2] {
		inv := &billingv1.Invoice{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, inv); err != nil {
			t.Fatal(err)
		}
		line, err := seal.Line(inv)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	enc, err := seal.Encode(lines)
	if err != nil {
		t.Fatal(err)
	}
	hash := seal.ChainHash(ns, 1, billingv1.ZeroHash, enc.SHA256)
	ls := &billingv1.LedgerSeal{ObjectMeta: metav1.ObjectMeta{Name: seal.Name(1), Namespace: ns},
		Spec: billingv1.LedgerSealSpec{Sequence: 1, Payload: enc.Payload, PayloadSHA256: enc.SHA256,
			PreviousHash: billingv1.ZeroHash, Hash: hash, ShortHash: hash[:12],
			Counts:             billingv1.SealCounts{Invoices: 2},
			ClosedThrough:      metav1.NewTime(time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)),
			FirstInvoiceNumber: "INV-000001", LastInvoiceNumber: "INV-000002"}}

	// Read the sealed invoices without a pause while they move.
	var misses atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, name := range names[:2] {
				if found, err := st.Get(ctx, ns, name, &billingv1.Invoice{}); err != nil || !found {
					misses.Add(1)
					t.Errorf("get of %s while it moves = %v, %v", name, found, err)
				}
			}
		}
	})

	if err := c.Create(ctx, ls); err != nil {
		t.Fatal(err)
	}
	for _, name := range names[:2] {
		inv := &billingv1.Invoice{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, inv); err != nil {
			t.Fatal(err)
		}
		patch := client.MergeFrom(inv.DeepCopy())
		inv.Labels = map[string]string{billingv1.LabelSealedIn: ls.Name}
		if err := c.Patch(ctx, inv, patch); err != nil {
			t.Fatal(err)
		}
		if err := c.Delete(ctx, inv, client.Preconditions{UID: &inv.UID}); err != nil {
			t.Fatal(err)
		}
	}
	ls.Status.Events = []billingv1.RecordedEvent{{Type: billingv1.EventTypeLedgerSealed, Sequence: 4,
		CreatedAt: metav1.Now()}}
	if err := c.Status().Update(ctx, ls); err != nil {
		t.Fatal(err)
	}

	eventually(t, "the seal's event is served", func() bool {
		return strings.Contains(view(t, st, ns).events, "ledger.sealed")
	})
	close(stop)
	wg.Wait()
	if n := misses.Load(); n > 0 {
		t.Fatalf("%d gets missed a record while it moved", n)
	}
	after := view(t, st, ns)
	for _, name := range names {
		want, got := before.invoices[name], after.invoices[name]
		if name != "inv-c" {
			want = strings.Replace(want, `"labels":null`, `"labels":{"`+billingv1.LabelSealedIn+`":"seal-000001"}`, 1)
		}
		if got != want {
			t.Errorf("%s after the move =\n%s\nwant\n%s", name, got, want)
		}
	}
	if after.page != before.page || after.feed != before.feed {
		t.Errorf("page, feed after the move = %s, %s; want %s, %s", after.page, after.feed, before.page, before.feed)
	}
	if want := before.events + ",4:ledger.sealed:seal-000001"; after.events != want {
		t.Errorf("events after the move = %s; want %s", after.events, want)
	}
	remaining := &billingv1.InvoiceList{}
	if err := c.List(ctx, remaining, client.InNamespace(ns)); err != nil || len(remaining.Items) != 1 {
		t.Errorf("live invoices = %d, %v; want inv-c alone", len(remaining.Items), err)
	}
}

// storeView is what the store answers of a workspace: each invoice's
// name, labels, spec and status, the pages of its invoices and of acme's
// paid ones, its feed and its events.
type storeView struct {
	invoices           map[string]string
	page, feed, events string
}

func view(t *testing.T, st *store.Store, ns string) storeView {
	t.Helper()
	ctx := t.Context()
	v := storeView{invoices: map[string]string{}}
	page, _, err := st.Page(ctx, &recordkind.Invoice, store.Selection{Namespace: ns}, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	paid, _, err := st.Page(ctx, &recordkind.Invoice, store.Selection{Namespace: ns, CustomerID: "acme",
		PaymentStatus: billingv1.InvoicePaymentPaid}, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, inv := range page {
		names = append(names, inv.GetName())
		got := &billingv1.Invoice{}
		if found, err := st.Get(ctx, ns, inv.GetName(), got); err != nil || !found {
			t.Fatalf("get of %s = %v, %v", inv.GetName(), found, err)
		}
		b, err := json.Marshal(map[string]any{"name": got.Name, "uid": got.UID, "labels": got.Labels,
			"spec": got.Spec, "status": got.Status})
		if err != nil {
			t.Fatal(err)
		}
		v.invoices[inv.GetName()] = string(b)
	}
	v.page = strings.Join(names, ",") + " | paid " + fmt.Sprint(len(paid))
	feed, _, err := st.Feed(ctx, ns, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	names = nil
	for _, inv := range feed {
		names = append(names, inv.Name)
	}
	v.feed = strings.Join(names, ",")
	events, _, _, err := st.Events(ctx, ns, 0, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	names = nil
	for _, e := range events {
		names = append(names, fmt.Sprintf("%d:%s:%s", e.Sequence, e.Type, e.Object.GetName()))
	}
	v.events = strings.Join(names, ",")
	return v
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
