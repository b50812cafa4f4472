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
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// typedClientTools is where `make typedclient` installs openapi-typescript,
// openapi-fetch and typescript, at the Makefile's pinned versions.
const typedClientTools = "../../../bin/typedclient/node_modules"

// typedClientSource is the TypeScript client the test type-checks.
const typedClientSource = "../../../test/typedclient"

// A TypeScript client generated from the served document by
// openapi-typescript, through openapi-fetch with default options, gets each
// list operation's JSON list type: a second content type in a 200 response
// (the streams' text/event-stream) would make its data an untyped union.
func TestATypedClientOfTheServedDocumentGetsTheJSONListOfEveryList(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node: not with -short")
	}
	tools, err := filepath.Abs(typedClientTools)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tools, ".bin")
	// Outside -short a missing tool fails the test, as the e-invoice
	// validators do: make test installs them first, and a check that
	// skips itself proves nothing.
	if _, err := os.Stat(filepath.Join(bin, "tsc")); err != nil {
		t.Fatalf("the typed client's tools are not installed: run `make typedclient` (make test runs it): %v", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("the typed client's test needs node (v20 or later) on PATH: %v", err)
	}

	resp := serve(fakeAdapter(t, newFakeStore(), &fakeClaims{}), http.MethodGet, "/v1/openapi.json", "")
	if resp.Code != http.StatusOK {
		t.Fatalf("GET /v1/openapi.json answered %d", resp.Code)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("openapi.json", resp.Body.Bytes())
	for _, name := range []string{"client.ts", "tsconfig.json"} {
		b, err := os.ReadFile(filepath.Join(typedClientSource, name))
		if err != nil {
			t.Fatal(err)
		}
		write(name, b)
	}
	if err := os.Symlink(tools, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}

	run := func(name string, args ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, filepath.Join(bin, name), args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	run("openapi-typescript", "openapi.json", "--output", "openapi.d.ts")
	run("tsc", "--noEmit", "--project", "tsconfig.json")
}
