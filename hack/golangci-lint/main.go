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

// Command golangci-lint is golangci-lint with the kube-api-linter module
// plugin built in, as `golangci-lint custom` builds it, but from the Go
// module proxy alone: `golangci-lint custom` clones golangci-lint's source
// from GitHub. go.mod pins both versions; make golangci-lint builds it.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"
	// kube-api-linter registers itself as the module plugin "kubeapilinter".
	_ "sigs.k8s.io/kube-api-linter"
)

func main() {
	info := commands.BuildInfo{Version: "unknown", GoVersion: "unknown", Commit: "(kube-api-linter built in)", Date: "(unknown)"}
	if build, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = build.GoVersion
		for _, dep := range build.Deps {
			if dep.Path == "github.com/golangci/golangci-lint/v2" {
				info.Version = strings.TrimPrefix(dep.Version, "v")
			}
		}
	}
	if err := commands.Execute(info); err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
