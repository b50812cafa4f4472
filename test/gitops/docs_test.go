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

package gitops

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// includeMarker precedes a fenced block of docs/gitops.md that shows a file
// of the repository verbatim: <!-- include: path/from/the/root -->.
const includeMarker = "<!-- include: "

// includes returns the fenced blocks of a Markdown file that follow an
// include marker, by the path the marker names.
func includes(t *testing.T, doc string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	scanner := bufio.NewScanner(bytes.NewReader(data))
	var path string
	for scanner.Scan() {
		line := scanner.Text()
		if p, ok := strings.CutPrefix(line, includeMarker); ok {
			path = strings.TrimSpace(strings.TrimSuffix(p, "-->"))
			if !scanner.Scan() || !strings.HasPrefix(scanner.Text(), "```") {
				t.Fatalf("%s: the include of %s is not followed by a fenced block", doc, path)
			}
			var b strings.Builder
			for scanner.Scan() && scanner.Text() != "```" {
				b.WriteString(scanner.Text() + "\n")
			}
			blocks[path] = b.String()
		}
	}
	return blocks
}

func TestDocsGitopsShowsTheExamplesVerbatim(t *testing.T) {
	blocks := includes(t, filepath.Join(repoRoot, "docs", "gitops.md"))
	var examples []string
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs", "examples"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(repoRoot, path)
			examples = append(examples, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append(examples, "config/argocd/argocd-cm.yaml") {
		if _, ok := blocks[want]; !ok {
			t.Errorf("docs/gitops.md does not show %s", want)
		}
	}
	for path, block := range blocks {
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(path)))
		if err != nil {
			t.Errorf("docs/gitops.md shows %s, which does not exist", path)
			continue
		}
		if string(data) != block {
			t.Errorf("docs/gitops.md's copy of %s differs from the file: copy it again", path)
		}
	}
	if !slices.Contains(examples, "docs/examples/argocd/application.yaml") {
		t.Error("docs/examples has no Argo CD example")
	}
}
