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

package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile creates dir/name with the given permissions.
func writeFile(t *testing.T, dir, name string, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), perm); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	need := []string{"kube-apiserver", "etcd", "kubectl"}
	root := t.TempDir()
	complete := filepath.Join(root, "bin", "k8s", "v1.36.3-etcd-v3.6.16")
	for _, name := range need {
		writeFile(t, complete, name, 0o755)
	}
	partial := filepath.Join(root, "bin", "k8s", "v1.99.0-etcd-v3.6.16")
	writeFile(t, partial, "kube-apiserver", 0o755)
	writeFile(t, partial, "etcd", 0o644)
	emptyRoot := t.TempDir()

	for _, tc := range []struct {
		name        string
		assets      string
		root        string
		wantDir     string
		wantInError []string
	}{
		{
			name: "a directory holding every binary is used", assets: complete, root: emptyRoot, wantDir: complete,
		},
		{
			name: "a directory missing binaries fails naming them and the make target", assets: partial, root: root,
			wantInError: []string{"KUBEBUILDER_ASSETS=" + partial, "no executable etcd, kubectl", "make envtest-binaries"},
		},
		{
			name: "without KUBEBUILDER_ASSETS and nothing built it fails saying what to run", root: emptyRoot,
			wantInError: []string{"needs a control plane (kube-apiserver, etcd, kubectl)", "KUBEBUILDER_ASSETS is not set", "make test", "make test-unit"},
		},
		{
			name: "without KUBEBUILDER_ASSETS it fails naming the complete directory make built", root: root,
			wantInError: []string{"KUBEBUILDER_ASSETS is not set", "built it in " + complete},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := find(tc.assets, need, tc.root)
			if len(tc.wantInError) == 0 {
				if err != nil || dir != tc.wantDir {
					t.Fatalf("find = %q, %v; want %q, nil", dir, err, tc.wantDir)
				}
				return
			}
			if err == nil {
				t.Fatalf("find = %q, nil; want an error", dir)
			}
			for _, want := range tc.wantInError {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is more than one line", err)
			}
		})
	}
}

func TestModuleRootIsTheDirectoryOfGoMod(t *testing.T) {
	root := ModuleRoot()
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("ModuleRoot() = %q, which holds no go.mod: %v", root, err)
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "test", "testenv")); err != nil {
		t.Fatalf("ModuleRoot() = %q is not this module's root: %v", root, err)
	}
}
