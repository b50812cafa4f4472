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

package billing

import (
	"strings"

	"github.com/oklog/ulid/v2"
)

// NewID returns a new object id: prefix (a kind's, recordkind.Kind.IDPrefix) followed by a lower-case ULID, for
// example "inv-01jd3m5x8ckq0a5w7h3v2n9r4t". Ids are valid Kubernetes object
// names, and sort in creation order: by millisecond across processes, and
// strictly within one process (the ULID entropy is monotonic).
func NewID(prefix string) string {
	return prefix + strings.ToLower(ulid.Make().String())
}
