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

// Package webhooks holds WebhookEndpointReconciler: it pushes the
// workspace's events of the types an endpoint subscribes to, in
// event-sequence order, through internal/manager/delivery, finding the
// object that carries each event sequence through the cache's index (live
// records) or through the seals (seal_lookups.go: sealed records), and
// reports the delivery metrics (webhook_metrics.go).
package webhooks
