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

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

func TestTheSampleProfileSendsWhereTheMailCatcherListens(t *testing.T) {
	profile, err := os.ReadFile(filepath.Join("..", "..", "config", "samples", "billing_v1_billingprofile.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	host, port, _ := strings.Cut(sampleSMTPAddr, ":")
	for _, want := range []string{"host: " + host, "port: " + port, "tls: none"} {
		if !strings.Contains(string(profile), want) {
			t.Errorf("the sample billing profile has no %q", want)
		}
	}
}

func TestTheSamplesAreAppliedAsTheyAreWhenTheMailCatcherListensWhereTheySend(t *testing.T) {
	tests := []struct {
		name string
		mail mailCatcher
	}{
		{name: "without a mail catcher", mail: mailCatcher{smtpAddr: "127.0.0.1:2025"}},
		{name: "with the catcher on the samples' address", mail: mailCatcher{binary: "mailpit", smtpAddr: sampleSMTPAddr}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := t.TempDir()
			got, err := demoSamples(state, "config/samples", tt.mail)
			if err != nil || got != "config/samples" {
				t.Errorf("demoSamples = %q, %v; want config/samples", got, err)
			}
			if _, err := os.Stat(filepath.Join(state, "samples")); !os.IsNotExist(err) {
				t.Errorf("an overlay was written: %v", err)
			}
		})
	}
}

func TestTheSamplesOverlayIsBasedOnTheSamplesFromAnyStateDirectory(t *testing.T) {
	samples, err := filepath.Abs(filepath.Join("..", "..", "config", "samples"))
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	relative, err := filepath.Rel(wd, filepath.Join(t.TempDir(), ".local2"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		stateDir string
	}{
		{name: "an absolute state directory", stateDir: t.TempDir()},
		{name: "a state directory relative to the working directory, as make run gives it", stateDir: relative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := demoSamples(tt.stateDir, samples, mailCatcher{binary: "mailpit", smtpAddr: "127.0.0.1:2025"})
			if err != nil {
				t.Fatal(err)
			}
			if dir != filepath.Join(tt.stateDir, "samples") {
				t.Errorf("overlay in %s, want it in the state directory", dir)
			}
			k, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			_, rest, _ := strings.Cut(string(k), "resources:\n- ")
			base, _, _ := strings.Cut(rest, "\n")
			got, err := filepath.Abs(filepath.Join(dir, base))
			if err != nil || got != samples {
				t.Errorf("the overlay's base %q is %s, want %s", base, got, samples)
			}
		})
	}
}

func TestTheSamplesOverlaySendsTheDemoMailToTheMailCatcher(t *testing.T) {
	kubectl := filepath.Join(testenv.Require(t, "kubectl"), "kubectl")
	samples := filepath.Join("..", "..", "config", "samples")
	render := func(dir string) []map[string]any {
		out, err := exec.Command(kubectl, "kustomize", dir).Output() //nolint:gosec // the control plane's kubectl
		if err != nil {
			t.Fatalf("kubectl kustomize %s: %v", dir, err)
		}
		var objs []map[string]any
		for doc := range strings.SplitSeq(string(out), "\n---\n") {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
				t.Fatal(err)
			}
			objs = append(objs, obj)
		}
		return objs
	}
	tests := []struct {
		name, addr, host string
		port             float64 // as JSON numbers decode
	}{
		{name: "an IPv4 loopback address", addr: "127.0.0.1:2025", host: "127.0.0.1", port: 2025},
		{name: "the IPv6 loopback address", addr: "[::1]:2026", host: "::1", port: 2026},
		{name: "localhost", addr: "localhost:2027", host: "localhost", port: 2027},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := demoSamples(t.TempDir(), samples, mailCatcher{binary: "mailpit", smtpAddr: tt.addr})
			if err != nil {
				t.Fatal(err)
			}
			want := render(samples)
			n := 0
			for _, obj := range want {
				if obj["kind"] == "BillingProfile" {
					smtp := obj["spec"].(map[string]any)["email"].(map[string]any)["smtp"].(map[string]any)
					smtp["host"], smtp["port"] = tt.host, tt.port
					n++
				}
			}
			if n != 1 {
				t.Fatalf("the samples hold %d billing profiles, want 1", n)
			}
			if got := render(dir); !reflect.DeepEqual(got, want) {
				t.Errorf("the overlay renders\n%v\nwant the samples with the profile sending to %s:\n%v", got, tt.addr, want)
			}
		})
	}
}
