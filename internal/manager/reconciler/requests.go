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

package reconciler

import (
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Requests are the reconcile requests of the items that keep takes (nil
// keeps them all): what a watch of another kind maps to once it listed
// the objects it wakes.
func Requests[T any, PT interface {
	*T
	client.Object
}](items []T, keep func(PT) bool) []reconcile.Request {
	var requests []reconcile.Request
	for i := range items {
		if obj := PT(&items[i]); keep == nil || keep(obj) {
			requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(obj)})
		}
	}
	return requests
}
