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

// Command verifyseals checks workspaces' hash chains of LedgerSeals from
// their YAML alone (docs/ledger.md#seals), without the API server and
// without the adapter:
//
//	kubectl get seals -n demo -o yaml | verifyseals
//	kubectl get seals -A -o yaml > seals.yaml && verifyseals -f seals.yaml
//
// It reads a v1 List of LedgerSeals, or a single LedgerSeal, and for each
// workspace (namespace) checks that the seals are 1, 2, 3, ... without a
// gap, that each payload decodes (base64, gzip) to its payloadSHA256, that
// each previousHash is the hash before it, and that each hash is the SHA-256
// of "<namespace>\n<sequence>\n<previousHash>\n<payloadSHA256>\n"; and that
// each payload's records match the seal's counts and invoice numbers. It
// prints one line per workspace, "<namespace>: verified <n> seals, head
// <hash>" or "<namespace>: <the first broken link>" ("no seals" for an
// empty list). The exit status is 0
// when every chain holds, 1 when one is broken, 2 on input that is not
// seals' YAML or a bad flag.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// Exit statuses.
const (
	exitBroken   = 1
	exitBadInput = 2
)

// errBroken is returned by run when a chain is broken; each broken link
// has been printed.
var errBroken = errors.New("a chain of seals is broken")

// badInput is an error in what run was given to read.
type badInput struct{ err error }

func (b badInput) Error() string { return b.err.Error() }
func (b badInput) Unwrap() error { return b.err }

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout)
	switch {
	case err == nil:
	case errors.Is(err, errBroken):
		os.Exit(exitBroken)
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "verifyseals:", err)
		os.Exit(exitBadInput)
	}
}

// options are the command's flags.
type options struct {
	// file is the YAML to read; "" or "-" reads stdin.
	file string
}

// parseFlags defines every flag on fs and parses args into options.
func parseFlags(fs *flag.FlagSet, args []string) (options, error) {
	var o options
	fs.StringVar(&o.file, "f", "-", "The YAML of the seals (kubectl get seals -o yaml); - reads stdin.")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, badInput{fmt.Errorf("unexpected arguments %q: give the file with -f", fs.Args())}
	}
	return o, nil
}

// run verifies the chains of the seals in the YAML that args name (stdin
// by default) and prints one line per workspace to out. It returns
// errBroken when a chain is broken, a badInput for input that is not seals,
// or a flag's error.
func run(ctx context.Context, args []string, stdin io.Reader, out io.Writer) error {
	fs := flag.NewFlagSet("verifyseals", flag.ContinueOnError)
	o, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	in := stdin
	if o.file != "-" && o.file != "" {
		f, err := os.Open(o.file)
		if err != nil {
			return badInput{err}
		}
		defer func() { _ = f.Close() }()
		in = f
	}
	data, err := io.ReadAll(in)
	if err != nil {
		return badInput{fmt.Errorf("reading the seals: %w", err)}
	}
	seals, err := decode(data)
	if err != nil {
		return badInput{err}
	}
	if len(seals) == 0 {
		// A workspace that has closed nothing yet: nothing to verify, and
		// nothing wrong.
		_, _ = fmt.Fprintln(out, "no seals")
		return nil
	}
	byWorkspace := map[string][]*billingv1.LedgerSeal{}
	for _, s := range seals {
		byWorkspace[s.Namespace] = append(byWorkspace[s.Namespace], s)
	}
	broken := false
	for _, ns := range slices.Sorted(maps.Keys(byWorkspace)) {
		if err := ctx.Err(); err != nil {
			return err
		}
		chain := byWorkspace[ns]
		head, err := seal.ReadChain(chain, seal.CheckCounts)
		if err != nil {
			broken = true
			_, _ = fmt.Fprintf(out, "%s: %v\n", ns, err)
			continue
		}
		_, _ = fmt.Fprintf(out, "%s: verified %d seals, head %s\n", ns, len(chain), head)
	}
	if broken {
		return errBroken
	}
	return nil
}

// decode reads a v1 List of LedgerSeals (what kubectl get -o yaml prints
// for a list) or a single LedgerSeal, in YAML or JSON.
func decode(data []byte) ([]*billingv1.LedgerSeal, error) {
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("the input is not YAML: %w", err)
	}
	var head struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(j, &head); err != nil {
		return nil, fmt.Errorf("the input is not an object of Kubernetes: %w", err)
	}
	docs := []json.RawMessage{j}
	if head.Kind == "List" || head.Kind == "LedgerSealList" {
		docs = head.Items
	}
	seals := make([]*billingv1.LedgerSeal, 0, len(docs))
	for i, doc := range docs {
		s, err := decodeSeal(doc)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		seals = append(seals, s)
	}
	return seals, nil
}

// decodeSeal reads one LedgerSeal, refusing any other kind.
func decodeSeal(doc json.RawMessage) (*billingv1.LedgerSeal, error) {
	var s billingv1.LedgerSeal
	if err := json.Unmarshal(doc, &s); err != nil {
		return nil, fmt.Errorf("not a LedgerSeal: %w", err)
	}
	if s.Kind != "LedgerSeal" || !strings.HasPrefix(s.APIVersion, billingv1.GroupVersion.Group+"/") {
		return nil, fmt.Errorf("a %s %q is not a LedgerSeal of %s", s.Kind, s.APIVersion, billingv1.GroupVersion.Group)
	}
	if s.Namespace == "" || s.Name == "" {
		return nil, fmt.Errorf("the LedgerSeal %q has no namespace or no name", s.Name)
	}
	return &s, nil
}
