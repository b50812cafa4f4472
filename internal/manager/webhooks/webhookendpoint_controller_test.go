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

package webhooks

import (
	"testing"

	. "github.com/onsi/gomega"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
)

func TestWebhookEndpointReconcilerNeedsItsParts(t *testing.T) {
	recorder := events.NewFakeRecorder(1)
	sender := delivery.NewSender(delivery.SenderOptions{})
	reader := fake.NewClientBuilder().WithScheme(testScheme).Build()
	for _, tc := range []struct {
		name  string
		setup func() error
		want  error
	}{
		{"a webhook endpoint reconciler without a sender is refused",
			func() error {
				return (&WebhookEndpointReconciler{APIReader: reader, Clock: clock.RealClock{}, Recorder: recorder}).SetupWithManager(nil, 1)
			}, errNoSender},
		{"a webhook endpoint reconciler without an API reader is refused",
			func() error {
				return (&WebhookEndpointReconciler{Sender: sender, Clock: clock.RealClock{}, Recorder: recorder}).SetupWithManager(nil, 1)
			}, errNoSender},
		{"a webhook endpoint reconciler without a clock is refused",
			func() error {
				return (&WebhookEndpointReconciler{Sender: sender, APIReader: reader, Recorder: recorder}).SetupWithManager(nil, 1)
			}, reconciler.ErrNoClock},
		{"a webhook endpoint reconciler without a recorder is refused",
			func() error {
				return (&WebhookEndpointReconciler{Sender: sender, APIReader: reader, Clock: clock.RealClock{}}).SetupWithManager(nil, 1)
			}, reconciler.ErrNoRecorder},
	} {
		t.Run(tc.name, func(t *testing.T) {
			NewWithT(t).Expect(tc.setup()).To(MatchError(tc.want))
		})
	}
}
