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
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Serving while the cache warms. A started adapter holds every object of
// every kind before its cache is complete: seconds at a hundred thousand
// invoices, minutes at a million, most of it the API server encoding the
// objects (docs/performance.md, "Sizing"). Meanwhile the store serves what
// the API server answers at a bounded cost:
//
//   - a get, read from the API server (Get);
//   - a page of a whole workspace, read from the API server from the
//     cursor on at its current resource version: one list of limit+1, as a
//     last page whose read barrier was not reached is read (livePage),
//     with the records of the seals taken in so far merged in. It does not
//     wait for the LedgerSeal informer: its list, of few objects, is
//     usually done long before the other kinds', and a page is never held
//     back for it (a get that misses does wait for it, findSealed).
//
// A filtered page (a customer's, a phase, an e-mail) would have the
// API server's answer filtered here, reading as much of the workspace as
// it takes to fill a page; it, the invoice feed and the event feed wait
// for the cache, as long as their request allows (ErrNotSynced then).
// Creates read only through Get and the billing profile, and never wait.

// servedWhileWarming reports whether a page of sel is read from the API
// server before the cache has synced: a whole workspace's.
func servedWhileWarming(sel Selection) bool {
	return sel.key() == (Selection{Namespace: sel.Namespace}).key()
}

// warmingPage reads from the API server the objects of the workspace sel
// that follow after, at most limit+1, at the API server's current resource
// version: what a page of the cache would hold once synced.
func warmingPage(ctx context.Context, s *Store, k *kind, sel Selection, after string,
	limit int) ([]client.Object, error) {
	rv, err := s.currentVersion(k)(ctx, sel.Namespace)
	if err != nil {
		return nil, err
	}
	s.metrics.servedWhileWarming()
	return livePage(ctx, s, k, sel, after, rv, limit)
}
