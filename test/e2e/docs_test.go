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

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/invoicing-dev/invoicing/internal/test/binaries"
)

// docFiles are the documents whose commands run, in this order, as a new
// user follows them.
var docFiles = []string{"README.md", "docs/walkthrough.md"}

// docSubstitution is a command line the test runs differently from the
// document, and why.
type docSubstitution struct {
	prefix string // the document's line starts with it
	why    string
	line   func(d docRun) string // the line the test runs instead
}

// docRun is what the substituted lines point at.
type docRun struct{ assets, stateDir, apiAddr, bins string }

// docSubstitutions is every difference between the documents' commands
// and what the test runs; each must match a line.
var docSubstitutions = []docSubstitution{
	{"alias kubectl=", "the control plane's kubectl with this run's kubeconfig; a function, as a script expands no alias",
		func(d docRun) string {
			return fmt.Sprintf(`kubectl() { %q --kubeconfig %q "$@"; }`,
				filepath.Join(d.assets, "kubectl"), filepath.Join(d.stateDir, "kubeconfig"))
		}},
	{"API=http://127.0.0.1:8080", "this run's adapter, on a free port",
		func(d docRun) string { return "API=http://" + d.apiAddr }},
	{"kubectl get seals -n demo -o yaml | go run ./cmd/verifyseals", "the binary go run builds, built once from the checkout",
		func(d docRun) string {
			return "kubectl get seals -n demo -o yaml | " + filepath.Join(d.bins, "verifyseals")
		}},
}

// docEndMarker ends each command's output in the script's output, with
// the command's index and exit code.
var docEndMarker = regexp.MustCompile(`\n?@@doc-test (\d+) (\d+)@@\n`)

var _ = Describe("the docs' commands", Ordered, func() {
	It("run against make run in order, README then the walk-through, and print what the docs show", func() {
		_, err := exec.LookPath("jq")
		Expect(err).NotTo(HaveOccurred(), "the docs' commands need jq (README: CUS=$(jq -r .id ...))")

		var cmds []docCommand
		for _, name := range docFiles {
			found, err := readDocCommands(filepath.Join(repoRoot, name), name)
			Expect(err).NotTo(HaveOccurred())
			cmds = append(cmds, found...)
		}

		stateDir := GinkgoT().TempDir()
		env := startLocalenv(os.Getenv("KUBEBUILDER_ASSETS"), stateDir)
		run := docRun{assets: os.Getenv("KUBEBUILDER_ASSETS"), stateDir: stateDir, apiAddr: env.apiAddr, bins: GinkgoT().TempDir()}
		Expect(binaries.Build(context.Background(), run.bins, map[string]string{"verifyseals": "./cmd/verifyseals"})).To(Succeed())

		By("writing the commands into one script, so that their variables carry over")
		script, err := docScript(cmds, run)
		Expect(err).NotTo(HaveOccurred())
		path := filepath.Join(GinkgoT().TempDir(), "docs.sh")
		Expect(os.WriteFile(path, []byte(script), 0o600)).To(Succeed())

		By("running it in one bash in a copy of the checkout's top level whose .local is this run's state")
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		bash := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", path)
		bash.Dir = docWorkDir(stateDir)
		bash.WaitDelay = 5 * time.Second
		out, _ := bash.CombinedOutput()
		GinkgoWriter.Printf("the script's output:\n%s\n", out)

		if failures := docFailures(cmds, string(out)); len(failures) > 0 {
			Fail(fmt.Sprintf("%d command(s) of the docs do not do what the docs show:\n\n%s", len(failures), strings.Join(failures, "\n\n")))
		}
		env.interrupt()
	})
})

// docScript is cmds as one bash script, with the substitutions made and
// each command's output ended by docEndMarker.
func docScript(cmds []docCommand, run docRun) (string, error) {
	used := make([]bool, len(docSubstitutions))
	var b strings.Builder
	b.WriteString("exec 2>&1\n")
	for i, c := range cmds {
		if c.skipped() {
			continue
		}
		text := c.text
		for j, s := range docSubstitutions {
			if strings.HasPrefix(text, s.prefix) {
				_, rest, _ := strings.Cut(text, "\n")
				text = strings.TrimSuffix(s.line(run)+"\n"+rest, "\n")
				used[j] = true
			}
		}
		fmt.Fprintf(&b, "%s\nprintf '\\n@@doc-test %d %%d@@\\n' $?\n", text, i)
	}
	for j, s := range docSubstitutions {
		if !used[j] {
			return "", fmt.Errorf("no command starts with %q any more: update docSubstitutions", s.prefix)
		}
	}
	return b.String(), nil
}

// docWorkDir is a directory that links to every entry of the checkout's
// top level, so that the docs' relative paths work, except .local, which
// is stateDir: the files the commands write stay out of the checkout.
func docWorkDir(stateDir string) string {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	entries, err := os.ReadDir(repoRoot)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".local") {
			continue
		}
		Expect(os.Symlink(filepath.Join(repoRoot, e.Name()), filepath.Join(dir, e.Name()))).To(Succeed())
	}
	Expect(os.Symlink(stateDir, filepath.Join(dir, ".local"))).To(Succeed())
	return dir
}

// docFailures compares the script's output with the documents: each
// failure names the command's file:line, the command, and the expected
// and actual output.
func docFailures(cmds []docCommand, out string) []string {
	var failures []string
	ran := map[int]bool{}
	start := 0
	for _, m := range docEndMarker.FindAllStringSubmatchIndex(out, -1) {
		i, _ := strconv.Atoi(out[m[2]:m[3]])
		code, _ := strconv.Atoi(out[m[4]:m[5]])
		c, got := cmds[i], out[start:m[0]]
		start = m[1]
		ran[i] = true
		switch {
		case len(c.expected) == 0 && code != 0:
			failures = append(failures, fmt.Sprintf("%s:%d: exit code %d\n$ %s\n--- output:\n%s", c.file, c.line, code, c.text, got))
		case len(c.expected) > 0 && !c.matches(got):
			failures = append(failures, fmt.Sprintf("%s:%d: the output differs from the document\n$ %s\n--- expected:\n%s\n--- actual:\n%s",
				c.file, c.line, c.text, strings.Join(c.expected, "\n"), got))
		}
	}
	for i, c := range cmds {
		if !c.skipped() && !ran[i] {
			failures = append(failures, fmt.Sprintf("%s:%d: did not finish (the script timed out)\n$ %s\n--- output:\n%s", c.file, c.line, c.text, out[start:]))
			break
		}
	}
	return failures
}
