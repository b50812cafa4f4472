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

package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runRecipe is the recipe of the Makefile's run target, its continued
// lines joined: one string per command.
func runRecipe(t *testing.T) (commands []string, makefile string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	makefile = string(b)
	_, after, ok := strings.Cut(makefile, "\nrun:")
	if !ok {
		t.Fatal("the Makefile has no run target")
	}
	lines := strings.Split(after, "\n")[1:]
	var cmd string
	for _, line := range lines {
		if !strings.HasPrefix(line, "\t") {
			break
		}
		cmd += strings.TrimSpace(line)
		if strings.HasSuffix(cmd, `\`) {
			cmd = strings.TrimSuffix(cmd, `\`) + " "
			continue
		}
		commands = append(commands, cmd)
		cmd = ""
	}
	return commands, makefile
}

// localenvCommand is the command of the run recipe that starts localenv.
func localenvCommand(t *testing.T) (fields []string, makefile string) {
	t.Helper()
	commands, makefile := runRecipe(t)
	for _, c := range commands {
		if f := strings.Fields(c); len(f) > 1 && f[0] == "exec" && strings.Contains(f[1], "localenv") {
			return f, makefile
		}
	}
	t.Fatalf("no command of the run recipe execs localenv (make sends SIGTERM to its child only): %q", commands)
	return nil, ""
}

// movable are localenv's flags that name a port it binds, or a place its
// state goes: make run must take each from a variable, so that a second
// run can move it.
func movable(name string) bool {
	return strings.HasSuffix(name, "-addr") || name == "state-dir"
}

func TestEveryPortMakeRunBindsIsAMakeVariable(t *testing.T) {
	fields, makefile := localenvCommand(t)
	given := map[string]string{}
	for i, f := range fields {
		if name, ok := strings.CutPrefix(f, "--"); ok && i+1 < len(fields) {
			given[name] = fields[i+1]
		}
	}
	variable := regexp.MustCompile(`^"\$\(([A-Z_]+)\)"$`)
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	fs := flag.NewFlagSet("localenv", flag.ContinueOnError)
	defineFlags(fs, &options{})
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		if !movable(f.Name) {
			return
		}
		n++
		value, ok := given[f.Name]
		if !ok {
			t.Errorf("make run leaves --%s at localenv's default %q: pass it a make variable", f.Name, f.DefValue)
			return
		}
		m := variable.FindStringSubmatch(value)
		if m == nil {
			t.Errorf("make run passes --%s %s: want a make variable, \"$(NAME)\"", f.Name, value)
			return
		}
		if !strings.Contains(makefile, "\n"+m[1]+" ?= ") {
			t.Errorf("--%s takes $(%s), which the Makefile gives no default (%s ?= ...)", f.Name, m[1], m[1])
		}
		if !strings.Contains(doc, "| `"+m[1]+"` |") {
			t.Errorf("docs/development.md#make-run has no row for %s (--%s)", m[1], f.Name)
		}
	})
	if n < 7 {
		t.Errorf("found %d movable flags of localenv, want the API, the manager's probes and metrics, "+
			"the adapter's metrics, Mailpit's SMTP and web view, and the state directory", n)
	}
	if _, ok := given["stop-with-make"]; !ok {
		t.Error("make run does not pass --stop-with-make: a SIGINT to make alone would leave make waiting")
	}
}
