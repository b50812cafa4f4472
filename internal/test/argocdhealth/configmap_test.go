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

package argocdhealth

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// update rewrites the argocd-cm snippet: make argocd-cm.
var update = flag.Bool("update", false, "rewrite config/argocd/argocd-cm.yaml from the health.lua scripts")

func TestTheArgoCDConfigMapSnippetHoldsEveryScriptVerbatim(t *testing.T) {
	checks := loadChecks(t)
	path := filepath.Join(root, "argocd-cm.yaml")
	want := ConfigMap(checks)
	if *update {
		if err := os.WriteFile(path, want, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the snippet (make argocd-cm writes it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is out of date with the health.lua scripts: run make argocd-cm and commit it", path)
	}

	cm := &corev1.ConfigMap{}
	if err := yaml.UnmarshalStrict(got, cm); err != nil {
		t.Fatalf("the snippet is not a ConfigMap: %v", err)
	}
	if cm.Name != "argocd-cm" || len(cm.Data) != len(checks) {
		t.Fatalf("the snippet is ConfigMap %q with %d entries, want argocd-cm with %d", cm.Name, len(cm.Data), len(checks))
	}
	for _, c := range checks {
		if cm.Data[c.ConfigMapKey()] != c.Script {
			t.Errorf("argocd-cm %s differs from %s/health.lua", c.ConfigMapKey(), c.Dir)
		}
	}
}
