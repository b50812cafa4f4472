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

import "time"

// The wait before the next attempt after failures in a row: 1 s, 2 s, 4 s,
// and so on, doubling up to 5 minutes. Delivery never gives up: an invoice
// is never skipped, so the endpoint waits for its receiver however long.
const (
	FirstRetry = time.Second
	MaxRetry   = 5 * time.Minute
)

// Backoff is the wait after failures attempts in a row have failed; 0 for
// none.
func Backoff(failures int32) time.Duration {
	if failures <= 0 {
		return 0
	}
	wait := FirstRetry
	for i := int32(1); i < failures; i++ {
		wait *= 2
		if wait >= MaxRetry {
			return MaxRetry
		}
	}
	return wait
}
