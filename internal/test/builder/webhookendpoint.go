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

package builder

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// WebhookEndpointOption changes a WebhookEndpoint of WebhookEndpoint.
type WebhookEndpointOption func(*billingv1.WebhookEndpoint)

// WebhookEndpoint returns a WebhookEndpoint named name in namespace ns that
// delivers invoice.issued to url, signed with the key key of the Secret
// secret.
func WebhookEndpoint(ns, name, url, secret, key string, opts ...WebhookEndpointOption) *billingv1.WebhookEndpoint {
	e := &billingv1.WebhookEndpoint{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: billingv1.WebhookEndpointSpec{
			URL:       url,
			SecretRef: billingv1.SecretKeyRef{Name: secret, Key: key},
			Events:    []string{billingv1.EventInvoiceIssued},
		},
	}
	for _, opt := range opts {
		opt(e)
	}
	return e
}

// WithPaused sets spec.paused.
func WithPaused(paused bool) WebhookEndpointOption {
	return func(e *billingv1.WebhookEndpoint) { e.Spec.Paused = paused }
}

// WithStartAfterSequence sets spec.startAfterSequence: the endpoint sends
// only invoices numbered after seq.
func WithStartAfterSequence(seq int64) WebhookEndpointOption {
	return func(e *billingv1.WebhookEndpoint) { e.Spec.StartAfterSequence = seq }
}

// WithEvents sets spec.events: the event types the endpoint subscribes to,
// or "*".
func WithEvents(events ...string) WebhookEndpointOption {
	return func(e *billingv1.WebhookEndpoint) { e.Spec.Events = events }
}

// WithStartAfterEventSequence sets spec.startAfterEventSequence: a new
// endpoint considers only the events after seq.
func WithStartAfterEventSequence(seq int64) WebhookEndpointOption {
	return func(e *billingv1.WebhookEndpoint) { e.Spec.StartAfterEventSequence = seq }
}
