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

package sealing

import (
	"context"
	"errors"
	"testing"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

// sealReader is a reader of ns's seals that holds exactly seals.
func sealReader(seals ...*billingv1.LedgerSeal) client.Reader {
	objs := make([]client.Object, 0, len(seals))
	for _, s := range seals {
		objs = append(objs, s.DeepCopy())
	}
	return fake.NewClientBuilder().WithScheme(testScheme).WithObjects(objs...).Build()
}

func TestSealedRecordsForgetAChainOnlyOnceItsFirstSealIsDeleted(t *testing.T) {
	_, _, _, seals := managertest.SealedWorld(t)
	seals[0].UID, seals[1].UID = "uid-seal-1", "uid-seal-2"
	// another is the first seal of the namespace made again after its
	// deletion: the same name, another uid, globex's invoice.
	globex := managertest.IssuedWithSequence("ns", "inv-1", 1)
	globex.Spec.CustomerRef.Name = "globex"
	another, err := builder.LedgerSeal("ns", 1, billingv1.ZeroHash, metav1.NewTime(managertest.Now), globex)
	if err != nil {
		t.Fatal(err)
	}
	another.UID = "uid-seal-1-again"
	for _, tc := range []struct {
		name        string
		cache, live []*billingv1.LedgerSeal
		broken      bool // the chain was stopped before
		acme        int
		globex      int
	}{
		{name: "a cache that has not seen the first seal yet, which the API server has, keeps the chain",
			live: seals, acme: 2},
		{name: "a later seal deleted while the first is there keeps the chain, holding more, never less",
			cache: seals[:1], live: seals[:1], acme: 2},
		{name: "the first seal deleted forgets the chain and the customers it held",
			cache: seals[1:], live: seals[1:]},
		{name: "every seal deleted, with the namespace, forgets the chain"},
		{name: "a broken chain whose seals are deleted is forgotten too", broken: true},
		{name: "a first seal of another uid, the namespace made again, starts a new chain",
			cache: []*billingv1.LedgerSeal{another}, live: []*billingv1.LedgerSeal{another}, globex: 1},
		{name: "a first seal of another uid that the cache has not seen yet starts a new chain",
			live: []*billingv1.LedgerSeal{another}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewWithT(t)
			ctx := context.Background()
			sealed := &SealedRecords{Reader: sealReader(seals...)}
			g.Expect(sealed.SealedInvoicesOf(ctx, "ns", "acme")).To(Equal(2))
			if tc.broken {
				g.Expect(sealed.stop(ctx, "ns", errors.New("read back wrong"))).To(Succeed())
			}

			sealed.Reader, sealed.APIReader = sealReader(tc.cache...), sealReader(tc.live...)
			g.Expect(sealed.SealedInvoicesOf(ctx, "ns", "acme")).To(Equal(tc.acme))
			g.Expect(sealed.SealedInvoicesOf(ctx, "ns", "globex")).To(Equal(tc.globex))
			_, broken, err := sealed.Chain(ctx, "ns")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(broken).NotTo(HaveOccurred())
		})
	}
}
