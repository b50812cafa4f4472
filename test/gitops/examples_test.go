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
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// wantImage is the image the examples of docs/examples set.
const wantImage = "registry.example/invoicing:v0.1.0"

// kustomizeImage is one entry of a kustomization's images list.
type kustomizeImage struct {
	Name    string `json:"name"`
	NewName string `json:"newName,omitempty"`
	NewTag  string `json:"newTag,omitempty"`
	Digest  string `json:"digest,omitempty"`
}

// argoImage parses an Argo CD spec.source.kustomize.images entry
// ("[old=]new[:tag|@digest]"), which Argo CD hands to kustomize edit set image.
func argoImage(s string) kustomizeImage {
	old, image, found := strings.Cut(s, "=")
	if !found {
		image = s
	}
	var img kustomizeImage
	if name, digest, ok := strings.Cut(image, "@"); ok {
		img.NewName, img.Digest = name, digest
	} else if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		img.NewName, img.NewTag = image[:i], image[i+1:]
	} else {
		img.NewName = image
	}
	img.Name = img.NewName
	if found {
		img.Name = old
	}
	return img
}

// renderWithImages renders the repository's path as Argo CD and Flux do when
// told to override images: both add them to the images of the kustomization
// at path (Argo CD with kustomize edit set image, Flux's kustomize-controller
// with its own generator) and build it.
func renderWithImages(t *testing.T, path string, images []kustomizeImage) []*unstructured.Unstructured {
	t.Helper()
	tree := t.TempDir()
	copyDir(t, filepath.Join(repoRoot, "config"), filepath.Join(tree, "config"))
	file := filepath.Join(tree, filepath.Clean(path), "kustomization.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the example's path has no kustomization: %v", err)
	}
	k := map[string]any{}
	if err := yaml.Unmarshal(data, &k); err != nil {
		t.Fatal(err)
	}
	list, _ := k["images"].([]any)
	for _, img := range images {
		list = append(list, img)
	}
	k["images"] = list
	if data, err = yaml.Marshal(k); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return kustomize(t, filepath.Join(tree, filepath.Clean(path)))
}

// readExample returns the objects of a file of docs/examples.
func readExample(t *testing.T, name string) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, data)
}

func find(t *testing.T, objs []*unstructured.Unstructured, kind string) *unstructured.Unstructured {
	t.Helper()
	for _, obj := range objs {
		if obj.GetKind() == kind {
			return obj
		}
	}
	t.Fatalf("no %s", kind)
	return nil
}

func expectImage(t *testing.T, objs []*unstructured.Unstructured, want string) {
	t.Helper()
	for container, image := range deploymentImages(t, objs) {
		if image != want {
			t.Errorf("%s runs %s, want %s", container, image, want)
		}
	}
}

func TestTheArgoCDExampleRunsTheImageItNames(t *testing.T) {
	app := find(t, readExample(t, "argocd/application.yaml"), "Application")
	path, _, _ := unstructured.NestedString(app.Object, "spec", "source", "path")
	if path != "config/default" {
		t.Fatalf("the Application installs %q, not config/default", path)
	}
	entries, _, _ := unstructured.NestedStringSlice(app.Object, "spec", "source", "kustomize", "images")
	images := make([]kustomizeImage, 0, len(entries))
	for _, e := range entries {
		images = append(images, argoImage(e))
	}
	expectImage(t, renderWithImages(t, path, images), wantImage)
}

func TestTheFluxExampleRunsTheImageItNames(t *testing.T) {
	objs := readExample(t, "flux/invoicing.yaml")
	ks := find(t, objs, "Kustomization")
	path, _, _ := unstructured.NestedString(ks.Object, "spec", "path")
	if filepath.Clean(path) != filepath.Join("config", "default") {
		t.Fatalf("the Kustomization installs %q, not ./config/default", path)
	}
	var spec struct {
		Images []kustomizeImage `json:"images"`
	}
	raw, _, _ := unstructured.NestedFieldNoCopy(ks.Object, "spec")
	data, err := yaml.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	expectImage(t, renderWithImages(t, path, spec.Images), wantImage)
	ref, _, _ := unstructured.NestedString(find(t, objs, "GitRepository").Object, "spec", "ref", "tag")
	if ref == "" {
		t.Error("the GitRepository pins no tag")
	}
}

// The examples the README showed before overrode the image under the name
// that config/manager had already replaced: the override did nothing.
func TestAnOverrideOfTheImageNamedControllerChangesNothing(t *testing.T) {
	objs := renderWithImages(t, "config/default", []kustomizeImage{argoImage("controller=" + wantImage)})
	expectImage(t, objs, "ghcr.io/invoicing-dev/invoicing:latest")
}

func TestArgoImageParsesWhatArgoCDAccepts(t *testing.T) {
	for in, want := range map[string]kustomizeImage{
		"a/b=registry.example/x:v1":      {Name: "a/b", NewName: "registry.example/x", NewTag: "v1"},
		"registry.example:5000/x:v1":     {Name: "registry.example:5000/x", NewName: "registry.example:5000/x", NewTag: "v1"},
		"a=registry.example:5000/x":      {Name: "a", NewName: "registry.example:5000/x"},
		"a=registry.example/x@sha256:ab": {Name: "a", NewName: "registry.example/x", Digest: "sha256:ab"},
	} {
		if got := argoImage(in); got != want {
			t.Errorf("argoImage(%q) = %+v, want %+v", in, got, want)
		}
	}
}
