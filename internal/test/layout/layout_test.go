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

// Package layout holds docs/development.md's layout table to the tree: every
// package directory under internal/ has a row, and every row names a
// directory that exists, so the table cannot drift from `ls internal`.
package layout

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var root = filepath.Join("..", "..", "..")

// row matches a layout table row that names a path under internal/:
// "| `internal/adapter/store` | ...".
var row = regexp.MustCompile("^\\| \\*{0,2}`(internal/[a-z0-9/]+?)/?`")

// documented returns the internal/ paths the layout section of
// docs/development.md names in its table.
func documented(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var paths []string
	inLayout := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			inLayout = line == "## Layout"
			continue
		}
		if m := row.FindStringSubmatch(line); inLayout && m != nil {
			paths = append(paths, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("docs/development.md has no \"## Layout\" table naming internal/ paths")
	}
	return paths
}

// packages returns every directory under internal/ that holds Go files, and
// every directory that groups them (internal/manager, internal/test).
func packages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() || d.Name() == "testdata" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if rel == "internal" {
			return nil
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasSuffix(e.Name(), ".go") }) {
			dirs = append(dirs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func TestEveryPackageUnderInternalHasARowInTheLayoutTable(t *testing.T) {
	docs := documented(t)
	for _, pkg := range packages(t) {
		if !slices.Contains(docs, pkg) {
			t.Errorf("%s has no row in docs/development.md's layout table", pkg)
		}
	}
}

func TestEveryRowOfTheLayoutTableNamesADirectoryThatExists(t *testing.T) {
	for _, path := range documented(t) {
		if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(path))); err != nil || !info.IsDir() {
			t.Errorf("docs/development.md's layout table names %s, which is not a directory", path)
		}
	}
}

func TestTheTableRowMatcherReadsRowsAsWritten(t *testing.T) {
	for line, want := range map[string]string{
		"| `internal/adapter/store` | the adapter's reads |":       "internal/adapter/store",
		"| **`internal/manager/`** | **the controller manager** |": "internal/manager",
		"| `api/v1` | the CRD types |":                             "",
		"| `internal/billing` | rules |":                           "internal/billing",
	} {
		got := ""
		if m := row.FindStringSubmatch(line); m != nil {
			got = m[1]
		}
		if got != want {
			t.Errorf("row %q: got %q, want %q", line, got, want)
		}
	}
}
