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
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// family is a settled invoice of number n with a payment, as the manager
// would seal them.
func family(ns string, n int) []client.Object {
	name := fmt.Sprintf("inv-%d", n)
	return []client.Object{
		&billingv1.Invoice{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + name),
				CreationTimestamp: metav1.NewTime(time.Date(2026, 10, n, 9, 0, 0, 0, time.UTC))},
			Spec: billingv1.InvoiceSpec{CustomerRef: billingv1.CustomerReference{Name: "acme"}, Currency: "EUR"},
			Status: billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued,
				Number: fmt.Sprintf("INV-%06d", n)},
		},
		&billingv1.Payment{
			ObjectMeta: metav1.ObjectMeta{Name: "pay-" + name, Namespace: ns, UID: types.UID("uid-pay-" + name)},
		},
	}
}

// chain is a workspace's seals 1..len(families), each holding its families,
// built with internal/seal as the manager builds them.
func chain(t *testing.T, ns string, families ...[]int) []*billingv1.LedgerSeal {
	t.Helper()
	previous := billingv1.ZeroHash
	var out []*billingv1.LedgerSeal
	for i, numbers := range families {
		seq := int64(i + 1)
		var lines [][]byte
		counts := billingv1.SealCounts{}
		for _, n := range numbers {
			for _, o := range family(ns, n) {
				line, err := seal.Line(o)
				if err != nil {
					t.Fatal(err)
				}
				lines = append(lines, line)
			}
			counts.Invoices++
			counts.Payments++
		}
		enc, err := seal.Encode(lines)
		if err != nil {
			t.Fatal(err)
		}
		hash := seal.ChainHash(ns, seq, previous, enc.SHA256)
		out = append(out, &billingv1.LedgerSeal{
			TypeMeta:   metav1.TypeMeta{APIVersion: billingv1.GroupVersion.String(), Kind: "LedgerSeal"},
			ObjectMeta: metav1.ObjectMeta{Name: seal.Name(seq), Namespace: ns},
			Spec: billingv1.LedgerSealSpec{Sequence: seq, Payload: enc.Payload, PayloadSHA256: enc.SHA256,
				PreviousHash: previous, Hash: hash, ShortHash: hash[:12], Counts: counts,
				ClosedThrough:      metav1.NewTime(time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)),
				FirstInvoiceNumber: fmt.Sprintf("INV-%06d", numbers[0]),
				LastInvoiceNumber:  fmt.Sprintf("INV-%06d", numbers[len(numbers)-1])},
		})
		previous = hash
	}
	return out
}

// listYAML is what kubectl get seals -o yaml prints: a v1 List.
func listYAML(t *testing.T, seals []*billingv1.LedgerSeal) []byte {
	t.Helper()
	items := make([]any, len(seals))
	for i, s := range seals {
		items[i] = s
	}
	y, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items,
		"metadata": map[string]any{"resourceVersion": ""}})
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// jsonpathLines is what the kubectl command in hack/verify-seals.sh prints.
func jsonpathLines(seals []*billingv1.LedgerSeal) []byte {
	var b bytes.Buffer
	for _, s := range seals {
		fmt.Fprintf(&b, "%s %s %d %s %s %s %s\n", s.Namespace, s.Name, s.Spec.Sequence, s.Spec.PreviousHash,
			s.Spec.Hash, s.Spec.PayloadSHA256, s.Spec.Payload)
	}
	return b.Bytes()
}

func concat(chains ...[]*billingv1.LedgerSeal) []*billingv1.LedgerSeal {
	var out []*billingv1.LedgerSeal
	for _, c := range chains {
		out = append(out, c...)
	}
	return out
}

// chainCase is a set of seals and what both checks print for it.
type chainCase struct {
	name  string
	seals func(t *testing.T) []*billingv1.LedgerSeal
	// out is the printed lines; broken whether the exit status is 1.
	out    []string
	broken bool
	// goOnly marks a check the script does not make (the records).
	goOnly bool
}

func chainCases() []chainCase {
	return []chainCase{
		{
			name: "a good chain is verified up to its head",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				return chain(t, "demo", []int{1, 2}, []int{3}, []int{4, 5})
			},
			out: []string{"demo: verified 3 seals, head {demo.3}"},
		},
		{
			name: "seals in any order are verified in sequence order",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				c := chain(t, "demo", []int{1}, []int{2}, []int{3})
				return []*billingv1.LedgerSeal{c[2], c[0], c[1]}
			},
			out: []string{"demo: verified 3 seals, head {demo.3}"},
		},
		{
			name: "a payload changed behind the hashes names its seal",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				c := chain(t, "demo", []int{1}, []int{2}, []int{3})
				c[1].Spec.Payload = chain(t, "demo", []int{7})[0].Spec.Payload
				return c
			},
			out:    []string{"demo: seal seal-000002 (sequence 2): the payload hashes to {sha:demo.7}, not to payloadSHA256 {sha:demo.2}"},
			broken: true,
		},
		{
			name: "a payload and its payloadSHA256 changed break the chain hash",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				c := chain(t, "demo", []int{1}, []int{2})
				other := chain(t, "demo", []int{7})[0]
				c[1].Spec.Payload, c[1].Spec.PayloadSHA256 = other.Spec.Payload, other.Spec.PayloadSHA256
				return c
			},
			out:    []string{"demo: seal seal-000002 (sequence 2): hash is {demo.2}, the chain hash is {rehash:demo.2}"},
			broken: true,
		},
		{
			name: "a missing seal is a gap",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				c := chain(t, "demo", []int{1}, []int{2}, []int{3})
				return []*billingv1.LedgerSeal{c[0], c[2]}
			},
			out:    []string{"demo: seal seal-000002 (sequence 2): it is missing: the chain has a gap"},
			broken: true,
		},
		{
			name: "a chain without its first seal is a gap at 1",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				return chain(t, "demo", []int{1}, []int{2})[1:]
			},
			out:    []string{"demo: seal seal-000001 (sequence 1): it is missing: the chain has a gap"},
			broken: true,
		},
		{
			name: "a seal moved to another workspace breaks both chains",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				a := chain(t, "acme", []int{1}, []int{2})
				b := chain(t, "zeta", []int{1})
				a[1].Namespace = "zeta"
				return concat(a, b)
			},
			out: []string{
				"acme: verified 1 seals, head {acme.1}",
				"zeta: seal seal-000002 (sequence 2): previousHash is {acme.1}, the previous seal's hash is {zeta.1}",
			},
			broken: true,
		},
		{
			name: "two workspaces are verified each on its own",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				return concat(chain(t, "zeta", []int{1}, []int{2}), chain(t, "acme", []int{1}))
			},
			out: []string{"acme: verified 1 seals, head {acme.1}", "zeta: verified 2 seals, head {zeta.2}"},
		},
		{
			name: "one broken workspace does not hide the other's verdict",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				a := chain(t, "acme", []int{1}, []int{2}, []int{3})
				return concat(a[:1], a[2:], chain(t, "zeta", []int{1}))
			},
			out: []string{
				"acme: seal seal-000002 (sequence 2): it is missing: the chain has a gap",
				"zeta: verified 1 seals, head {zeta.1}",
			},
			broken: true,
		},
		{
			name: "counts that do not match the payload are a broken link",
			seals: func(t *testing.T) []*billingv1.LedgerSeal {
				c := chain(t, "demo", []int{1, 2})
				c[0].Spec.Counts.Payments = 1
				return c
			},
			out:    []string{"demo: seal seal-000001 (sequence 1): the payload holds 2 payments; counts says 1 payments"},
			broken: true,
			goOnly: true,
		},
	}
}

// expand replaces {ns.seq} with spec.hash of that seal of seals,
// {sha:ns.n} with the payloadSHA256 of a
// seal of family n, and {rehash:ns.seq} with the chain hash over the
// tampered seal's fields.
func expand(t *testing.T, s string, seals []*billingv1.LedgerSeal) string {
	t.Helper()
	for strings.Contains(s, "{") {
		start := strings.Index(s, "{")
		end := strings.Index(s, "}")
		key := s[start+1 : end]
		var val string
		var ns string
		var n int
		switch {
		case strings.HasPrefix(key, "sha:"):
			mustScan(t, strings.TrimPrefix(key, "sha:"), &ns, &n)
			val = chain(t, ns, []int{n})[0].Spec.PayloadSHA256
		case strings.HasPrefix(key, "rehash:"):
			mustScan(t, strings.TrimPrefix(key, "rehash:"), &ns, &n)
			for _, x := range seals {
				if x.Namespace == ns && x.Spec.Sequence == int64(n) {
					val = seal.ChainHash(ns, x.Spec.Sequence, x.Spec.PreviousHash, x.Spec.PayloadSHA256)
				}
			}
		default:
			mustScan(t, key, &ns, &n)
			for _, x := range seals {
				if x.Namespace == ns && x.Spec.Sequence == int64(n) {
					val = x.Spec.Hash
				}
			}
		}
		s = s[:start] + val + s[end+1:]
	}
	return s
}

func mustScan(t *testing.T, key string, ns *string, n *int) {
	t.Helper()
	dot := strings.LastIndex(key, ".")
	*ns = key[:dot]
	if _, err := fmt.Sscan(key[dot+1:], n); err != nil {
		t.Fatalf("bad key %q", key)
	}
}

func TestVerifyingChainsFromTheirYAML(t *testing.T) {
	for _, tc := range chainCases() {
		t.Run(tc.name, func(t *testing.T) {
			seals := tc.seals(t)
			var out bytes.Buffer
			err := run(context.Background(), nil, bytes.NewReader(listYAML(t, seals)), &out)
			if tc.broken != errors.Is(err, errBroken) || (!tc.broken && err != nil) {
				t.Fatalf("run = %v, want broken %v", err, tc.broken)
			}
			want := ""
			for _, l := range tc.out {
				want += expand(t, l, seals) + "\n"
			}
			if out.String() != want {
				t.Errorf("printed\n%s\nwant\n%s", out.String(), want)
			}
		})
	}
}

func TestOneSealAndAFileAreReadToo(t *testing.T) {
	c := chain(t, "demo", []int{1})
	y, err := yaml.Marshal(c[0])
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "seal.yaml")
	if err := os.WriteFile(file, y, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-f", file}, strings.NewReader(""), &out); err != nil {
		t.Fatal(err)
	}
	if want := "demo: verified 1 seals, head " + c[0].Spec.Hash + "\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
}

func TestAnEmptyListHasNothingToVerify(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), nil, strings.NewReader("apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"), &out)
	if err != nil || out.String() != "no seals\n" {
		t.Fatalf("run = %v, printed %q; want no error and \"no seals\"", err, out.String())
	}
}

func TestInputThatIsNotSealsIsBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		args        []string
	}{
		{name: "not YAML", input: "items: [\n"},
		{name: "another kind", input: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: billing.invoicing.dev/v1\n  kind: Invoice\n  metadata: {name: inv-1, namespace: demo}\n"},
		{name: "a seal without a namespace", input: "apiVersion: billing.invoicing.dev/v1\nkind: LedgerSeal\nmetadata: {name: seal-000001}\n"},
		{name: "a file that is not there", args: []string{"-f", "/nonexistent/seals.yaml"}},
		{name: "an argument instead of -f", args: []string{"seals.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(context.Background(), tc.args, strings.NewReader(tc.input), &out)
			var bad badInput
			if !errors.As(err, &bad) {
				t.Fatalf("run = %v, want bad input", err)
			}
			if out.Len() != 0 {
				t.Errorf("printed %q", out.String())
			}
		})
	}
}

// TestTheScriptAgreesWithTheCommand runs hack/verify-seals.sh on the lines
// the documented kubectl command prints for each case, and holds it to the
// command's verdict and words.
func TestTheScriptAgreesWithTheCommand(t *testing.T) {
	for _, tool := range []string{"bash", "base64", "gzip", "sha256sum", "sort", "cut", "mktemp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the script needs %s: %v", tool, err)
		}
	}
	script, err := filepath.Abs("../../hack/verify-seals.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range chainCases() {
		if tc.goOnly {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			seals := tc.seals(t)
			cmd := exec.Command("bash", script)
			cmd.Stdin = bytes.NewReader(jsonpathLines(seals))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{false: 0, true: 1}[tc.broken]; code != want {
				t.Fatalf("exit status %d, want %d; stderr %s", code, want, stderr.String())
			}
			want := ""
			for _, l := range tc.out {
				want += expand(t, l, seals) + "\n"
			}
			if string(out) != want {
				t.Errorf("printed\n%s\nwant\n%s", out, want)
			}
		})
	}
	t.Run("no lines have nothing to verify", func(t *testing.T) {
		cmd := exec.Command("bash", script)
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.Output()
		if err != nil || string(out) != "no seals\n" {
			t.Fatalf("run = %v, printed %q; want no error and \"no seals\"", err, out)
		}
	})
	t.Run("a line without its payload is bad input", func(t *testing.T) {
		cmd := exec.Command("bash", script)
		cmd.Stdin = strings.NewReader("demo seal-000001 1 " + billingv1.ZeroHash + "\n")
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Fatalf("run = %v, want exit status 2", err)
		}
	})
	t.Run("a payload that is not a gzip is a broken link", func(t *testing.T) {
		c := chain(t, "demo", []int{1})
		c[0].Spec.Payload = base64.StdEncoding.EncodeToString([]byte("not a gzip"))
		cmd := exec.Command("bash", script)
		cmd.Stdin = bytes.NewReader(jsonpathLines(c))
		out, err := cmd.Output()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("run = %v, want exit status 1", err)
		}
		if want := "demo: seal seal-000001 (sequence 1): the payload is not the base64 of a gzip\n"; string(out) != want {
			t.Errorf("printed %q, want %q", out, want)
		}
	})
}
