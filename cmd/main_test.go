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
	"flag"
	"io"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/manager/controller"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
)

// parseArgs parses args as the manager's flags, on a flag set of its own
// that returns errors instead of exiting.
func parseArgs(args ...string) (options, error) {
	fs := flag.NewFlagSet("manager", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return parseFlags(fs, args)
}

func TestParsingTheManagerFlags(t *testing.T) {
	t.Run("without flags the controllers get their defaults", func(t *testing.T) {
		o, err := parseArgs()
		if err != nil {
			t.Fatalf("parsing no flags: %v", err)
		}
		c := o.controllers
		if c.MaxConcurrentReconciles != 256 || c.WebhookWorkers != controller.DefaultWebhookWorkers ||
			c.ManagedFieldsDropRate != trim.DefaultManagedFieldsDropRate || c.KeepStatusManagedFields ||
			c.Webhooks.Policy.AllowInsecureLoopback || o.leaderElect || o.probeAddr != ":8081" {
			t.Errorf("parsed %+v, want the defaults", o)
		}
	})
	t.Run("the controllers' flags reach the controllers' options", func(t *testing.T) {
		o, err := parseArgs("--leader-elect", "--max-concurrent-reconciles=8", "--webhook-allow-insecure-loopback",
			"--webhook-timeout=3s", "--webhook-workers=2", "--keep-status-managed-fields", "--managed-fields-drop-rate=5")
		if err != nil {
			t.Fatalf("parsing the controllers' flags: %v", err)
		}
		c := o.controllers
		if !o.leaderElect || c.MaxConcurrentReconciles != 8 || !c.Webhooks.Policy.AllowInsecureLoopback ||
			c.Webhooks.Timeout != 3*time.Second || c.WebhookWorkers != 2 || !c.KeepStatusManagedFields ||
			c.ManagedFieldsDropRate != 5 {
			t.Errorf("parsed %+v", c)
		}
	})
	t.Run("an unknown flag is an error", func(t *testing.T) {
		if _, err := parseArgs("--no-such-flag"); err == nil {
			t.Error("parsed without an error")
		}
	})
}
