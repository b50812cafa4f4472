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
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
)

func cachedInvoice(name, uid, rv, description string) *billingv1.Invoice {
	inv := builder.Invoice("acme", name, builder.WithCustomer("cus"), builder.WithItem(description, 1, 100))
	inv.UID, inv.ResourceVersion = types.UID(uid), rv
	return inv
}

func TestAListIsWrittenAsJSONMarshalWritesIt(t *testing.T) {
	cursor := `after "inv-2" <&>`
	invoices := []*billingv1.Invoice{
		cachedInvoice("inv-1", "u1", "1", "Support <b>&</b> hosting"),
		cachedInvoice("inv-2", "u2", "2", "Ünïcödé \u2028 line"),
	}
	cases := []struct {
		name string
		page []*billingv1.Invoice
		more bool
		next *string
	}{
		{name: "an empty page", page: nil},
		{name: "a last page", page: invoices},
		{name: "a page with more after it", page: invoices, more: true, next: &cursor},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := apiobject.List[apiobject.Invoice]{Object: listObject, Data: []apiobject.Invoice{},
				HasMore: tc.more, NextCursor: tc.next}
			for _, inv := range tc.page {
				want.Data = append(want.Data, apiobject.InvoiceOf(inv))
			}
			wantBody, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			data, err := encodeEach(newEncodedCache(1<<20), tc.page, apiobject.InvoiceOf)
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			writeList(rec, httptest.NewRequest(http.MethodGet, "/v1/invoices", nil), data, tc.more, tc.next)
			if got := rec.Body.String(); got != string(wantBody)+"\n" {
				t.Errorf("writeList wrote\n%s\nwant\n%s", got, wantBody)
			}
			if got := rec.Header().Get("Content-Length"); got != fmt.Sprint(len(wantBody)+1) {
				t.Errorf("Content-Length %s, want %d", got, len(wantBody)+1)
			}
		})
	}
}

func TestACachedEncodingIsUsedOnlyForTheVersionItWasMadeFrom(t *testing.T) {
	c := newEncodedCache(1 << 20)
	first := cachedInvoice("inv-1", "u1", "7", "Hosting")
	if _, err := encodeEach(c, []*billingv1.Invoice{first}, apiobject.InvoiceOf); err != nil {
		t.Fatal(err)
	}
	changed := cachedInvoice("inv-1", "u1", "8", "Hosting, corrected")
	got, err := encodeEach(c, []*billingv1.Invoice{changed}, apiobject.InvoiceOf)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(apiobject.InvoiceOf(changed))
	if string(got[0]) != string(want) {
		t.Fatalf("the changed invoice was answered as\n%s\nwant\n%s", got[0], want)
	}
	if objects, _ := c.len(); objects != 1 {
		t.Errorf("the cache holds %d encodings of one invoice, want 1", objects)
	}

	rendered := 0
	render := func(inv *billingv1.Invoice) apiobject.Invoice { rendered++; return apiobject.InvoiceOf(inv) }
	if _, err := encodeEach(c, []*billingv1.Invoice{changed}, render); err != nil {
		t.Fatal(err)
	}
	if rendered != 0 {
		t.Errorf("an unchanged invoice was rendered %d times, want 0 (from the cache)", rendered)
	}
	noVersion := cachedInvoice("inv-2", "u2", "", "Hosting")
	for range 2 {
		if _, err := encodeEach(c, []*billingv1.Invoice{noVersion}, render); err != nil {
			t.Fatal(err)
		}
	}
	if rendered != 2 {
		t.Errorf("an invoice without a resourceVersion was rendered %d times in two pages, want 2 (never cached)", rendered)
	}
}

func TestTheCacheNeverHoldsMoreThanItsBudget(t *testing.T) {
	one, _ := json.Marshal(apiobject.InvoiceOf(cachedInvoice("inv-0", "u0", "1", "Hosting")))
	budget := 10 * len(one)
	c := newEncodedCache(int64(budget))
	for i := range 100 {
		inv := cachedInvoice(fmt.Sprintf("inv-%d", i), fmt.Sprintf("u%d", i), "1", "Hosting")
		if _, err := encodeEach(c, []*billingv1.Invoice{inv}, apiobject.InvoiceOf); err != nil {
			t.Fatal(err)
		}
		if objects, size := c.len(); size > budget || objects == 0 {
			t.Fatalf("after %d invoices the cache holds %d objects in %d bytes, budget %d", i+1, objects, size, budget)
		}
	}
	big := cachedInvoice("inv-big", "ubig", "1", "Hosting")
	small := newEncodedCache(int64(len(one)))
	if _, err := encodeEach(small, []*billingv1.Invoice{big}, apiobject.InvoiceOf); err != nil {
		t.Fatal(err)
	}
	if objects, _ := small.len(); objects != 0 {
		t.Errorf("an object above a quarter of the budget was cached")
	}
}

func TestANilCacheEncodesEveryPage(t *testing.T) {
	c := newEncodedCache(-1)
	if c != nil {
		t.Fatal("a negative budget made a cache")
	}
	rendered := 0
	render := func(inv *billingv1.Invoice) apiobject.Invoice { rendered++; return apiobject.InvoiceOf(inv) }
	page := []*billingv1.Invoice{cachedInvoice("inv-1", "u1", "1", "Hosting")}
	for range 3 {
		if _, err := encodeEach(c, page, render); err != nil {
			t.Fatal(err)
		}
	}
	if rendered != 3 {
		t.Errorf("rendered %d times in three pages without a cache, want 3", rendered)
	}
}

// A sealed record the store serves with the resource version of its last
// live state is encoded anew: its JSON has the seal.
func TestASealedRecordIsNotAnsweredWithItsLiveEncoding(t *testing.T) {
	c := newEncodedCache(1 << 20)
	live := cachedInvoice("inv-1", "u1", "7", "Hosting")
	if _, err := encodeEach(c, []*billingv1.Invoice{live}, apiobject.InvoiceOf); err != nil {
		t.Fatal(err)
	}
	sealed := live.DeepCopy()
	sealed.Labels = map[string]string{billingv1.LabelSealedIn: "seal-000001"}
	got, err := encodeEach(c, []*billingv1.Invoice{sealed}, apiobject.InvoiceOf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got[0]), `"seal":"seal-000001"`) {
		t.Errorf("the sealed invoice was answered as %s", got[0])
	}
}
