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

// Package builder holds the test fixtures of the API's kinds, modelled on
// cluster-api's util/test/builder: each kind has one constructor that
// returns a small valid default (or, where a kind's tests need to build up
// an invalid object, an empty spec), changed by option functions, so that
// a test states only what matters to it:
//
//	builder.Invoice(ns, "inv-1", builder.WithCustomer("acme"),
//		builder.WithItem("Consulting", 3, 15000), builder.WithCurrency("EUR"))
//
// Every suite builds its objects here instead of keeping its own
// newInvoice or newCustomer. A new kind of api/v1 gets its constructor and
// options here, in a file of its own, when its first test needs one.
// Namespace creates a uniquely named namespace for one test.
package builder

// TB is what a fixture that talks to the API server needs of a test:
// testing.TB and Ginkgo's GinkgoT() both are one.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}
