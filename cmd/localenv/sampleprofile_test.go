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
	"path/filepath"
	"strings"
	"testing"
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
