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
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The layers of docs/development.md#layout are held by depguard's rules in
// .golangci.yml, which name the packages they hold: a package the rules do
// not name is held by none. These tests read the rules and the directory
// listing, so that a new package fails until a rule names it, and a rule
// that names a path that is gone fails too.

// The depguard rules the layers need, by their names in .golangci.yml.
const (
	// ruleShared keeps the shared packages off the programs' packages.
	ruleShared = "shared"
	// rulePrograms keeps internal/test out of every program and the
	// packages it ships.
	rulePrograms = "programs"
)

// programRules are the programs' directories at the top of internal/ and
// the rule that keeps each off the other. Every other directory there is
// shared, but internal/test.
var programRules = map[string]string{"manager": "manager", "adapter": "adapter"}

// lintRule is a depguard rule: the files it holds and the imports it denies.
type lintRule struct {
	Files []string `json:"files"`
	Deny  []struct {
		Pkg string `json:"pkg"`
	} `json:"deny"`
}

// lintRules are the depguard rules of .golangci.yml, by name.
func lintRules(t *testing.T) map[string]lintRule {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".golangci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var config struct {
		Linters struct {
			Settings struct {
				Depguard struct {
					Rules map[string]lintRule `json:"rules"`
				} `json:"depguard"`
			} `json:"settings"`
		} `json:"linters"`
	}
	if err := yaml.Unmarshal(data, &config); err != nil {
		t.Fatalf("reading .golangci.yml: %v", err)
	}
	rules := config.Linters.Settings.Depguard.Rules
	for _, name := range []string{ruleShared, rulePrograms, "manager", "adapter"} {
		if _, ok := rules[name]; !ok {
			t.Fatalf(".golangci.yml has no depguard rule %q", name)
		}
	}
	return rules
}

// modulePath is the module's path, from go.mod.
func modulePath(t *testing.T) string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, ok := strings.CutPrefix(sc.Text(), "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}

// listing is `ls dir` of a directory of the module: its directories, but
// testdata.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) == 0 {
		t.Fatalf("%s holds no directory", dir)
	}
	return dirs
}

// filePattern is one pattern of a rule's files: "$all", "$test", or
// "**/<path>/**", each possibly negated with "!". ok is false for a pattern
// of another form, which the tests do not read.
type filePattern struct {
	negated bool
	all     bool
	test    bool
	path    string
}

// parseFilePattern reads pattern.
func parseFilePattern(pattern string) (p filePattern, ok bool) {
	rest, negated := strings.CutPrefix(pattern, "!")
	p.negated = negated
	switch {
	case rest == "$all":
		p.all = true
	case rest == "$test":
		p.test = true
	case strings.HasPrefix(rest, "**/") && strings.HasSuffix(rest, "/**") && len(rest) > len("**//**"):
		p.path = strings.TrimSuffix(strings.TrimPrefix(rest, "**/"), "/**")
	default:
		return p, false
	}
	return p, true
}

// matches reports whether the pattern, negation aside, matches the file
// of the module at path.
func (p filePattern) matches(path string) bool {
	switch {
	case p.all:
		return true
	case p.test:
		return strings.HasSuffix(path, "_test.go")
	}
	return strings.Contains("/"+path, "/"+p.path+"/")
}

// holds reports whether rule holds the production file path: a pattern
// matches it and no negated one does.
func (r lintRule) holds(t *testing.T, path string) bool {
	t.Helper()
	matched := false
	for _, s := range r.Files {
		p, ok := parseFilePattern(s)
		if !ok {
			t.Fatalf("the depguard file pattern %q is of a form this test does not read: "+
				"use $all, $test or **/<path>/**, or teach parseFilePattern the new form", s)
		}
		if p.matches(path) {
			if p.negated {
				return false
			}
			matched = true
		}
	}
	return matched
}

// denies reports whether rule denies importing pkg.
func (r lintRule) denies(pkg string) bool {
	for _, d := range r.Deny {
		if pkg == d.Pkg || strings.HasPrefix(pkg, d.Pkg+"/") {
			return true
		}
	}
	return false
}

// aFile is a production file of the package at dir, for holds.
func aFile(dir string) string { return dir + "/doc.go" }

func TestEverySharedPackageIsNamedByTheSharedAndTheProgramsRules(t *testing.T) {
	rules := lintRules(t)
	module := modulePath(t)
	for _, program := range programRules {
		if !rules[ruleShared].denies(module + "/internal/" + program) {
			t.Errorf("the depguard rule %q does not deny internal/%s", ruleShared, program)
		}
	}
	for _, name := range listing(t, "internal") {
		if _, isProgram := programRules[name]; isProgram || name == "test" {
			continue
		}
		dir := "internal/" + name
		for _, rule := range []string{ruleShared, rulePrograms} {
			if !rules[rule].holds(t, aFile(dir)) {
				t.Errorf("%s is a shared package that the depguard rule %q does not name: "+
					"add \"**/%s/**\" to the files of the rules %q and %q in .golangci.yml",
					dir, rule, dir, ruleShared, rulePrograms)
			}
		}
	}
}

func TestEveryPackageOfAProgramIsHeldByItsProgramsRules(t *testing.T) {
	rules := lintRules(t)
	for program, rule := range programRules {
		dirs := []string{"internal/" + program}
		for _, name := range listing(t, "internal/"+program) {
			dirs = append(dirs, "internal/"+program+"/"+name)
		}
		for _, dir := range dirs {
			for _, r := range []string{rule, rulePrograms} {
				if !rules[r].holds(t, aFile(dir)) {
					t.Errorf("%s is not held by the depguard rule %q: name it in the rule's files in .golangci.yml", dir, r)
				}
			}
		}
	}
	for _, name := range listing(t, "cmd") {
		if !rules[rulePrograms].holds(t, aFile("cmd/"+name)) {
			t.Errorf("cmd/%s is not held by the depguard rule %q", name, rulePrograms)
		}
	}
}

func TestTheProgramsRuleKeepsEveryTestHelperOutOfProduction(t *testing.T) {
	rules := lintRules(t)
	module := modulePath(t)
	for _, name := range listing(t, "internal/test") {
		dir := "internal/test/" + name
		if !rules[rulePrograms].denies(module + "/" + dir) {
			t.Errorf("the depguard rule %q does not deny %s: add it (or internal/test) to the rule's deny in .golangci.yml",
				rulePrograms, dir)
		}
		if rules[rulePrograms].holds(t, aFile(dir)) {
			t.Errorf("the depguard rule %q holds %s, a test helper, which may import the others", rulePrograms, dir)
		}
	}
}

func TestEveryPathTheDepguardRulesNameExists(t *testing.T) {
	module := modulePath(t)
	for name, rule := range lintRules(t) {
		var paths []string
		for _, s := range rule.Files {
			if p, ok := parseFilePattern(s); ok && p.path != "" {
				paths = append(paths, p.path)
			}
		}
		for _, d := range rule.Deny {
			if rel, ok := strings.CutPrefix(d.Pkg, module+"/"); ok {
				paths = append(paths, rel)
			}
		}
		for _, path := range paths {
			if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(path))); err != nil || !info.IsDir() {
				t.Errorf("the depguard rule %q names %s, which is not a directory of the module", name, path)
			}
		}
	}
}

func TestTheFilePatternReaderReadsDepguardsPatternsAsWritten(t *testing.T) {
	rule := lintRule{Files: []string{"**/internal/billing/**", "**/cmd/**", "!$test", "!**/internal/billing/skip/**"}}
	for _, c := range []struct {
		name, path string
		want       bool
	}{
		{"a file of a named package is held", "internal/billing/money.go", true},
		{"a file of a package under a named one is held", "internal/billing/tax/rate.go", true},
		{"a file under a program's directory is held", "cmd/adapter/main.go", true},
		{"a test file is not held when $test is negated", "internal/billing/money_test.go", false},
		{"a file under a negated path is not held", "internal/billing/skip/x.go", false},
		{"a package whose name only begins like a named one is not held", "internal/billingx/x.go", false},
		{"a package no pattern names is not held", "internal/locale/printer.go", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := rule.holds(t, c.path); got != c.want {
				t.Errorf("holds(%s) = %v, want %v", c.path, got, c.want)
			}
		})
	}
	if _, ok := parseFilePattern("internal/*.go"); ok {
		t.Error("a pattern of another form was read")
	}
	denying := lintRule{Deny: []struct {
		Pkg string `json:"pkg"`
	}{{Pkg: "example.com/m/internal/test"}}}
	if !denying.denies("example.com/m/internal/test/builder") || denying.denies("example.com/m/internal/testing") {
		t.Error("a deny does not match the packages under its path alone")
	}
}
