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

// Package argocdhealth runs the Argo CD health checks that this project ships
// in config/argocd (Lua, one health.lua per kind, laid out as Argo CD's own
// resource_customizations) with the interpreter Argo CD embeds, the way Argo
// CD runs a script from its argocd-cm ConfigMap, and renders those scripts as
// argocd-cm entries.
package argocdhealth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// The health statuses a script may return, as Argo CD names them
// (github.com/argoproj/gitops-engine/pkg/health).
const (
	Healthy     = "Healthy"
	Progressing = "Progressing"
	Degraded    = "Degraded"
	Suspended   = "Suspended"
	Missing     = "Missing"
	Unknown     = "Unknown"
)

// invalidStatusMessage is what Argo CD reports when a script returns a
// status that is none of the above.
const invalidStatusMessage = "Lua returned an invalid health status"

// scriptTimeout bounds one run of a script, as Argo CD does.
const scriptTimeout = time.Second

// Status is the result of a health check: what Argo CD shows for the object.
type Status struct {
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

// ErrNotATable is returned when a script does not return a table.
var ErrNotATable = errors.New("expect table output from Lua script")

// Evaluate runs script with obj as the global `obj` and returns the health
// the script returns, as Argo CD does for a script from argocd-cm: without
// Lua's standard libraries (only package, base and table are opened, so a
// script that needs string or os fails here as it would there; Argo CD
// also opens a restricted os, which these scripts do not use), within one
// second. A returned status that Argo CD does not know becomes Unknown.
func Evaluate(script string, obj map[string]any) (Status, error) {
	l := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer l.Close()
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.LoadLibName, lua.OpenPackage},
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
	} {
		if err := l.CallByParam(lua.P{Fn: l.NewFunction(lib.open), NRet: 0, Protect: true}, lua.LString(lib.name)); err != nil {
			return Status{}, fmt.Errorf("opening Lua library %q: %w", lib.name, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), scriptTimeout)
	defer cancel()
	l.SetContext(ctx)
	l.SetGlobal("obj", toLua(l, obj))
	if err := l.DoString(script); err != nil {
		return Status{}, fmt.Errorf("running health script: %w", err)
	}
	return fromLua(l.Get(-1))
}

// fromLua reads the table a script returned.
func fromLua(v lua.LValue) (Status, error) {
	table, ok := v.(*lua.LTable)
	if !ok {
		return Status{}, fmt.Errorf("%w, not %s", ErrNotATable, v.Type())
	}
	var out Status
	for field, dst := range map[string]*string{"status": &out.Status, "message": &out.Message} {
		switch value := table.RawGetString(field).(type) {
		case lua.LString:
			*dst = string(value)
		case *lua.LNilType:
		default:
			return Status{}, fmt.Errorf("health %s is a %s, not a string", field, value.Type())
		}
	}
	switch out.Status {
	case Healthy, Progressing, Degraded, Suspended, Missing, Unknown:
		return out, nil
	default:
		return Status{Status: Unknown, Message: invalidStatusMessage}, nil
	}
}

// toLua converts a decoded JSON or YAML object, or an unstructured object of
// client-go (whose integers are int64), into Lua values.
func toLua(l *lua.LState, value any) lua.LValue {
	switch v := value.(type) {
	case bool:
		return lua.LBool(v)
	case string:
		return lua.LString(v)
	case float64:
		return lua.LNumber(v)
	case int64:
		return lua.LNumber(v)
	case int:
		return lua.LNumber(v)
	case int32:
		return lua.LNumber(v)
	case []any:
		table := l.CreateTable(len(v), 0)
		for _, item := range v {
			table.Append(toLua(l, item))
		}
		return table
	case map[string]any:
		table := l.CreateTable(0, len(v))
		for key, item := range v {
			table.RawSetString(key, toLua(l, item))
		}
		return table
	default:
		return lua.LNil
	}
}

// Check is the health check of one kind: config/argocd/<group>/<kind>/health.lua.
type Check struct {
	Group, Kind string
	// Dir is the directory of health.lua, health_test.yaml and testdata/.
	Dir    string
	Script string
}

// ConfigMapKey is the argocd-cm key that installs the check.
func (c Check) ConfigMapKey() string {
	return "resource.customizations.health." + c.Group + "_" + c.Kind
}

// Load reads every <group>/<kind>/health.lua under root, sorted by group
// and kind.
func Load(root string) ([]Check, error) {
	paths, err := filepath.Glob(filepath.Join(root, "*", "*", "health.lua"))
	if err != nil {
		return nil, err
	}
	checks := make([]Check, 0, len(paths))
	for _, path := range paths {
		script, err := os.ReadFile(path) //nolint:gosec // a path under the given root
		if err != nil {
			return nil, err
		}
		dir := filepath.Dir(path)
		checks = append(checks, Check{
			Group:  filepath.Base(filepath.Dir(dir)),
			Kind:   filepath.Base(dir),
			Dir:    dir,
			Script: string(script),
		})
	}
	sort.Slice(checks, func(i, j int) bool {
		if checks[i].Group != checks[j].Group {
			return checks[i].Group < checks[j].Group
		}
		return checks[i].Kind < checks[j].Kind
	})
	return checks, nil
}
