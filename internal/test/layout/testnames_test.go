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

package layout

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// controlPlane matches what only a test with a control plane does: a
// Ginkgo spec (every Ginkgo suite under internal/ and config/ starts one
// in its suite_test.go) or a plain test that starts one itself.
var controlPlane = regexp.MustCompile(`(?m)^\s*(var _ = )?Describe\(|\bIt\("|\btestenv\.Start(Test)?\(`)

// needsControlPlane reports whether a test file of this content runs
// against a kube-apiserver and etcd.
func needsControlPlane(content string) bool { return controlPlane.MatchString(content) }

// namingProblem says what is wrong with the name of the test file name of
// this content, or "" when nothing is: a file that needs a control plane
// ends in _envtest_test.go, one that does not, does not. suite_test.go, a
// suite's entry, is named for its job.
func namingProblem(name, content string) string {
	if name == "suite_test.go" || !strings.HasSuffix(name, "_test.go") {
		return ""
	}
	envtest := strings.HasSuffix(name, "_envtest_test.go")
	switch needs := needsControlPlane(content); {
	case needs && !envtest:
		return "needs a control plane: name it " + strings.TrimSuffix(name, "_test.go") + "_envtest_test.go"
	case !needs && envtest:
		return "needs no control plane: name it " + strings.TrimSuffix(name, "_envtest_test.go") + "_test.go"
	}
	return ""
}

func TestATestFileSaysInItsNameWhetherItNeedsAControlPlane(t *testing.T) {
	// Packages under test/ need one throughout and keep plain names.
	for _, dir := range []string{"internal", "config", "cmd", "api"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
				return err
			}
			if filepath.Base(filepath.Dir(path)) == "layout" {
				return nil // this package's cases quote specs without being any
			}
			content, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if problem := namingProblem(d.Name(), string(content)); problem != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s %s", filepath.ToSlash(rel), problem)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestTheNamingRuleTellsEnvtestFilesFromUnitTests(t *testing.T) {
	cases := []struct {
		name, file, content, want string
	}{
		{"a Ginkgo spec file named as one passes", "ledger_envtest_test.go",
			"var _ = Describe(\"Ledger\", func() {\n\tIt(\"enters\", func() {})\n})", ""},
		{"a Ginkgo spec file named as a unit test fails", "ledger_test.go",
			"var _ = Describe(\"Ledger\", func() {})", "needs a control plane: name it ledger_envtest_test.go"},
		{"a nested It alone counts as a spec", "feed_test.go",
			"\t\tIt(\"pages\", func() {})", "needs a control plane: name it feed_envtest_test.go"},
		{"a plain test that starts a control plane fails under a unit name", "crd_test.go",
			"env := testenv.StartTest(t)", "needs a control plane: name it crd_envtest_test.go"},
		{"a unit test named as an envtest file fails", "tax_envtest_test.go",
			"func TestTax(t *testing.T) {}", "needs no control plane: name it tax_test.go"},
		{"a unit test named as one passes", "tax_test.go", "func TestTax(t *testing.T) {}", ""},
		{"the suite's entry is named for its job", "suite_test.go", "testenv.Start(ctx)", ""},
		{"a helper mentioning It in a word is no spec", "split_test.go", "func TestSplit(t *testing.T) { Split(\"a\") }", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := namingProblem(c.file, c.content); got != c.want {
				t.Errorf("namingProblem(%q) = %q, want %q", c.file, got, c.want)
			}
		})
	}
}
