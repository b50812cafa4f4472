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

// Package gitops tests what a platform team installs the operator from,
// other than config/default itself (which test/e2e applies): the Argo CD and
// Flux examples of docs/gitops.md, the documentation's copies of them, and
// the Helm chart in dist/chart. It renders with the tools those installs
// use: kustomize (as kubectl kustomize, the control plane's kubectl) and
// helm (bin/helm, which make helm installs).
package gitops

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// repoRoot is the repository, relative to this package.
var repoRoot = filepath.Join("..", "..")

// run runs a program and returns its standard output, failing the test
// with its standard error.
func run(t *testing.T, dir, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

// skipShort skips a test under -short (make test-unit): the tools it runs
// (helm, the control plane's kubectl) are built into bin/ by make test, which
// takes minutes the inner loop does not have.
func skipShort(t *testing.T, tool string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("skipped in -short mode (make test-unit): it runs %s, which make test builds into bin/", tool)
	}
}

// kustomize renders a kustomization directory as kubectl kustomize does.
func kustomize(t *testing.T, dir string) []*unstructured.Unstructured {
	t.Helper()
	skipShort(t, "kubectl")
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		t.Fatal("KUBEBUILDER_ASSETS must name the directory of the control plane's kubectl (make test sets it)")
	}
	return decode(t, run(t, ".", filepath.Join(assets, "kubectl"), "kustomize", dir))
}

// decode reads a multi-document YAML stream into objects.
func decode(t *testing.T, data []byte) []*unstructured.Unstructured {
	t.Helper()
	var objs []*unstructured.Unstructured
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		obj := &unstructured.Unstructured{}
		err := dec.Decode(&obj.Object)
		if errors.Is(err, io.EOF) {
			return objs
		}
		if err != nil {
			t.Fatalf("decoding manifests: %v", err)
		}
		if len(obj.Object) > 0 {
			objs = append(objs, obj)
		}
	}
}

// copyDir copies the regular files under src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o600)
	})
	if err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}
}

// deploymentImages returns the image of every container of every Deployment.
func deploymentImages(t *testing.T, objs []*unstructured.Unstructured) map[string]string {
	t.Helper()
	images := map[string]string{}
	for _, obj := range objs {
		if obj.GetKind() != "Deployment" {
			continue
		}
		containers, _, err := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range containers {
			m := c.(map[string]any)
			images[obj.GetName()+"/"+m["name"].(string)] = m["image"].(string)
		}
	}
	if len(images) == 0 {
		t.Fatal("no Deployment container rendered")
	}
	return images
}
