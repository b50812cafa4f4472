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
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// These tests hold the prose about the manager's reconcilers to the
// reconcilers Setup registers (internal/manager/controller/setup.go), so
// that docs/design.md and the doc.go of each package under
// internal/manager/ cannot lag behind the code again.

// reconciler is one reconciler type: its package directory under
// internal/manager/ and its type name.
type reconciler struct{ pkg, name string }

// kind is the kind a reconciler is named by in docs/design.md:
// its type name without "Reconciler".
func (r reconciler) kind() string { return strings.TrimSuffix(r.name, "Reconciler") }

// registered returns the reconcilers setup.go creates (&pkg.FooReconciler{}
// or &FooReconciler{}), with the package directory their qualifier names.
func registered(t *testing.T) []reconciler {
	t.Helper()
	path := filepath.Join(root, "internal", "manager", "controller", "setup.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var found []reconciler
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		r := reconciler{pkg: "controller"}
		switch typ := lit.Type.(type) {
		case *ast.Ident:
			r.name = typ.Name
		case *ast.SelectorExpr:
			if x, ok := typ.X.(*ast.Ident); ok {
				r.pkg, r.name = x.Name, typ.Sel.Name
			}
		}
		if strings.HasSuffix(r.name, "Reconciler") && !slices.Contains(found, r) {
			found = append(found, r)
		}
		return true
	})
	if len(found) == 0 {
		t.Fatal("setup.go creates no reconciler")
	}
	return found
}

// declared returns the reconcilers the packages under internal/manager/
// declare: the types with a Reconcile method, outside tests.
func declared(t *testing.T) []reconciler {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(root, "internal", "manager", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var found []reconciler
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || fn.Name.Name != "Reconcile" || len(fn.Recv.List) != 1 {
					continue
				}
				typ := fn.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					found = append(found, reconciler{pkg: filepath.Base(dir), name: id.Name})
				}
			}
		}
	}
	return found
}

func readDoc(t *testing.T, parts ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{root}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// numbers are the counts the docs write in words.
var numbers = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}

// counted matches "fourteen reconcilers" or "14 reconcilers".
var counted = regexp.MustCompile(`(?i)\b([a-z]+|[0-9]+)\s+reconcilers\b`)

// checkCounts fails for each "N reconcilers" in doc (named what) whose N
// is a number other than want.
func checkCounts(t *testing.T, what, doc string, want int) {
	t.Helper()
	for _, m := range counted.FindAllStringSubmatch(doc, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = slices.Index(numbers, strings.ToLower(m[1]))
		}
		if n >= 0 && n != want {
			t.Errorf("%s says %q; there are %d", what, m[0], want)
		}
	}
}

func TestSetupRegistersEveryReconcilerOfTheManager(t *testing.T) {
	reg, decl := registered(t), declared(t)
	for _, r := range reg {
		if !slices.Contains(decl, r) {
			t.Errorf("setup.go registers %s.%s, which internal/manager/%s does not declare", r.pkg, r.name, r.pkg)
		}
	}
	for _, r := range decl {
		if !slices.Contains(reg, r) {
			t.Errorf("internal/manager/%s declares %s, which Setup does not register", r.pkg, r.name)
		}
	}
}

// named matches a reconciler's type name in prose.
var named = regexp.MustCompile(`\b[A-Z][A-Za-z]*Reconciler\b`)

func TestEachPackageDocNamesTheReconcilersItHolds(t *testing.T) {
	reg := registered(t)
	pkgs := map[string][]reconciler{}
	for _, r := range reg {
		pkgs[r.pkg] = append(pkgs[r.pkg], r)
	}
	for pkg, rs := range pkgs {
		what := "internal/manager/" + pkg + "/doc.go"
		doc := readDoc(t, "internal", "manager", pkg, "doc.go")
		for _, r := range rs {
			if !strings.Contains(doc, r.name) {
				t.Errorf("%s does not name %s, which the package holds", what, r.name)
			}
		}
		for _, name := range named.FindAllString(doc, -1) {
			if !slices.ContainsFunc(reg, func(r reconciler) bool { return r.name == name }) {
				t.Errorf("%s names %s, which Setup does not register", what, name)
			}
		}
	}
	// The composition names them all.
	checkCounts(t, "internal/manager/controller/doc.go", readDoc(t, "internal", "manager", "controller", "doc.go"), len(reg))
}

// flowSection is the section of docs/design.md with a bullet a reconciler.
const flowSection = "## How an invoice flows"

// bullet matches a reconciler's bullet in that section: "- **Invoice.**".
var bullet = regexp.MustCompile(`(?m)^- \*\*([A-Za-z]+)\.\*\*`)

func TestTheDesignNamesEveryReconcilerSetupRegisters(t *testing.T) {
	reg := registered(t)
	design := readDoc(t, "docs", "design.md")
	checkCounts(t, "docs/design.md", design, len(reg))
	start := strings.Index(design, "\n"+flowSection+"\n")
	if start < 0 {
		t.Fatalf("docs/design.md has no %q section", flowSection)
	}
	section := design[start+1:]
	if end := strings.Index(section[len(flowSection):], "\n## "); end >= 0 {
		section = section[:len(flowSection)+end]
	}
	var bullets []string
	for _, m := range bullet.FindAllStringSubmatch(section, -1) {
		bullets = append(bullets, m[1])
	}
	for _, r := range reg {
		if !slices.Contains(bullets, r.kind()) {
			t.Errorf("docs/design.md's %q has no bullet \"- **%s.**\" for %s.%s", flowSection, r.kind(), r.pkg, r.name)
		}
	}
	for _, b := range bullets {
		if !slices.ContainsFunc(reg, func(r reconciler) bool { return r.kind() == b }) {
			t.Errorf("docs/design.md's %q has a bullet for %s, which no reconciler Setup registers reconciles", flowSection, b)
		}
	}
	for _, name := range named.FindAllString(design, -1) {
		if !slices.ContainsFunc(reg, func(r reconciler) bool { return r.name == name }) {
			t.Errorf("docs/design.md names %s, which Setup does not register", name)
		}
	}
}
