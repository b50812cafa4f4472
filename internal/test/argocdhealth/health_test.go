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
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/yaml"
)

// root is config/argocd, relative to this package.
var root = filepath.Join("..", "..", "..", "config", "argocd")

// healthTests is a health_test.yaml, as Argo CD's resource_customizations
// lay them out.
type healthTests struct {
	Tests []struct {
		InputPath    string `json:"inputPath"`
		HealthStatus Status `json:"healthStatus"`
	} `json:"tests"`
}

func loadChecks(t *testing.T) []Check {
	t.Helper()
	checks, err := Load(root)
	if err != nil {
		t.Fatalf("loading health checks: %v", err)
	}
	if len(checks) == 0 {
		t.Fatalf("no health.lua under %s", root)
	}
	return checks
}

func readTests(t *testing.T, c Check) healthTests {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.Dir, "health_test.yaml"))
	if err != nil {
		t.Fatalf("every health.lua needs a health_test.yaml: %v", err)
	}
	var tests healthTests
	if err := yaml.UnmarshalStrict(data, &tests); err != nil {
		t.Fatalf("decoding %s/health_test.yaml: %v", c.Dir, err)
	}
	if len(tests.Tests) == 0 {
		t.Fatalf("%s/health_test.yaml has no tests", c.Dir)
	}
	return tests
}

func readObject(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path) //nolint:gosec // test data
	if err != nil {
		t.Fatalf("reading test object: %v", err)
	}
	// Decoded as client-go decodes what the API server sends (integers as
	// int64), which is what Argo CD hands its scripts.
	json, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(json); err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	return obj.Object
}

// Every health_test.yaml case, run as Argo CD's own util/lua health test
// runs resource_customizations: the object of inputPath through health.lua
// must give healthStatus.
func TestHealthChecksGiveTheStatusTheirTestsExpect(t *testing.T) {
	for _, c := range loadChecks(t) {
		for _, tc := range readTests(t, c).Tests {
			t.Run(c.Group+"/"+c.Kind+"/"+tc.InputPath, func(t *testing.T) {
				obj := readObject(t, filepath.Join(c.Dir, tc.InputPath))
				if obj["kind"] != c.Kind {
					t.Fatalf("test object is a %v, not a %s", obj["kind"], c.Kind)
				}
				got, err := Evaluate(c.Script, obj)
				if err != nil {
					t.Fatalf("Evaluate: %v", err)
				}
				if got != tc.HealthStatus {
					t.Errorf("health = %+v, want %+v", got, tc.HealthStatus)
				}
			})
		}
	}
}

func TestEveryTestObjectIsUsedByAHealthTest(t *testing.T) {
	for _, c := range loadChecks(t) {
		var used []string
		for _, tc := range readTests(t, c).Tests {
			used = append(used, filepath.Clean(tc.InputPath))
		}
		files, err := filepath.Glob(filepath.Join(c.Dir, "testdata", "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			rel, _ := filepath.Rel(c.Dir, f)
			if !slices.Contains(used, rel) {
				t.Errorf("%s is in no test of %s/health_test.yaml", rel, c.Dir)
			}
		}
	}
}

// A new kind in config/crd/bases needs its health check: Argo CD would
// otherwise report its objects Healthy whatever their conditions say.
func TestEveryKindOfTheCRDsHasAHealthCheck(t *testing.T) {
	var have []string
	for _, c := range loadChecks(t) {
		have = append(have, c.Group+"/"+c.Kind)
	}
	crds, err := filepath.Glob(filepath.Join("..", "..", "..", "config", "crd", "bases", "*.yaml"))
	if err != nil || len(crds) == 0 {
		t.Fatalf("no CRDs found: %v", err)
	}
	for _, path := range crds {
		crd := readObject(t, path)
		group, _, _ := unstructured.NestedString(crd, "spec", "group")
		kind, _, _ := unstructured.NestedString(crd, "spec", "names", "kind")
		if !slices.Contains(have, group+"/"+kind) {
			t.Errorf("%s/%s has no config/argocd/%s/%s/health.lua", group, kind, group, kind)
		}
	}
}

// Every condition reason of api/v1 is in some test object, so a new reason
// gets a health test that says how Argo CD shows it.
func TestEveryConditionReasonHasAHealthTest(t *testing.T) {
	reasons := conditionReasons(t, filepath.Join("..", "..", "..", "api", "v1"))
	if len(reasons) == 0 {
		t.Fatal("found no Reason constants in api/v1")
	}
	tested := map[string]bool{}
	for _, c := range loadChecks(t) {
		for _, tc := range readTests(t, c).Tests {
			obj := readObject(t, filepath.Join(c.Dir, tc.InputPath))
			conditions, _, _ := unstructured.NestedSlice(obj, "status", "conditions")
			for _, cond := range conditions {
				if m, ok := cond.(map[string]any); ok {
					tested[m["reason"].(string)] = true
				}
			}
		}
	}
	for name, reason := range reasons {
		if !tested[reason] {
			t.Errorf("no health test object has a condition with reason %s (api/v1 %s)", reason, name)
		}
	}
}

// kstatusAsArgoCD is, for each status kstatus computes, the Argo CD health
// statuses that say the same.
var kstatusAsArgoCD = map[status.Status][]string{
	status.CurrentStatus:     {Healthy},
	status.InProgressStatus:  {Progressing, Suspended},
	status.FailedStatus:      {Degraded},
	status.TerminatingStatus: {Progressing},
}

// Flux and kubectl read the same conditions through kstatus. Once the
// controller has written a status, the Argo CD health of every test object
// must say what kstatus says. (Before that, kstatus reads an object with no
// conditions as Current, while the scripts wait for the controller.)
// kstatus has no status for a paused object: it reads a paused
// WebhookEndpoint (Ready=False, Paused) as InProgress, where Argo CD has
// Suspended.
func TestHealthAgreesWithKstatusOnceTheControllerHasWrittenAStatus(t *testing.T) {
	want := kstatusAsArgoCD
	for _, c := range loadChecks(t) {
		for _, tc := range readTests(t, c).Tests {
			obj := readObject(t, filepath.Join(c.Dir, tc.InputPath))
			if _, written, _ := unstructured.NestedFieldNoCopy(obj, "status", "observedGeneration"); !written {
				continue
			}
			result, err := status.Compute(&unstructured.Unstructured{Object: obj})
			if err != nil {
				t.Fatalf("%s: kstatus: %v", tc.InputPath, err)
			}
			if !slices.Contains(want[result.Status], tc.HealthStatus.Status) {
				t.Errorf("%s/%s: Argo CD health %s, but kstatus computes %s (%s)",
					c.Kind, tc.InputPath, tc.HealthStatus.Status, result.Status, result.Message)
			}
		}
	}
}

func TestEvaluate(t *testing.T) {
	obj := map[string]any{"metadata": map[string]any{"generation": int64(2)}, "spec": map[string]any{"n": 1.5}}
	tests := []struct {
		name, script string
		want         Status
		wantErr      error
	}{
		{name: "returns the status and message of the returned table",
			script: `return {status = "Degraded", message = "gen " .. tostring(obj.metadata.generation)}`,
			want:   Status{Status: Degraded, Message: "gen 2"}},
		{name: "reads numbers that are not whole",
			script: `return {status = "Healthy", message = tostring(obj.spec.n)}`,
			want:   Status{Status: Healthy, Message: "1.5"}},
		{name: "reports a status Argo CD does not know as Unknown",
			script: `return {status = "Fine"}`,
			want:   Status{Status: Unknown, Message: invalidStatusMessage}},
		{name: "refuses a script that returns no table",
			script: `return "Healthy"`, wantErr: ErrNotATable},
		{name: "refuses a script that returns nothing",
			script: `local x = 1`, wantErr: ErrNotATable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Evaluate(tt.script, obj)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("health = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestEvaluateFailsWhereArgoCDWould(t *testing.T) {
	for name, script := range map[string]string{
		"the string library is not open, as in argocd-cm": `return {status = string.upper("healthy")}`,
		"the os library is not open":                      `return {status = "Healthy", message = os.getenv("HOME")}`,
		"a message that is not a string":                  `return {status = "Healthy", message = 3}`,
		"a script that does not compile":                  `return {`,
		"a script that runs longer than a second":         `while true do end`,
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := Evaluate(script, map[string]any{}); err == nil {
				t.Errorf("Evaluate = %+v, want an error", got)
			}
		})
	}
}
