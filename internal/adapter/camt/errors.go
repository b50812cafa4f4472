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

package camt

import (
	"fmt"
	"strings"
)

// InvalidError is a document Read refuses: not XML, not a camt.053 of a
// version it reads, not valid against that version's schema, or with
// amounts it cannot take. The adapter answers it 422 statement_invalid.
type InvalidError struct {
	// Reasons say what is wrong, each "path: what", the path from the
	// root (/Document/BkToCstmrStmt/Stmt[1]/Ntry[3]/Amt) or "/" for the
	// document as a whole; at most 20, in document order.
	Reasons []string
}

func (e *InvalidError) Error() string {
	switch len(e.Reasons) {
	case 0:
		return "invalid camt.053 statement"
	case 1:
		return "invalid camt.053 statement: " + e.Reasons[0]
	}
	return fmt.Sprintf("invalid camt.053 statement: %s (and %d more: %s)",
		e.Reasons[0], len(e.Reasons)-1, strings.Join(e.Reasons[1:], "; "))
}

// invalid is an InvalidError of one reason.
func invalid(path, what string) *InvalidError {
	return &InvalidError{Reasons: []string{path + ": " + what}}
}
