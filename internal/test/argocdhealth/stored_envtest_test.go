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
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// storedKinds are the kinds whose test objects are checked against what
// the API server stores, with their status written through the status
// subresource as the controller writes it. TestHealthChecksReadWhatTheControllerWrites
// does not reconcile them yet: once it does (issuing a credit note,
// rejecting one, recording a payment), this test still proves that every
// hand-written test object is one the CRD admits.
var storedKinds = []string{"CreditNote", "Payment", "PeriodClose", "LedgerSeal", "CreditApplication", "Refund", "WriteOff",
	"Email", "BankTransaction"}

// The test objects of health_test.yaml are written by hand. This creates
// each one of storedKinds on a control plane (envtest, no controller),
// writes its status, as the controller would, and evaluates the script on
// the object the API server returns: the CRD's schema, defaults and
// validation rules must admit the object, and the script must read the
// stored object as it reads the test object.
func TestHealthChecksReadTheStoredTestObjects(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: it needs a control plane")
	}
	c := testenv.StartTest(t).Client
	ctx := context.Background()
	checks := map[string]Check{}
	for _, check := range loadChecks(t) {
		checks[check.Kind] = check
	}
	for _, kind := range storedKinds {
		check, ok := checks[kind]
		if !ok {
			t.Fatalf("no health check for %s", kind)
		}
		for _, tc := range readTests(t, check).Tests {
			t.Run(kind+"/"+tc.InputPath, func(t *testing.T) {
				want := readObject(t, filepath.Join(check.Dir, tc.InputPath))
				generation, _, _ := unstructured.NestedInt64(want, "metadata", "generation")
				if generation != 1 {
					// The spec is immutable, so a stored object stays at
					// generation 1: a stale observedGeneration is only a
					// test object's.
					t.Skipf("generation %d: the API server gives generation 1 to a new object", generation)
				}
				obj := stored(t, ctx, c, want)
				got, err := Evaluate(check.Script, obj.Object)
				if err != nil {
					t.Fatalf("Evaluate: %v", err)
				}
				if got != tc.HealthStatus {
					t.Errorf("health of the stored object = %+v, want %+v", got, tc.HealthStatus)
				}
			})
		}
	}
}

// stored creates the test object in a namespace of its own, with the
// generated metadata stripped, writes its status (if it has one) through
// the status subresource, and returns what the API server then holds.
func stored(t *testing.T, ctx context.Context, c client.Client, testObject map[string]any) *unstructured.Unstructured {
	t.Helper()
	obj := &unstructured.Unstructured{Object: testObject}
	obj = obj.DeepCopy()
	status, hasStatus, _ := unstructured.NestedMap(obj.Object, "status")
	unstructured.RemoveNestedField(obj.Object, "status")
	for _, field := range []string{"uid", "resourceVersion", "generation", "creationTimestamp"} {
		unstructured.RemoveNestedField(obj.Object, "metadata", field)
	}
	obj.SetNamespace(builder.Namespace(t, ctx, c, "health-"))
	if err := c.Create(ctx, obj); err != nil {
		t.Fatalf("creating the test object: %v", err)
	}
	if hasStatus {
		if err := unstructured.SetNestedMap(obj.Object, status, "status"); err != nil {
			t.Fatal(err)
		}
		if err := c.Status().Update(ctx, obj); err != nil {
			t.Fatalf("writing the test object's status: %v", err)
		}
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		t.Fatal(err)
	}
	return obj
}
