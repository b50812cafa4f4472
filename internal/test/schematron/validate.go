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

// Package schematron checks e-invoices (UBL and CII XML) with the official
// validation artifacts vendored under testdata: the Schematron rules of
// EN 16931 and its profiles, compiled to XSLT, and the XML Schemas of the
// syntaxes. Each check runs one node process for a whole batch of
// documents: the stylesheets with SaxonJS (npm xslt3), the schemas with
// libxml2 compiled to WebAssembly (npm xmllint-wasm). make
// einvoice-validators installs both, pinned, into bin/ and compiles each
// stylesheet once into bin/einvoice-sef; make test runs it first.
package schematron

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// Stylesheets, by their path under testdata without ".xslt", or with
// ".sch" for Schematron that make einvoice-validators compiles to XSLT
// first; the compiled one is bin/einvoice-sef/<path>.sef.json.
const (
	// EN16931UBL is CEN's validation of EN 16931 in UBL 2.1.
	EN16931UBL = "en16931-1.3.16/EN16931-UBL-validation"
	// EN16931CII is CEN's validation of EN 16931 in UN/CEFACT CII D16B.
	EN16931CII = "en16931-1.3.16/EN16931-CII-validation"
	// PeppolUBL and PeppolCII are OpenPEPPOL's rules of Peppol BIS
	// Billing 3.0, on top of EN16931UBL and EN16931CII.
	PeppolUBL = "peppol-bis-3.0.19/PEPPOL-EN16931-UBL.sch"
	PeppolCII = "peppol-bis-3.0.19/PEPPOL-EN16931-CII.sch"
	// XRechnungUBL and XRechnungCII are KoSIT's rules of XRechnung 3.0,
	// on top of EN16931UBL and EN16931CII.
	XRechnungUBL = "xrechnung-schematron-2.5.0/ubl/XRechnung-UBL-validation.sch"
	XRechnungCII = "xrechnung-schematron-2.5.0/cii/XRechnung-CII-validation.sch"
)

// Schema is an XML Schema: the directory under testdata that holds it and
// what it imports, and its main file in that directory.
type Schema struct {
	Dir  string
	Main string
}

// Schemas of the documents.
var (
	// UBLInvoice is the OASIS UBL 2.1 Invoice.
	UBLInvoice = Schema{Dir: "ubl-2.1", Main: "maindoc/UBL-Invoice-2.1.xsd"}
	// UBLCreditNote is the OASIS UBL 2.1 CreditNote.
	UBLCreditNote = Schema{Dir: "ubl-2.1", Main: "maindoc/UBL-CreditNote-2.1.xsd"}
	// CIIInvoice is UN/CEFACT's CrossIndustryInvoice D16B, the subset EN
	// 16931 uses (its invoices and credit notes alike).
	CIIInvoice = Schema{Dir: "cii-d16b", Main: "CrossIndustryInvoice_100pD16B.xsd"}
	// FacturXEN16931 is Factur-X 1.0.8's schema of the EN 16931 profile:
	// the CII a Factur-X PDF embeds as factur-x.xml, a subset of CIIInvoice.
	FacturXEN16931 = Schema{Dir: "factur-x-1.08", Main: "Factur-X_1.08_EN16931.xsd"}
)

//go:embed validate.js
var script []byte

// T is what Require and Check need of a test: a *testing.T, or the
// GinkgoT() of a Ginkgo suite.
type T interface {
	Helper()
	Skip(args ...any)
	Fatal(args ...any)
	Errorf(format string, args ...any)
	TempDir() string
}

// Tools are the validators installed under a module's bin/.
type Tools struct {
	// root is the module's directory.
	root string
	// modules is the node_modules directory with saxon-js and xmllint-wasm.
	modules string
	// script is validate.js, written to a temporary file.
	script string
}

// Require returns the validators, for a test that checks documents.
//
//   - With -short (make test-unit) it skips the test.
//   - When node or the tools under bin/ are missing it fails the test with
//     one line saying what to run: make test installs them first, and a
//     test that passes without checking anything would read as checked.
func Require(t T) *Tools {
	t.Helper()
	n := RequireNode(t, "e-invoice validation", "einvoice-validators", "validate.js", script, "saxon-js", "xmllint-wasm")
	return &Tools{root: n.Root, modules: n.Modules, script: n.Script}
}

// Node is a test's node script and the npm packages it needs, installed
// under the module's bin/xmltools.
type Node struct {
	// Root is the module's directory; Modules its node_modules directory.
	Root, Modules string
	// Script is the script, written to a temporary file.
	Script string
}

// RequireNode returns script, written as name, for a test that runs it
// with node and packages (what names the check in messages; target is
// the make target that installs the packages):
//
//   - With -short (make test-unit) it skips the test.
//   - When node or a package is missing it fails the test with one line
//     saying what to run.
func RequireNode(t T, what, target, name string, script []byte, packages ...string) *Node {
	t.Helper()
	if testing.Short() {
		t.Skip(what + " skipped in -short mode (make test-unit); make test runs it")
	}
	n, err := findNode(testenv.ModuleRoot(), what, target, packages)
	if err != nil {
		t.Fatal(err)
	}
	n.Script = filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(n.Script, script, 0o600); err != nil {
		t.Fatal(err)
	}
	return n
}

// findNode checks that node and packages are installed for root.
func findNode(root, what, target string, packages []string) (*Node, error) {
	hint := fmt.Sprintf("run `make %s` (make test runs it), which installs the pinned tools into bin/", target)
	if root == "" {
		return nil, fmt.Errorf("%s: no go.mod at or above the working directory", what)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return nil, fmt.Errorf("%s needs node (v20 or later) on PATH: %w", what, err)
	}
	modules := filepath.Join(root, "bin", "xmltools", "node_modules")
	for _, pkg := range packages {
		if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); err != nil {
			return nil, fmt.Errorf("%s: %s is not installed in %s: %s", what, pkg, modules, hint)
		}
	}
	return &Node{Root: root, Modules: modules}, nil
}

// testdata is this package's testdata directory.
func (v *Tools) testdata(name string) string {
	return filepath.Join(v.root, "internal", "test", "schematron", "testdata", name)
}

// node runs validate.js with args and returns what it printed.
func (v *Tools) node(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "node", append([]string{v.script}, args...)...) //nolint:gosec // the embedded script, a test's files
	cmd.Env = append(os.Environ(), "NODE_PATH="+v.modules)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("node validate.js %s: %w: %s", args[0], err, stderr.Bytes())
	}
	return stdout.Bytes(), nil
}

// Schematron applies stylesheet (EN16931UBL, ...) to files and returns,
// for each file, its failures (empty when it passes).
func (v *Tools) Schematron(ctx context.Context, stylesheet string, files []string) ([][]Failure, error) {
	sef := filepath.Join(v.root, "bin", "einvoice-sef", stylesheet+".sef.json")
	if _, err := os.Stat(sef); err != nil {
		return nil, fmt.Errorf("the compiled stylesheet %s is missing: run `make einvoice-validators`", sef)
	}
	out, err := os.MkdirTemp("", "svrl-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(out) }()
	if _, err := v.node(ctx, append([]string{"schematron", sef, out}, files...)...); err != nil {
		return nil, err
	}
	failures := make([][]Failure, len(files))
	for i, file := range files {
		f, err := os.Open(filepath.Join(out, strconv.Itoa(i)+".svrl")) //nolint:gosec // a report the script wrote
		if err != nil {
			return nil, err
		}
		failures[i], err = ParseSVRL(f)
		_ = f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	return failures, nil
}

// SchemaError is a file's error against an XML Schema.
type SchemaError struct {
	Line    int
	Message string
}

// XSD validates files against schema and returns, for each file, its
// errors (empty when it is valid).
func (v *Tools) XSD(ctx context.Context, schema Schema, files []string) ([][]SchemaError, error) {
	out, err := v.node(ctx, append([]string{"xsd", v.testdata(schema.Dir), schema.Main}, files...)...)
	if err != nil {
		return nil, err
	}
	var errs []struct {
		File    int    `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(out, &errs); err != nil {
		return nil, fmt.Errorf("reading xmllint's errors: %w", err)
	}
	result := make([][]SchemaError, len(files))
	for _, e := range errs {
		if e.File < 0 || e.File >= len(files) {
			return nil, fmt.Errorf("xmllint: %s", e.Message)
		}
		result[e.File] = append(result[e.File], SchemaError{Line: e.Line, Message: e.Message})
	}
	return result, nil
}

// Document is a file to check, and the name a failure calls it by.
type Document struct {
	Name string
	Path string
}

// Check validates docs against schema and stylesheet, one batch each, and
// fails t for every schema error and every fatal or error assertion,
// naming the document, the rule id and its text.
func (v *Tools) Check(t T, schema Schema, stylesheet string, docs []Document) {
	t.Helper()
	v.CheckSchema(t, schema, docs)
	v.CheckRules(t, stylesheet, docs)
}

// CheckAll is Check with several stylesheets, each applied to the whole
// batch: a profile's rules and EN 16931's, which it builds on.
func (v *Tools) CheckAll(t T, schema Schema, stylesheets []string, docs []Document) {
	t.Helper()
	v.CheckSchema(t, schema, docs)
	for _, stylesheet := range stylesheets {
		v.CheckRules(t, stylesheet, docs)
	}
}

// CheckSchema validates docs against schema in one batch and fails t for
// every error, naming the document and the line.
func (v *Tools) CheckSchema(t T, schema Schema, docs []Document) {
	t.Helper()
	schemaErrs, err := v.XSD(context.Background(), schema, paths(docs))
	if err != nil {
		t.Fatal(err)
	}
	for i, errs := range schemaErrs {
		for _, e := range errs {
			t.Errorf("%s: %s line %d: %s", docs[i].Name, schema.Main, e.Line, e.Message)
		}
	}
}

// CheckRules applies stylesheet to docs in one batch and fails t for every
// fatal or error assertion, naming the document, the rule id and its text.
func (v *Tools) CheckRules(t T, stylesheet string, docs []Document) {
	t.Helper()
	failures, err := v.Schematron(context.Background(), stylesheet, paths(docs))
	if err != nil {
		t.Fatal(err)
	}
	for i, fs := range failures {
		for _, f := range fs {
			t.Errorf("%s: %s: %s", docs[i].Name, stylesheet, f)
		}
	}
}

func paths(docs []Document) []string {
	files := make([]string, len(docs))
	for i, d := range docs {
		files[i] = d.Path
	}
	return files
}

// Stylesheets are the stylesheets of a profile in a syntax: EN 16931's,
// then the profile's own ("en16931", "peppol" or "xrechnung"; "ubl" or
// "cii").
func Stylesheets(profile, syntax string) []string {
	en := map[string]string{"ubl": EN16931UBL, "cii": EN16931CII}[syntax]
	switch profile + "/" + syntax {
	case "peppol/ubl":
		return []string{en, PeppolUBL}
	case "peppol/cii":
		return []string{en, PeppolCII}
	case "xrechnung/ubl":
		return []string{en, XRechnungUBL}
	case "xrechnung/cii":
		return []string{en, XRechnungCII}
	default:
		return []string{en}
	}
}
