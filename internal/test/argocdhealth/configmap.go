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
	"strings"
)

// configMapHeader introduces the rendered argocd-cm entries.
const configMapHeader = `# Argo CD health checks for the invoicing CRDs, to merge into Argo CD's
# argocd-cm ConfigMap (for example as a patch in the kustomization that
# installs Argo CD). Generated from config/argocd/<group>/<kind>/health.lua
# by 'make argocd-cm': do not edit by hand.
apiVersion: v1
kind: ConfigMap
metadata:
  name: argocd-cm
  namespace: argocd
  labels:
    app.kubernetes.io/name: argocd-cm
    app.kubernetes.io/part-of: argocd
data:
`

// ConfigMap renders the checks as the argocd-cm ConfigMap entries that
// install them, each script verbatim as a YAML literal block.
func ConfigMap(checks []Check) []byte {
	var b bytes.Buffer
	b.WriteString(configMapHeader)
	for _, c := range checks {
		b.WriteString("  " + c.ConfigMapKey() + ": |\n")
		for _, line := range strings.Split(strings.TrimRight(c.Script, "\n"), "\n") {
			if line == "" {
				b.WriteString("\n")
				continue
			}
			b.WriteString("    " + line + "\n")
		}
	}
	return b.Bytes()
}
