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

package httpapi

import (
	_ "embed"
	"encoding/json"
)

// openAPIDocument is the OpenAPI 3.1 description of the API, served at
// /v1/openapi.json. The test suite validates every response it receives
// against it, so it cannot drift from the handlers unnoticed.
//
//go:embed openapi.json
var openAPIDocument json.RawMessage

// OpenAPIDocument returns a copy of the OpenAPI 3.1 document.
func OpenAPIDocument() []byte { return append([]byte(nil), openAPIDocument...) }
