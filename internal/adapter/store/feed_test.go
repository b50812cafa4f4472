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

package store

import (
	"fmt"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The feed: issued invoices in sequence order, and the wake-up of a
// consumer that is caught up.

// issuedAs returns inv issued with sequence.
func issuedAs(inv *billingv1.Invoice, sequence int64) *billingv1.Invoice {
	inv = withPhase(inv, billingv1.InvoiceIssued)
	inv.Status.Sequence = &sequence
	return inv
}

func TestTheFeedWalksIssuedInvoicesInSequenceOrderAndStopsBeforeAnUnseenSequence(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	// Issued out of order, and 4 not yet seen: issued by the controller,
	// not yet delivered by the informer.
	for _, s := range []int64{3, 1, 5, 2} {
		f.cached(t, issuedAs(invoice(fmt.Sprintf("inv-%d", 10-s), "acme"), s))
	}
	f.cached(t, invoice("inv-pending", "acme"))

	page, more, err := f.store.Feed(t.Context(), "ws", 0, 2)
	if err != nil || names(page) != "inv-9,inv-8" || !more {
		t.Fatalf("first page = %s, %v, %v; want inv-9,inv-8 and more", names(page), more, err)
	}
	page, more, err = f.store.Feed(t.Context(), "ws", 2, 10)
	if err != nil || names(page) != "inv-7" || !more {
		t.Fatalf("the page before the gap = %s, %v, %v; want inv-7 and more (5 was seen)", names(page), more, err)
	}
	page, more, err = f.store.Feed(t.Context(), "ws", 3, 10)
	if err != nil || len(page) != 0 || !more {
		t.Fatalf("at the gap = %s, %v, %v; want an empty page and more", names(page), more, err)
	}

	f.cached(t, issuedAs(invoice("inv-6", "acme"), 4))
	page, more, err = f.store.Feed(t.Context(), "ws", 3, 10)
	if err != nil || names(page) != "inv-6,inv-5" || more {
		t.Fatalf("once 4 is seen = %s, %v, %v; want inv-6,inv-5 and no more", names(page), more, err)
	}
	page, more, err = f.store.Feed(t.Context(), "other", 0, 10)
	if err != nil || len(page) != 0 || more {
		t.Fatalf("another workspace = %s, %v, %v; want nothing", names(page), more, err)
	}
}

func TestTheFeedSeesAnInvoiceWhenItIsIssued(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	pending := invoice("inv-a", "acme")
	f.cached(t, pending)
	if page, more, err := f.store.Feed(t.Context(), "ws", 0, 10); err != nil || len(page) != 0 || more {
		t.Fatalf("before issue = %s, %v, %v; want nothing", names(page), more, err)
	}
	issued := &billingv1.Invoice{}
	if err := f.cache.objects.Get(t.Context(), client.ObjectKeyFromObject(pending), issued); err != nil {
		t.Fatal(err)
	}
	issued = issuedAs(issued, 1)
	if err := f.cache.objects.Update(t.Context(), issued.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	f.informer(t, issued).Update(pending, issued)
	if page, more, err := f.store.Feed(t.Context(), "ws", 0, 10); err != nil || names(page) != "inv-a" || more {
		t.Fatalf("after issue = %s, %v, %v; want inv-a", names(page), more, err)
	}
}

func TestAFeedConsumerIsWokenWhenAnInvoiceIsIssued(t *testing.T) {
	f := newFixture(t)
	f.start(t)
	changed := f.store.FeedChanged("ws")
	other := f.store.FeedChanged("other")
	f.cached(t, issuedAs(invoice("inv-a", "acme"), 1))
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the consumer of ws was not woken")
	}
	select {
	case <-other:
		t.Fatal("the consumer of another workspace was woken")
	default:
	}
	select {
	case <-f.store.FeedChanged("ws"):
		t.Fatal("a new wait was woken before the next invoice")
	default:
	}
}
