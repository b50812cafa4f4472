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

package recordkind_test

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// apiKinds are the kinds api/v1 registers, by name, each an empty object.
func apiKinds(t *testing.T) map[string]runtime.Object {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := billingv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	out := map[string]runtime.Object{}
	for name := range scheme.KnownTypes(billingv1.GroupVersion) {
		obj, err := scheme.New(billingv1.GroupVersion.WithKind(name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = obj
	}
	return out
}

func TestEveryRecordTypeOfAPIV1HasARowOfTheTable(t *testing.T) {
	for name, obj := range apiKinds(t) {
		_, carries := obj.(billingv1.EventCarrier)
		_, ledger := obj.(billingv1.LedgerRecord)
		_, settles := obj.(billingv1.Settled)
		if !carries && !ledger && !settles {
			continue
		}
		t.Run(name+" has a row", func(t *testing.T) {
			k := recordkind.Of(obj)
			if k == nil {
				t.Fatalf("%s records events, an invoice's ledger or its settling, and has no row in recordkind.All", name)
			}
			if carries != (len(k.Events) > 0) {
				t.Errorf("%s carries events: %v, but its row lists %v", name, carries, k.Events)
			}
			if ledger != (k.Ledger != "") {
				t.Errorf("%s is a ledger record: %v, but its row's Ledger is %q", name, ledger, k.Ledger)
			}
		})
	}
}

func TestEachRowNamesItsOwnTypeAndList(t *testing.T) {
	known := apiKinds(t)
	for _, k := range recordkind.All {
		t.Run(k.Name, func(t *testing.T) {
			if _, ok := known[k.Name]; !ok {
				t.Fatalf("api/v1 registers no kind %q", k.Name)
			}
			if got := reflect.TypeOf(k.New()).Elem().Name(); got != k.Name {
				t.Errorf("New() is a %s, want a %s", got, k.Name)
			}
			if got := reflect.TypeOf(k.NewList()).Elem().Name(); got != k.Name+"List" {
				t.Errorf("NewList() is a %s, want a %sList", got, k.Name)
			}
			if recordkind.Of(k.New()) != k || recordkind.Named(k.Name) != k {
				t.Errorf("Of(New()) or Named(%q) is not the row", k.Name)
			}
		})
	}
}

func TestTheTablesColumnsAgreeWithOneAnother(t *testing.T) {
	resources, prefixes, paths := map[string]string{}, map[string]string{}, map[string]string{}
	events := map[billingv1.EventType]string{}
	seen := map[billingv1.SealCounts]bool{}
	for _, k := range recordkind.All {
		for _, c := range []struct {
			column, value string
			seen          map[string]string
		}{{"resource", k.Resource, resources}, {"id prefix", k.IDPrefix, prefixes}, {"path", k.Path, paths}} {
			if c.value == "" {
				continue
			}
			if other, ok := c.seen[c.value]; ok {
				t.Errorf("%s and %s share the %s %q", other, k.Name, c.column, c.value)
			}
			c.seen[c.value] = k.Name
		}
		if k.Resource != strings.ToLower(k.Name)+"s" {
			t.Errorf("%s's resource is %q, want the kind's plural %q", k.Name, k.Resource, strings.ToLower(k.Name)+"s")
		}
		if k.IDPrefix != "" && !strings.HasSuffix(k.IDPrefix, "-") {
			t.Errorf("%s's id prefix %q does not end in -", k.Name, k.IDPrefix)
		}
		if k.Path != "" && (!strings.HasPrefix(k.Path, "/v1/") || !strings.HasSuffix(k.Path, "/")) {
			t.Errorf("%s's path %q is not /v1/<noun>/", k.Name, k.Path)
		}
		for _, e := range k.Events {
			if other, ok := events[e]; ok {
				t.Errorf("%s and %s both carry %s", other, k.Name, e)
			}
			events[e] = k.Name
			if recordkind.OfEvent(e) != k {
				t.Errorf("OfEvent(%s) is not %s", e, k.Name)
			}
		}
		if k.EventBlocks && len(k.Events) == 0 {
			t.Errorf("%s is found by event blocks and carries no events", k.Name)
		}
		if k.Sealed != nil {
			var counts billingv1.SealCounts
			*k.Sealed(&counts)++
			if counts != (billingv1.SealCounts{}) && seen[counts] {
				t.Errorf("%s's seal count is another kind's too", k.Name)
			}
			if counts == (billingv1.SealCounts{}) {
				t.Errorf("%s's seal count points at no count of a seal's", k.Name)
			}
			seen[counts] = true
			if !k.Overlaid {
				t.Errorf("%s is sealed: the store must overlay it, to serve it once sealed", k.Name)
			}
		}
		if k.Overlaid && !k.Cached {
			t.Errorf("%s is overlaid but not cached", k.Name)
		}
	}
}

func TestEveryKindASealHoldsGivesItsSpecAndStatus(t *testing.T) {
	for _, k := range recordkind.All {
		if k.Sealed == nil {
			continue
		}
		if _, ok := k.New().(billingv1.SealedRecord); !ok {
			t.Errorf("a seal holds %s, but %T has no SealParts", k.Name, k.New())
		}
	}
}
