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

// The kind "Adding a kind" is walked with: the newest, whose files are
// where the section says a kind's files go.
const (
	exampleKind   = "WriteOff"
	exampleFile   = "writeoff"
	exampleFiles  = "writeoffs"
	exampleGoType = "billingv1." + exampleKind
	// mostNamingFiles is how many production files outside api/ may name
	// a kind's Go type (issue 47): its row, its reconciler step, its
	// renderer, its handler file, and the customer's account.
	mostNamingFiles = 6
)

var (
	// placedPath matches a backquoted path of the repository:
	// `internal/adapter/httpapi/foos.go`.
	placedPath = regexp.MustCompile("`((?:api|cmd|config|dist|docs|hack|internal|test)/[A-Za-z0-9_./-]+|PROJECT)`")
	// placedSymbol matches a backquoted Go name said to be in, of or
	// beside a backquoted file: `eventData` in `internal/apiobject/event.go`.
	placedSymbol = regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_]*)`\\s+(?:in|of|\\()\\s*`([a-z][A-Za-z0-9_./-]+\\.go)`")
)

// addingAKind returns the text of CONTRIBUTING.md's "Adding a kind", its
// white space runs joined into single spaces so that a phrase wrapped
// across lines matches.
func addingAKind(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(string(data), "\n## Adding a kind\n")
	if !found {
		t.Fatal(`CONTRIBUTING.md has no section "## Adding a kind"`)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	return strings.Join(strings.Fields(section), " ")
}

// forExample is path with the placeholder kind Foo replaced by the
// example kind's names.
func forExample(path string) string {
	return strings.NewReplacer("Foo", exampleKind, "foos", exampleFiles, "foo", exampleFile).Replace(path)
}

func TestAddingAKindNamesPlacesThatExistForTheNewestKind(t *testing.T) {
	section := addingAKind(t)
	for _, m := range placedPath.FindAllStringSubmatch(section, -1) {
		path := forExample(m[1])
		if _, err := os.Stat(filepath.Join(root, path)); err != nil {
			t.Errorf("Adding a kind names %s, which for the %s is %s: %v", m[1], exampleKind, path, err)
		}
	}
	for _, m := range placedSymbol.FindAllStringSubmatch(section, -1) {
		name, path := m[1], forExample(m[2])
		src, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Errorf("Adding a kind names %s in %s: %v", name, path, err)
			continue
		}
		if !regexp.MustCompile(`\b` + name + `\b`).Match(src) {
			t.Errorf("Adding a kind names %s in %s, which has no %s", name, path, name)
		}
	}
}

func TestAddingAKindListsEveryProductionFileThatNamesTheNewestKind(t *testing.T) {
	section := addingAKind(t)
	listed := map[string]bool{}
	for _, m := range placedPath.FindAllStringSubmatch(section, -1) {
		listed[forExample(m[1])] = true
	}
	naming := regexp.MustCompile(regexp.QuoteMeta(exampleGoType) + `\b`)
	var named []string
	for _, dir := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel == "internal/test" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") ||
				strings.HasPrefix(d.Name(), "zz_generated") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if !naming.Match(src) {
				return nil
			}
			named = append(named, rel)
			if !listed[rel] {
				t.Errorf("%s names %s, and Adding a kind does not list it among a kind's places", rel, exampleGoType)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(named) > mostNamingFiles {
		t.Errorf("%d production files name %s, at most %d may: %s", len(named), exampleGoType, mostNamingFiles,
			strings.Join(named, ", "))
	}
}
