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

package delivery

import "fmt"

// Reason says how an attempt failed.
type Reason string

const (
	// ReasonNotAllowed means the URL or the address it resolved to is refused
	// (Policy). A person must change the URL.
	ReasonNotAllowed Reason = "NotAllowed"
	// ReasonStatus means the receiver answered with a status other than 2xx.
	ReasonStatus Reason = "Status"
	// ReasonTransport means the request did not complete: DNS, connection, TLS
	// or the attempt's timeout.
	ReasonTransport Reason = "Transport"
)

// Error is a failed attempt.
type Error struct {
	Reason Reason
	// StatusCode is the receiver's answer, for ReasonStatus.
	StatusCode int
	Message    string
	Err        error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }
