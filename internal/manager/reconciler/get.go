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

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// GetActive reads the object named key into obj through reader (the
// cache, or the API server); active is false when there is nothing to
// reconcile: the object is gone, which is no error, or being deleted.
func GetActive(ctx context.Context, reader client.Reader, key client.ObjectKey, obj client.Object) (
	active bool, err error) {
	if err := reader.Get(ctx, key, obj); err != nil {
		return false, client.IgnoreNotFound(err)
	}
	return obj.GetDeletionTimestamp().IsZero(), nil
}
