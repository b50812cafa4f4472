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
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// helm returns bin/helm (or $HELM), installing it with make helm when the
// repository has none yet.
func helm(t *testing.T) string {
	t.Helper()
	skipShort(t, "helm")
	if h := os.Getenv("HELM"); h != "" {
		return h
	}
	bin, err := filepath.Abs(filepath.Join(repoRoot, "bin", "helm"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		run(t, repoRoot, "make", "--no-print-directory", "-s", "helm")
	}
	return bin
}

// The labels that tell who rendered an object, which differ by design
// between kustomize and Helm.
var renderedByLabels = []string{"app.kubernetes.io/managed-by", "app.kubernetes.io/instance", "helm.sh/chart"}

// normalize removes from an object what only says who rendered it.
func normalize(obj *unstructured.Unstructured) map[string]any {
	obj = obj.DeepCopy()
	for _, path := range [][]string{
		{"metadata", "labels"},
		{"spec", "template", "metadata", "labels"},
	} {
		labels, found, _ := unstructured.NestedStringMap(obj.Object, path...)
		if !found {
			continue
		}
		for _, l := range renderedByLabels {
			delete(labels, l)
		}
		if len(labels) == 0 {
			unstructured.RemoveNestedField(obj.Object, path...)
		} else {
			_ = unstructured.SetNestedStringMap(obj.Object, labels, path...)
		}
	}
	return obj.Object
}

func byKey(objs []*unstructured.Unstructured) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, obj := range objs {
		out[fmt.Sprintf("%s %s/%s", obj.GetKind(), obj.GetNamespace(), obj.GetName())] = normalize(obj)
	}
	return out
}

func TestTheHelmChartPassesHelmLint(t *testing.T) {
	run(t, repoRoot, helm(t), "lint", "--strict", filepath.Join("dist", "chart"))
}

// The chart is generated from config/ by kubebuilder's helm/v2-alpha plugin
// and reviewed; this keeps it from drifting: with its default values, as
// release invoicing in invoicing-system, it renders exactly the objects of
// config/default, but for who-rendered-it labels and the Namespace, which
// Helm does not own (helm install --create-namespace makes it; see
// docs/gitops.md for its Pod Security label).
func TestTheHelmChartRendersWhatConfigDefaultRenders(t *testing.T) {
	chart := decode(t, run(t, repoRoot, helm(t), "template", "invoicing", filepath.Join("dist", "chart"),
		"--namespace", "invoicing-system"))
	var kustomized []*unstructured.Unstructured
	for _, obj := range kustomize(t, filepath.Join(repoRoot, "config", "default")) {
		if obj.GetKind() != "Namespace" {
			kustomized = append(kustomized, obj)
		}
	}
	want, got := byKey(kustomized), byKey(chart)
	for key := range want {
		if _, ok := got[key]; !ok {
			t.Errorf("the chart does not render %s", key)
		}
	}
	for key, obj := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("the chart renders %s, which config/default does not", key)
			continue
		}
		if diff := cmp.Diff(want[key], obj); diff != "" {
			t.Errorf("%s differs from config/default (-config/default +chart):\n%s", key, diff)
		}
	}
}

// helm uninstall must keep the CRDs, and with them every invoice.
func TestTheHelmChartKeepsTheCRDsOnUninstall(t *testing.T) {
	chart := decode(t, run(t, repoRoot, helm(t), "template", "invoicing", filepath.Join("dist", "chart"),
		"--namespace", "invoicing-system"))
	crds := 0
	for _, obj := range chart {
		if obj.GetKind() == "CustomResourceDefinition" {
			crds++
			if obj.GetAnnotations()["helm.sh/resource-policy"] != "keep" {
				t.Errorf("CRD %s lacks helm.sh/resource-policy: keep", obj.GetName())
			}
		}
	}
	if crds == 0 {
		t.Error("the chart renders no CRD")
	}
}
