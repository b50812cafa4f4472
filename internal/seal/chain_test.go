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

package seal

import (
	"errors"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestPreviousHash(t *testing.T) {
	first := sealOf(t, 1, billingv1.ZeroHash, invoice("inv-1"))
	second := sealOf(t, 2, first.Spec.Hash, invoice("inv-2"))
	known := func(seq int64) (string, bool) { return map[int64]string{1: "read"}[seq], seq == 1 }
	unknown := func(int64) (string, bool) { return "", false }
	for _, tc := range []struct {
		name  string
		seal  *billingv1.LedgerSeal
		known func(int64) (string, bool)
		want  string
	}{
		{"the first seal follows the zero hash", first, known, billingv1.ZeroHash},
		{"a seal whose predecessor was read follows that predecessor's hash", second, known, "read"},
		{"a seal whose predecessor was not read follows its own previous hash", second, unknown, first.Spec.Hash},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PreviousHash(tc.seal, tc.known); got != tc.want {
				t.Errorf("PreviousHash = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestReadLinkAndReadChain(t *testing.T) {
	counted := func(s *billingv1.LedgerSeal, invoices int32, first, last string) *billingv1.LedgerSeal {
		s.Spec.Counts.Invoices, s.Spec.FirstInvoiceNumber, s.Spec.LastInvoiceNumber = invoices, first, last
		return s
	}
	first := counted(sealOf(t, 1, billingv1.ZeroHash, invoice("inv-1")), 1, "INV-000001", "INV-000001")
	second := counted(sealOf(t, 2, first.Spec.Hash, invoice("inv-2"), invoice("inv-3")), 2, "INV-000001", "INV-000001")
	miscounted := counted(sealOf(t, 2, first.Spec.Hash, invoice("inv-2")), 2, "INV-000001", "INV-000001")
	unlinked := counted(sealOf(t, 2, "elsewhere", invoice("inv-2")), 1, "INV-000001", "INV-000001")
	for _, tc := range []struct {
		name    string
		chain   []*billingv1.LedgerSeal
		records int
		broken  string
	}{
		{"a chain whose links verify and hold what they count reads every record", []*billingv1.LedgerSeal{second, first}, 3, ""},
		{"a seal that does not hold what it counts breaks the chain", []*billingv1.LedgerSeal{first, miscounted}, 0, miscounted.Name},
		{"a seal that does not follow its predecessor breaks the chain", []*billingv1.LedgerSeal{first, unlinked}, 0, unlinked.Name},
	} {
		t.Run(tc.name, func(t *testing.T) {
			records := 0
			head, err := ReadChain(tc.chain, func(s *billingv1.LedgerSeal, rs []Record) error {
				records += len(rs)
				return CheckCounts(s, rs)
			})
			var broken *BrokenLink
			if tc.broken != "" {
				if !errors.As(err, &broken) || broken.Seal != tc.broken {
					t.Fatalf("ReadChain = %q, %v; want %s broken", head, err, tc.broken)
				}
				return
			}
			if err != nil || head != second.Spec.Hash || records != tc.records {
				t.Fatalf("ReadChain = %q, %v with %d records; want %q with %d", head, err, records, second.Spec.Hash, tc.records)
			}
			for _, s := range tc.chain {
				previous := PreviousHash(s, func(int64) (string, bool) { return "", false })
				if rs, err := ReadLink(s, previous); err != nil || len(rs) != int(s.Spec.Counts.Invoices) {
					t.Errorf("ReadLink(%s) = %d records, %v; want %d", s.Name, len(rs), err, s.Spec.Counts.Invoices)
				}
			}
		})
	}
}

func TestAnOldSealAndASealOfEveryKindVerifyAlike(t *testing.T) {
	old := sealOf(t, 1, billingv1.ZeroHash, invoice("inv-1"))
	old.Spec.Counts, old.Spec.FirstInvoiceNumber, old.Spec.LastInvoiceNumber =
		billingv1.SealCounts{Invoices: 1}, "INV-000001", "INV-000001"
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: "demo", UID: types.UID("u-" + name)}
	}
	every := []client.Object{invoice("inv-2"), &billingv1.CreditNote{ObjectMeta: meta("cn-1")},
		&billingv1.Payment{ObjectMeta: meta("pay-1")}, &billingv1.CreditApplication{ObjectMeta: meta("capp-1")},
		&billingv1.Refund{ObjectMeta: meta("rf-1")}, &billingv1.WriteOff{ObjectMeta: meta("wo-1")},
		&billingv1.Email{ObjectMeta: meta("em-1")}}
	all := billingv1.SealCounts{Invoices: 1, CreditNotes: 1, Payments: 1, CreditApplications: 1, Refunds: 1,
		WriteOffs: 1, Emails: 1}
	counted := func(c billingv1.SealCounts) *billingv1.LedgerSeal {
		s := sealOf(t, 2, old.Spec.Hash, every...)
		s.Spec.Counts, s.Spec.FirstInvoiceNumber, s.Spec.LastInvoiceNumber = c, "INV-000001", "INV-000001"
		return s
	}
	noEmails := all
	noEmails.Emails = 0
	for _, tc := range []struct {
		name   string
		second *billingv1.LedgerSeal
		broken string
	}{
		{"a seal of every kind after a seal of invoices alone verifies", counted(all), ""},
		{"a seal that does not count its e-mails breaks the chain, naming what differs", counted(noEmails),
			"the payload holds 1 emails; counts says 0 emails"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			records := 0
			_, err := ReadChain([]*billingv1.LedgerSeal{old, tc.second}, func(s *billingv1.LedgerSeal, rs []Record) error {
				records += len(rs)
				return CheckCounts(s, rs)
			})
			var broken *BrokenLink
			switch {
			case tc.broken == "" && (err != nil || records != 8):
				t.Fatalf("ReadChain read %d records, %v; want 8", records, err)
			case tc.broken != "" && (!errors.As(err, &broken) || broken.Reason != tc.broken):
				t.Fatalf("ReadChain = %v; want the reason %q", err, tc.broken)
			}
		})
	}
}
