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

// Package testenv is the one way a test starts a control plane (envtest's
// kube-apiserver and etcd): Require, at the top of each envtest suite,
// checks that the binaries are there and says in one line what to run when
// they are not, instead of a stack from deep inside the suite; Start then
// runs the control plane with the CRDs of config/crd/bases installed and
// returns its rest.Config, an admin client and Stop.
//
// Finding the binaries and starting the control plane are one package, not
// two, because no suite does one without the other and both start from the
// module's root (bin/k8s, config/crd/bases): a suite imports one package
// and sees one set of rules for skipping, failing and starting. Only
// cmd/localenv, a developer's tool and not a test, builds its own
// Environment of envtest.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// EnvVar names the directory of the binaries, as for envtest itself.
const EnvVar = "KUBEBUILDER_ASSETS"

// Binaries every envtest suite starts.
var base = []string{"kube-apiserver", "etcd"}

// Require returns the directory of the binaries an envtest suite needs:
// kube-apiserver, etcd and the extra ones named (kubectl,
// kube-controller-manager). A suite calls it first thing in its TestXxx.
//
//   - With -short (make test-unit) it skips the suite.
//   - With KUBEBUILDER_ASSETS set (make test sets it) it fails the suite
//     when a binary is missing there: a run that was given a control plane
//     never silently leaves a suite out.
//   - Without KUBEBUILDER_ASSETS it fails the suite with one line saying
//     what to run. go test shows a skip's message only with -v, and a
//     suite that passes without running would read as tested.
func Require(t testing.TB, extra ...string) string {
	t.Helper()
	need := slices.Concat(base, extra)
	if testing.Short() {
		t.Skipf("envtest suite skipped in -short mode (make test-unit); it needs %s, and make test runs it",
			strings.Join(need, ", "))
	}
	dir, err := find(os.Getenv(EnvVar), need, ModuleRoot())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// find returns assets when it holds every binary of need. assets empty
// means KUBEBUILDER_ASSETS is unset; root, when not empty, is the module's
// directory, where make envtest-binaries puts the binaries under bin/k8s.
func find(assets string, need []string, root string) (string, error) {
	if assets == "" {
		msg := fmt.Sprintf("this envtest suite needs a control plane (%s) and %s is not set: run `make test`, "+
			"which builds it (make envtest-binaries) and sets %s, or `make test-unit` for the tests that need none",
			strings.Join(need, ", "), EnvVar, EnvVar)
		if built := builtUnder(root, need); built != "" {
			msg += fmt.Sprintf("; make envtest-binaries has built it in %s: set %s to that directory "+
				"to run this suite with go test", built, EnvVar)
		}
		return "", errors.New(msg)
	}
	var missing []string
	for _, name := range need {
		if !isExecutable(filepath.Join(assets, name)) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("%s=%s has no executable %s: run `make envtest-binaries`",
			EnvVar, assets, strings.Join(missing, ", "))
	}
	return assets, nil
}

// builtUnder returns a directory under root/bin/k8s that holds every binary
// of need, or "".
func builtUnder(root string, need []string) string {
	if root == "" {
		return ""
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "bin", "k8s", "*"))
	slices.Sort(dirs)
	slices.Reverse(dirs) // the newest version first, as far as names sort
	for _, dir := range dirs {
		if !slices.ContainsFunc(need, func(name string) bool { return !isExecutable(filepath.Join(dir, name)) }) {
			return dir
		}
	}
	return ""
}

// ModuleRoot returns the nearest directory at or above the working
// directory (the package's, under go test) that holds a go.mod, or "".
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// isExecutable tells whether path, after symlinks, is a file someone may execute.
func isExecutable(path string) bool {
	info, err := os.Stat(path) //nolint:gosec // a path of the developer's own KUBEBUILDER_ASSETS or bin/k8s
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
