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
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// AlreadySealed is the one check of the Invoice, CreditNote and Payment
// reconcilers that a record about to be issued, numbered or entered in a
// ledger is not a re-creation of a sealed one (a GitOps tool re-creating
// what it finds missing, an old manifest applied): it says why obj never
// will be when a seal holds a record of its kind and name with another
// uid, and nil otherwise. The original itself, labelled and not yet
// deleted by an interrupted move, has the sealed uid: a leftover that the
// sealing finishes, not a re-creation. sealed nil (no sealing) says nil.
func AlreadySealed(ctx context.Context, sealed *SealedRecords, obj client.Object) (*reconciler.Verdict, error) {
	if sealed == nil {
		return nil, nil
	}
	kind := SealKindOf(obj)
	sealName, uid, err := sealed.SealOf(ctx, obj.GetNamespace(), kind, obj.GetName())
	if err != nil {
		return nil, fmt.Errorf("looking %s %s up in the seals: %w", kind, obj.GetName(), err)
	}
	if sealName == "" || uid == obj.GetUID() {
		return nil, nil
	}
	return &reconciler.Verdict{Reason: billingv1.ReasonAlreadySealed, Message: fmt.Sprintf(
		"%s %q is sealed in LedgerSeal %q already: a record of that name is never issued or entered again; "+
			"delete this one (and its manifest)", kind, obj.GetName(), sealName)}, nil
}

// InvoiceSealed says why a credit note or payment of the invoice named
// invoice, which is not live (waiting says so), is never entered: a seal
// holds the invoice, so its ledger is closed; or nil.
func InvoiceSealed(ctx context.Context, sealed *SealedRecords, ns, invoice string, waiting *reconciler.Verdict) (
	*reconciler.Verdict, error) {
	if sealed == nil || waiting.Reason != billingv1.ReasonInvoiceNotFound {
		return nil, nil
	}
	sealName, _, err := sealed.SealOf(ctx, ns, seal.KindInvoice, invoice)
	if err != nil {
		return nil, fmt.Errorf("looking invoice %s up in the seals: %w", invoice, err)
	}
	if sealName == "" {
		return nil, nil
	}
	return &reconciler.Verdict{Reason: billingv1.ReasonInvoiceSealed, Message: fmt.Sprintf(
		"Invoice %q is sealed in LedgerSeal %q: it was settled in a closed period and its ledger is closed; "+
			"record this in the open period instead", invoice, sealName)}, nil
}

// SealedConditions marks conditions of an object at generation (now) not
// Ready and Stalled for why (alreadySealed's verdict).
func SealedConditions(conditions *[]metav1.Condition, generation int64, why *reconciler.Verdict, now time.Time) {
	reconciler.Conditions{List: conditions, Generation: generation, Now: now}.
		NotReady(why.Reason, why.Message, billingv1.ConditionStalled)
}
