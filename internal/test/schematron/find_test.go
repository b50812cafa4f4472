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

package schematron

import (
	"os/exec"
	"strings"
	"testing"
)

func TestAModuleWithoutAToolInstalledSaysWhatToRun(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("without node, findNode fails earlier, naming node")
	}
	_, err := findNode(t.TempDir(), "qpdf --check", "xmltools", []string{"@neslinesli93/qpdf-wasm"})
	if err == nil || !strings.Contains(err.Error(), "run `make xmltools`") || !strings.Contains(err.Error(), "qpdf --check") {
		t.Errorf("got %v, want an error naming the check and saying to run make xmltools", err)
	}
}

func TestAModuleWithoutGoModSaysSo(t *testing.T) {
	if _, err := findNode("", "e-invoice validation", "einvoice-validators", nil); err == nil ||
		!strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("got %v, want an error saying there is no go.mod", err)
	}
}
