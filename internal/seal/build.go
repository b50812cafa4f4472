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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// Link is what a new seal is made of besides its payload: its place in
// the workspace's chain and what the payload holds.
type Link struct {
	// Namespace is the workspace, Sequence the seal's place in its chain
	// and Previous the previous seal's hash (billingv1.ZeroHash for 1).
	Namespace string
	Sequence  int64
	Previous  string
	// ClosedThrough is the workspace's closed_through when the seal is
	// made.
	ClosedThrough time.Time
	// First and Last are the numbers of the payload's first and last
	// invoice; Counts how many records of each kind it holds.
	First, Last string
	Counts      billingv1.SealCounts
}

// New is the LedgerSeal of link holding the encoded payload enc: its name,
// hashes and spec, as the manager creates it.
func New(link Link, enc Encoded) *billingv1.LedgerSeal {
	hash := ChainHash(link.Namespace, link.Sequence, link.Previous, enc.SHA256)
	return &billingv1.LedgerSeal{
		ObjectMeta: metav1.ObjectMeta{Name: Name(link.Sequence), Namespace: link.Namespace},
		Spec: billingv1.LedgerSealSpec{Sequence: link.Sequence, Payload: enc.Payload, PayloadSHA256: enc.SHA256,
			PreviousHash: link.Previous, Hash: hash, ShortHash: hash[:12],
			ClosedThrough:      metav1.NewTime(link.ClosedThrough),
			FirstInvoiceNumber: link.First, LastInvoiceNumber: link.Last,
			Counts: link.Counts},
	}
}

// Count adds obj to counts by its kind (its row's Sealed count of
// internal/recordkind); an object of a kind no seal holds counts nowhere.
func Count(counts *billingv1.SealCounts, obj client.Object) {
	if k := recordkind.Of(obj); k != nil && k.Sealed != nil {
		*k.Sealed(counts)++
	}
}
