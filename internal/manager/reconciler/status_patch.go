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
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PatchStatus patches obj's status, as it is now, from before (obj as it
// was read), once and only when the two differ; changed says it did, and
// obj takes the API server's answer. Every reconciler patches its status
// through it; opts are the merge patch's, such as the optimistic lock of
// the statuses that are written once (an issued invoice's number, a
// ledger, a delivery cursor), which makes a writer that read a stale
// object fail and start again instead of overwriting a newer status.
func PatchStatus[O client.Object](ctx context.Context, c client.Client, before, obj O,
	opts ...client.MergeFromOption) (changed bool, err error) {
	// Only the status differs between the two, so comparing the whole
	// objects compares the statuses.
	if equality.Semantic.DeepEqual(before, obj) {
		return false, nil
	}
	if err := c.Status().Patch(ctx, obj, client.MergeFromWithOptions(before, opts...)); err != nil {
		return false, fmt.Errorf("patching the status of %s %s: %w", reflect.TypeOf(obj).Elem().Name(), obj.GetName(), err)
	}
	return true, nil
}
