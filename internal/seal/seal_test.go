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
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func TestTheChainHashIsTheSHA256OfThePinnedText(t *testing.T) {
	// printf 'demo\n1\n<64 zeros>\nabc\n' | sha256sum
	const want = "32a558a0dbefd3a17159bd34735f0f6a1584bc8146fbc865016ea34d5a50a43f"
	if got := ChainHash("demo", 1, billingv1.ZeroHash, "abc"); got != want {
		t.Fatalf("ChainHash = %s, want %s", got, want)
	}
}

func TestNamesAndSequences(t *testing.T) {
	for _, tc := range []struct {
		name string
		seq  int64
		ok   bool
	}{
		{"seal-000001", 1, true},
		{"seal-123456", 123456, true},
		{"seal-1234567", 1234567, true},
		{"seal-00001", 0, false},
		{"seal-0000001", 0, false},
		{"seal-000000", 0, false},
		{"inv-000001", 0, false},
	} {
		seq, ok := SequenceOf(tc.name)
		if seq != tc.seq || ok != tc.ok {
			t.Errorf("SequenceOf(%q) = %d, %v; want %d, %v", tc.name, seq, ok, tc.seq, tc.ok)
		}
		if tc.ok && Name(tc.seq) != tc.name {
			t.Errorf("Name(%d) = %q, want %q", tc.seq, Name(tc.seq), tc.name)
		}
	}
}

func sealOf(t *testing.T, seq int64, previous string, objs ...client.Object) *billingv1.LedgerSeal {
	t.Helper()
	var lines [][]byte
	for _, o := range objs {
		line, err := Line(o)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	enc, err := Encode(lines)
	if err != nil {
		t.Fatal(err)
	}
	const ns = "demo"
	hash := ChainHash(ns, seq, previous, enc.SHA256)
	return &billingv1.LedgerSeal{
		ObjectMeta: metav1.ObjectMeta{Name: Name(seq), Namespace: ns},
		Spec: billingv1.LedgerSealSpec{Sequence: seq, Payload: enc.Payload, PayloadSHA256: enc.SHA256,
			PreviousHash: previous, Hash: hash, ShortHash: hash[:12]},
	}
}

func invoice(name string) *billingv1.Invoice {
	return &billingv1.Invoice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "demo", UID: "u-" + "x", ResourceVersion: "42",
			Generation: 3, Finalizers: []string{"f"}, Labels: map[string]string{"team": "a", billingv1.LabelSealedIn: "seal-000001"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}},
		Spec:   billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}, Currency: "EUR"},
		Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Number: "INV-000001"},
	}
}

func TestALineKeepsThePinnedFieldsInOrderAndDropsTheRest(t *testing.T) {
	line, err := Line(invoice("inv-1"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(line)
	if !strings.HasPrefix(s, `{"apiVersion":"billing.invoicing.dev/v1","kind":"Invoice","metadata":{"name":"inv-1","namespace":"demo","uid":"u-x","creationTimestamp":null,"labels":{"team":"a"}},"spec":{`) {
		t.Fatalf("line = %s", s)
	}
	for _, gone := range []string{"managedFields", "resourceVersion", "generation", "finalizers", billingv1.LabelSealedIn, "\n"} {
		if strings.Contains(s, gone) {
			t.Errorf("the line holds %q: %s", gone, s)
		}
	}
}

func TestASealVerifiesAndReadsBackItsRecords(t *testing.T) {
	pay := &billingv1.Payment{ObjectMeta: metav1.ObjectMeta{Name: "pay-1", Namespace: "demo"},
		Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: "inv-1"}, Amount: 100}}
	s := sealOf(t, 1, billingv1.ZeroHash, invoice("inv-1"), pay)
	raw, err := Verify(s, billingv1.ZeroHash)
	if err != nil {
		t.Fatal(err)
	}
	records, err := Records(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 2 || records[0].Kind != KindInvoice || records[1].Kind != KindPayment {
		t.Fatalf("records = %+v", records)
	}
	inv := records[0].Object.(*billingv1.Invoice)
	if inv.Name != "inv-1" || inv.Status.Number != "INV-000001" || inv.Labels["team"] != "a" {
		t.Errorf("invoice read back = %+v", inv)
	}
	if p := records[1].Object.(*billingv1.Payment); p.Spec.Amount != 100 || p.Spec.InvoiceRef.Name != "inv-1" {
		t.Errorf("payment read back = %+v", p)
	}
	again := sealOf(t, 1, billingv1.ZeroHash, invoice("inv-1"), pay)
	if again.Spec.Payload != s.Spec.Payload {
		t.Error("the same records gave two payloads")
	}
}

func TestVerifyNamesTheBrokenLink(t *testing.T) {
	first := sealOf(t, 1, billingv1.ZeroHash, invoice("inv-1"))
	second := sealOf(t, 2, first.Spec.Hash, invoice("inv-2"))
	third := sealOf(t, 3, second.Spec.Hash, invoice("inv-3"))

	head, err := VerifyChain([]*billingv1.LedgerSeal{third, first, second}, nil)
	if err != nil || head != third.Spec.Hash {
		t.Fatalf("VerifyChain = %s, %v; want %s", head, err, third.Spec.Hash)
	}
	if head, err := VerifyChain(nil, nil); err != nil || head != billingv1.ZeroHash {
		t.Fatalf("an empty chain = %s, %v", head, err)
	}

	tampered := second.DeepCopy()
	other := sealOf(t, 2, first.Spec.Hash, invoice("inv-9"))
	tampered.Spec.Payload = other.Spec.Payload
	rewritten := second.DeepCopy()
	rewritten.Spec.PreviousHash = strings.Repeat("1", 64)
	relinked := second.DeepCopy()
	relinked.Spec.Hash = strings.Repeat("2", 64)
	notGzip := second.DeepCopy()
	notGzip.Spec.Payload = base64.StdEncoding.EncodeToString([]byte("plain text"))
	for _, tc := range []struct {
		name   string
		chain  []*billingv1.LedgerSeal
		broken string
		reason string
	}{
		{"a payload swapped for another", []*billingv1.LedgerSeal{first, tampered, third}, "seal-000002", "payload hashes"},
		{"a previous hash rewritten", []*billingv1.LedgerSeal{first, rewritten, third}, "seal-000002", "previousHash"},
		{"a hash rewritten", []*billingv1.LedgerSeal{first, relinked, third}, "seal-000002", "chain hash"},
		{"a payload that is no gzip", []*billingv1.LedgerSeal{first, notGzip, third}, "seal-000002", "gzip"},
		{"a seal missing", []*billingv1.LedgerSeal{first, third}, "seal-000002", "gap"},
		{"a sequence twice", []*billingv1.LedgerSeal{first, second, second}, "seal-000002", "same sequence"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := VerifyChain(tc.chain, nil)
			var link *BrokenLink
			if !errors.As(err, &link) {
				t.Fatalf("err = %v, want a broken link", err)
			}
			if link.Seal != tc.broken || !strings.Contains(link.Reason, tc.reason) {
				t.Errorf("broken link = %v, want %s: ...%s...", link, tc.broken, tc.reason)
			}
		})
	}
}
