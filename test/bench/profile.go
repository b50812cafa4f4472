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

package main

// CPU and heap profiles of the processes, saved with their pprof summaries
// for reading a run.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// profile saves a CPU profile of secs seconds as name.pprof, and its top
// entries as name.txt (and a graph as name.svg when Graphviz is there).
func (b *bench) profile(ctx context.Context, p *process, binary, name string, secs int) error {
	slow := &http.Client{Timeout: time.Duration(secs+30) * time.Second}
	path, err := b.saveProfile(ctx, slow, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", p.pprof, secs),
		"profile of "+binary, name)
	if err != nil {
		return err
	}
	b.summarize(ctx, binary, path, name)
	if _, err := exec.LookPath("dot"); err == nil {
		_, _ = pprofTool(ctx, "-svg", "-output", filepath.Join(b.cfg.OutDir, name+".svg"), binary, path)
	}
	return nil
}

// apiServerProfile saves a CPU profile of secs seconds of the API server
// as name.pprof, and its top entries as name.txt: what its time goes to
// while a step of ours runs. The profile carries its own symbols.
func (b *bench) apiServerProfile(ctx context.Context, name string, secs int) error {
	data, err := b.cs.Discovery().RESTClient().Get().AbsPath("/debug/pprof/profile").
		Param("seconds", strconv.Itoa(secs)).Timeout(time.Duration(secs+30) * time.Second).DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("the API server's CPU profile: %w", err)
	}
	path := filepath.Join(b.cfg.OutDir, name+".pprof")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return err
	}
	b.summarize(ctx, "", path, name)
	return nil
}

// heapProfile saves the process's heap profile as name.pprof and the top
// entries of its live memory as name.txt.
func (b *bench) heapProfile(ctx context.Context, p *process, binary, name string) error {
	path, err := b.saveProfile(ctx, b.http, "http://"+p.pprof+"/debug/pprof/heap", "heap profile of "+binary, name)
	if err != nil {
		return err
	}
	b.summarize(ctx, binary, path, name, "-sample_index=inuse_space")
	return nil
}

// saveProfile GETs a pprof endpoint and writes the profile as name.pprof
// under the output directory, returning its path.
func (b *bench) saveProfile(ctx context.Context, hc *http.Client, endpoint, what, name string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return "", err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", what, resp.Status)
	}
	path := filepath.Join(b.cfg.OutDir, name+".pprof")
	return path, os.WriteFile(path, data, 0o600)
}

// summarize writes the top entries of a profile as name.txt, when pprof
// can read it (a summary is a convenience, not a result).
func (b *bench) summarize(ctx context.Context, binary, path, name string, flags ...string) {
	args := append([]string{"-top", "-nodecount=30"}, flags...)
	if binary != "" {
		args = append(args, binary)
	}
	args = append(args, path)
	if top, err := pprofTool(ctx, args...); err == nil {
		_ = os.WriteFile(filepath.Join(b.cfg.OutDir, name+".txt"), top, 0o600)
	}
}

// pprofTool runs go tool pprof (from the Go that make uses) on a profile.
func pprofTool(ctx context.Context, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, "go", append([]string{"tool", "pprof"}, args...)...).Output() //nolint:gosec // our own files
}
