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

package controller

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/webhooks"
)

// RegisterMetrics registers the manager's business metrics with reg
// (cmd/main.go: controller-runtime's metrics.Registry): the invoices
// counted from reader (the manager's cache), the issue latency, the
// reconcile errors, the events recorded (reconciler.RegisterMetrics) and
// the webhook deliveries.
func RegisterMetrics(reg prometheus.Registerer, reader client.Reader) error {
	return reconciler.RegisterMetrics(reg, reader, webhooks.Collectors...)
}
