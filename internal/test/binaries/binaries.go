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

// Package binaries builds the module's programs (cmd/...) for the suites
// that run them as processes, with coverage when E2E_COVERDIR is set, and
// gives those processes the environment that collects it.
package binaries

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// CoverDirVar names the directory where binaries built for coverage write
// their counters; make test sets it, so that the coverage it prints
// includes what the suites run of cmd/.
const CoverDirVar = "E2E_COVERDIR"

// CoverDir returns the directory of CoverDirVar, or "" when the binaries
// are not built for coverage.
func CoverDir() string { return os.Getenv(CoverDirVar) }

// CoverEnv returns env with GOCOVERDIR set to CoverDir when that is set,
// for a process started from a binary Build built.
func CoverEnv(env []string) []string {
	if dir := CoverDir(); dir != "" {
		return append(env, "GOCOVERDIR="+dir)
	}
	return env
}

// Build builds each package of pkgs (a path relative to the module's root,
// such as ./cmd/adapter) into dir under its key, with coverage of the
// whole module when CoverDir is set.
func Build(ctx context.Context, dir string, pkgs map[string]string) error {
	var flags []string
	if CoverDir() != "" {
		flags = []string{"-cover", "-covermode=atomic", "-coverpkg=github.com/invoicing-dev/invoicing/..."}
	}
	return build(ctx, dir, pkgs, flags)
}

// BuildPlain builds as Build does but never for coverage: for a benchmark,
// whose figures the counters would change.
func BuildPlain(ctx context.Context, dir string, pkgs map[string]string) error {
	return build(ctx, dir, pkgs, nil)
}

func build(ctx context.Context, dir string, pkgs map[string]string, flags []string) error {
	root := testenv.ModuleRoot()
	if root == "" {
		return errors.New("building the binaries: no go.mod at or above the working directory")
	}
	for name, pkg := range pkgs {
		args := append([]string{"build", "-o", filepath.Join(dir, name)}, flags...)
		cmd := exec.CommandContext(ctx, "go", append(args, pkg)...) //nolint:gosec // the module's own packages
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("building %s: %w: %s", pkg, err, out)
		}
	}
	return nil
}
