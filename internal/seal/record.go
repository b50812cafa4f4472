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

package seal

import (
	"bytes"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
)

// The kinds a seal holds, as each record's "kind" says: those of the table
// of record kinds whose row is Sealed.
var (
	KindInvoice    = recordkind.Invoice.Name
	KindCreditNote = recordkind.CreditNote.Name
	KindPayment    = recordkind.Payment.Name
)

// sealedKinds are the rows of the kinds a seal holds.
var sealedKinds = recordkind.Where(func(k *recordkind.Kind) bool { return k.Sealed != nil })

// sealedKind is the row of the kind a seal holds named name; nil for
// another.
func sealedKind(name string) *recordkind.Kind {
	if k := recordkind.Named(name); k != nil && k.Sealed != nil {
		return k
	}
	return nil
}

// recordMeta is the metadata a sealed record keeps, in this order.
type recordMeta struct {
	Name              string            `json:"name"`
	Namespace         string            `json:"namespace"`
	UID               string            `json:"uid"`
	CreationTimestamp metav1.Time       `json:"creationTimestamp"`
	Labels            map[string]string `json:"labels,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`
}

// record is one line of a payload.
type record struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Metadata   recordMeta      `json:"metadata"`
	Spec       json.RawMessage `json:"spec"`
	Status     json.RawMessage `json:"status"`
}

// Line is the payload line of an Invoice, CreditNote or Payment as the
// API server stored it: apiVersion, kind, metadata (name, namespace, uid,
// creationTimestamp, labels, annotations), spec and status; without
// managedFields, resourceVersion, generation and finalizers. The label
// billingv1.LabelSealedIn is left out too: it is set on the original only
// after the seal is written.
func Line(obj client.Object) ([]byte, error) {
	k := recordkind.Of(obj)
	if k == nil || k.Sealed == nil {
		return nil, fmt.Errorf("a seal holds no %T", obj)
	}
	kind := k.Name
	parts, ok := obj.(billingv1.SealedRecord)
	if !ok {
		return nil, fmt.Errorf("a seal holds no %T: it has no SealParts", obj)
	}
	spec, status := parts.SealParts()
	specJSON, err := json.Marshal(spec)
	if err != nil {
		return nil, fmt.Errorf("encoding %s %s: %w", kind, obj.GetName(), err)
	}
	statusJSON, err := json.Marshal(status)
	if err != nil {
		return nil, fmt.Errorf("encoding %s %s: %w", kind, obj.GetName(), err)
	}
	labels := obj.GetLabels()
	if _, ok := labels[billingv1.LabelSealedIn]; ok {
		labels = make(map[string]string, len(obj.GetLabels()))
		for k, v := range obj.GetLabels() {
			if k != billingv1.LabelSealedIn {
				labels[k] = v
			}
		}
	}
	line, err := json.Marshal(record{
		APIVersion: billingv1.GroupVersion.String(), Kind: kind,
		Metadata: recordMeta{Name: obj.GetName(), Namespace: obj.GetNamespace(), UID: string(obj.GetUID()),
			CreationTimestamp: obj.GetCreationTimestamp(), Labels: labels, Annotations: obj.GetAnnotations()},
		Spec: specJSON, Status: statusJSON,
	})
	if err != nil {
		return nil, fmt.Errorf("encoding %s %s: %w", kind, obj.GetName(), err)
	}
	return line, nil
}

// Record is one sealed record read back from a payload.
type Record struct {
	// Kind is the record's kind, a Sealed row's of internal/recordkind:
	// KindInvoice, KindCreditNote or KindPayment.
	Kind string
	// Object is the record, of its kind's type (a *billingv1.Invoice,
	// ...), with its TypeMeta set.
	Object client.Object
	// Line is the record's line of the payload, without its newline: a
	// slice of the payload given to Records.
	Line []byte
}

// Records decodes an uncompressed payload into its records, in order.
func Records(raw []byte) ([]Record, error) {
	var out []Record
	err := eachLine(raw, func(n int, kind *recordkind.Kind, line []byte) error {
		obj := kind.New()
		if err := json.Unmarshal(line, obj); err != nil {
			return fmt.Errorf("line %d of the payload: %w", n, err)
		}
		out = append(out, Record{Kind: kind.Name, Object: obj, Line: line})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RawRecord is one sealed record of a payload, not decoded: for a reader
// that needs a few of its fields (the adapter indexes a million sealed
// records at a start, and a full decode of each was a third of it).
type RawRecord struct {
	// Kind is the record's kind, a Sealed row of internal/recordkind.
	Kind *recordkind.Kind
	// Line is the record's line of the payload, without its newline: a
	// slice of the payload given to RawRecords.
	Line []byte
}

// RawRecords splits an uncompressed payload into its records' lines, in
// order, each with its kind, checked as Records checks it; the lines are
// not decoded.
func RawRecords(raw []byte) ([]RawRecord, error) {
	out := make([]RawRecord, 0, bytes.Count(raw, []byte{'\n'}))
	err := eachLine(raw, func(_ int, kind *recordkind.Kind, line []byte) error {
		out = append(out, RawRecord{Kind: kind, Line: line})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachLine calls each with every non-empty line of raw, its number
// (from 1) and its kind, a sealed one, or returns the first error.
func eachLine(raw []byte, each func(n int, kind *recordkind.Kind, line []byte) error) error {
	for i, line := range bytes.Split(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		kind, err := kindOf(line)
		if err != nil {
			return fmt.Errorf("line %d of the payload: %w", i+1, err)
		}
		k := sealedKind(kind)
		if k == nil {
			return fmt.Errorf("line %d of the payload: a seal holds no kind %q", i+1, kind)
		}
		if err := each(i+1, k, line); err != nil {
			return err
		}
	}
	return nil
}

// kindPrefix is how a line Line wrote begins, up to its kind.
var kindPrefix = []byte(`{"apiVersion":"` + billingv1.GroupVersion.String() + `","kind":"`)

// kindOf is a line's kind: read straight after the apiVersion where Line
// puts it (a seal's lines are read by the million when a process starts,
// and a second JSON pass over each for one field costs a third of the
// time), or else from the decoded line.
func kindOf(line []byte) (string, error) {
	if rest, ok := bytes.CutPrefix(line, kindPrefix); ok {
		if kind, _, found := bytes.Cut(rest, []byte{'"'}); found && bytes.IndexByte(kind, '\\') < 0 {
			// The names of the kinds a seal holds cost nothing to
			// keep; any other is a string of its own.
			for _, k := range sealedKinds {
				if string(kind) == k.Name {
					return k.Name, nil
				}
			}
			return string(kind), nil
		}
	}
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return "", err
	}
	return head.Kind, nil
}

// Read verifies nothing: it decodes a seal's payload into its records. Use
// Verify first where the seal is not known to be good.
func Read(spec *billingv1.LedgerSealSpec) ([]Record, error) {
	raw, err := Uncompressed(spec)
	if err != nil {
		return nil, err
	}
	return Records(raw)
}
