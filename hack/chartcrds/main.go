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

// Command chartcrds writes the chart's CRD templates (dist/chart/templates/crd)
// from what config/default renders, as kubebuilder's helm/v2-alpha plugin
// wraps them: each CRD of config/crd, with the install's annotations and
// labels, inside `if .Values.crd.enabled`, and helm.sh/resource-policy only
// when crd.keep is set. It is quicker than regenerating the whole chart when
// only api/v1 changed, and leaves the reviewed templates alone:
//
//	bin/kustomize build config/default | go run ./hack/chartcrds dist/chart/templates/crd
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// keep is the chart's conditional form of the annotation that keeps the
// CRDs on helm uninstall.
const keep = "  annotations:\n" +
	"    {{- if .Values.crd.keep }}\n" +
	"    \"helm.sh/resource-policy\": keep\n" +
	"    {{- end }}\n"

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: kustomize build config/default | chartcrds <dir>")
		os.Exit(2)
	}
	if err := run(os.Stdin, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "chartcrds:", err)
		os.Exit(1)
	}
}

// run writes a template named <crd name>.yaml into dir for every
// CustomResourceDefinition of the rendered manifests in r.
func run(r io.Reader, dir string) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	written := 0
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		obj := &unstructured.Unstructured{Object: map[string]any{}}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return err
		}
		if obj.GetKind() != "CustomResourceDefinition" {
			continue
		}
		tmpl, err := template(obj)
		if err != nil {
			return fmt.Errorf("%s: %w", obj.GetName(), err)
		}
		if err := os.WriteFile(filepath.Join(dir, obj.GetName()+".yaml"), tmpl, 0o644); err != nil { //nolint:gosec // a chart's template
			return err
		}
		written++
	}
	if written == 0 {
		return fmt.Errorf("no CustomResourceDefinition in the input")
	}
	return nil
}

// template is the chart's template of crd: its YAML with sorted keys, the
// keep annotation made conditional, the whole made conditional.
func template(crd *unstructured.Unstructured) ([]byte, error) {
	annotations := crd.GetAnnotations()
	if _, ok := annotations["helm.sh/resource-policy"]; !ok {
		return nil, fmt.Errorf("no helm.sh/resource-policy annotation (config/crd/kustomization.yaml sets it)")
	}
	delete(annotations, "helm.sh/resource-policy")
	crd.SetAnnotations(annotations)
	out, err := yaml.Marshal(crd.Object)
	if err != nil {
		return nil, err
	}
	body := strings.Replace(string(out), "  annotations:\n", keep, 1)
	return []byte("{{- if .Values.crd.enabled }}\n" + body + "{{- end }}\n"), nil
}
