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

// Package delivery is the outbound delivery protocol of WebhookEndpoints: the
// body an event becomes (the event of GET /v1/events, EventBody), its signature (Invoicing-Signature, the
// scheme Stripe documents), which URLs and addresses may receive it, one
// attempt to send it, and the wait before the next attempt. It knows nothing
// of controllers; internal/manager/webhooks (the WebhookEndpoint
// reconciler) decides what to send when, and keeps the endpoint's status.
//
// Errors: an attempt fails with an *Error whose Reason says whether the
// address was refused (ReasonNotAllowed: a person must change the URL), the
// receiver answered other than 2xx (ReasonStatus), or the request did not
// complete (ReasonTransport: DNS, connection, TLS, timeout).
package delivery
