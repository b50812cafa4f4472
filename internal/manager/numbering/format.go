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

package numbering

import (
	"fmt"
)

// MinDigits is how many digits a sequence has at least in an invoice number;
// shorter sequences are padded with leading zeros.
const MinDigits = 6

// Format returns an invoice's number: the prefix followed by the sequence,
// zero-padded to at least MinDigits digits, for example "INV-000042".
// Longer sequences keep all their digits ("INV-1234567").
func Format(prefix string, sequence int64) (string, error) {
	if sequence < 1 {
		return "", fmt.Errorf("%w, got %d", ErrInvalidSequence, sequence)
	}
	return fmt.Sprintf("%s%0*d", prefix, MinDigits, sequence), nil
}
