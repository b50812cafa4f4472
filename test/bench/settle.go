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

package main

// Waiting until the manager has nothing left to write: a measurement of
// reads after one of writes would otherwise measure the writes' tail too.

import (
	"context"
	"fmt"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// settleEvery is how often awaitSettled looks, and how long the invoices
// must stay unchanged.
const settleEvery = 3 * time.Second

// awaitSettled waits until no invoice of the namespaces changed for
// settleEvery: the manager has issued them all and made its last writes
// after issuing (such as dropping the status's field ownership); or
// timeout. It reads metadata only, so that looking costs the API server
// little. A list that fails (the API server resets a list of some 100,000
// invoices it cannot finish in time while it is loaded: a million run
// ended so) is looked at again at the next turn until timeout.
func (b *bench) awaitSettled(ctx context.Context, timeout time.Duration, namespaces ...string) error {
	deadline := time.Now().Add(timeout)
	last := ""
	for {
		state, err := b.invoiceState(ctx, namespaces)
		switch {
		case err != nil && (ctx.Err() != nil || time.Now().After(deadline)):
			return err
		case err != nil:
			b.logf("Listing the invoices of %v failed, looking again: %v", namespaces, err)
		case state == last:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("the invoices of %v still changed after %s", namespaces, timeout)
		}
		if err == nil {
			last = state
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(settleEvery):
		}
	}
}

// invoiceState returns the invoices' highest resourceVersion with their
// count.
func (b *bench) invoiceState(ctx context.Context, namespaces []string) (string, error) {
	var highest uint64
	total := 0
	for _, ns := range namespaces {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(billingv1.GroupVersion.WithKind("InvoiceList"))
		if err := b.admin.List(ctx, list, client.InNamespace(ns)); err != nil {
			return "", err
		}
		for i := range list.Items {
			if rv, err := strconv.ParseUint(list.Items[i].ResourceVersion, 10, 64); err == nil && rv > highest {
				highest = rv
			}
		}
		total += len(list.Items)
	}
	return fmt.Sprintf("%d/%d", highest, total), nil
}
