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

package crd_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/invoicing-dev/invoicing/config/crd"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// samples reads every object of config/samples and its directories, but
// for the kustomizations, by file.
func samples(t *testing.T) map[string][]*unstructured.Unstructured {
	t.Helper()
	root := filepath.Join(testenv.ModuleRoot(), "config", "samples")
	out := map[string][]*unstructured.Unstructured{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" || d.Name() == "kustomization.yaml" {
			return err
		}
		data, err := os.ReadFile(path) //nolint:gosec // the repository's samples
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, doc := range bytes.Split(data, []byte("\n---\n")) {
			obj := &unstructured.Unstructured{}
			if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			out[rel] = append(out[rel], obj)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every sample (config/samples, and the ones applied after it: ledger,
// email) is an object the CRDs admit, so that kubectl apply -k of each
// succeeds. The API server validates them as it would store them, without
// storing them (a server-side dry run).
func TestTheCRDsAdmitEverySample(t *testing.T) {
	crds, err := crd.CRDs()
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.StartTest(t, testenv.WithCRDs(crds...)).Client
	ctx := context.Background()
	all := samples(t)
	if len(all) == 0 {
		t.Fatal("no samples found")
	}
	namespaces := map[string]bool{}
	for _, objs := range all {
		for _, obj := range objs {
			if ns := obj.GetNamespace(); ns != "" && !namespaces[ns] {
				namespaces[ns] = true
				if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for file, objs := range all {
		for _, obj := range objs {
			t.Run(file+"/"+obj.GetKind()+"/"+obj.GetName(), func(t *testing.T) {
				if obj.GetKind() == "Namespace" {
					t.Skip("created above")
				}
				if err := c.Create(ctx, obj, client.DryRunAll); err != nil {
					t.Errorf("the API server refuses the sample: %v", err)
				}
			})
		}
	}
}
