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
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCaughtSignalsReadsTheMaskOfProcStatus(t *testing.T) {
	tests := []struct {
		name   string
		status string
		want   uint64
		ok     bool
	}{
		{name: "GNU make catching SIGHUP, SIGINT, SIGTERM and more",
			status: "Name:\tmake\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\nSigCgt:\t0000000001814203\n",
			want:   0x1814203, ok: true},
		{name: "a process catching nothing", status: "SigCgt:\t0000000000000000\n", want: 0, ok: true},
		{name: "a status without the line", status: "Name:\tmake\n", ok: false},
		{name: "a mask that is not hexadecimal", status: "SigCgt:\tzz\n", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := caughtSignals([]byte(tt.status))
			if got != tt.want || ok != tt.ok {
				t.Errorf("caughtSignals = %#x, %v; want %#x, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// watcherEnv makes the test binary the child of make that watches it (as
// localenv with --stop-with-make) and writes what it saw to the file named.
const watcherEnv = "LOCALENV_TEST_WATCH_PARENT"

// TestWatchingMake is the child of make in TestASignalToMakeAloneStopsLocalenv;
// it does nothing in a test run of its own.
func TestWatchingMake(t *testing.T) {
	out := os.Getenv(watcherEnv)
	if out == "" {
		return
	}
	ctx, cancel := stopWithParent(context.Background())
	defer cancel()
	write := func(s string) {
		if err := os.WriteFile(out, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("watching")
	select {
	case <-ctx.Done():
		write("stopped")
	case <-time.After(time.Minute):
		write("not stopped")
	}
}

func TestASignalToMakeAloneStopsLocalenv(t *testing.T) {
	makeBin, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on PATH")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: localenv watches only for make's exit")
	}
	// A shell that started go test in the background ignores SIGINT, and
	// make would inherit that; catching it here gives make its default.
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		sig  syscall.Signal
	}{
		{name: "SIGINT to make, as kill -INT <pid of make> sends it", sig: syscall.SIGINT},
		{name: "SIGHUP to make, as a closed terminal sends it", sig: syscall.SIGHUP},
		{name: "make killed", sig: syscall.SIGKILL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			makefile := fmt.Sprintf("run:\n\texec %q -test.run='^TestWatchingMake$$'\n", self)
			if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(makefile), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(makeBin, "-s", "-C", dir, "run") //nolint:gosec // make, with our own Makefile
			cmd.Env = append(os.Environ(), watcherEnv+"="+out)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var waited error
			exited := make(chan struct{})
			go func() {
				waited = cmd.Wait()
				close(exited)
			}()
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-exited
			})
			seen := func(want string) bool {
				deadline := time.Now().Add(10 * time.Second)
				for time.Now().Before(deadline) {
					if b, _ := os.ReadFile(out); string(b) == want {
						return true
					}
					time.Sleep(20 * time.Millisecond)
				}
				b, _ := os.ReadFile(out)
				t.Errorf("the watching child wrote %q, want %q", b, want)
				return false
			}
			if !seen("watching") {
				return
			}
			if caught, ok := parentCaught(cmd.Process.Pid); tt.sig != syscall.SIGKILL && (!ok || caught&(1<<(tt.sig-1)) == 0) {
				t.Fatalf("make does not catch %v (mask %#x): this test cannot stand for a terminal", tt.sig, caught)
			}
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			if !seen("stopped") {
				return
			}
			select {
			case <-exited:
				if waited == nil || !strings.Contains(waited.Error(), "signal") {
					t.Errorf("make ended with %v, want it killed by the signal once its child is gone", waited)
				}
			case <-time.After(10 * time.Second):
				t.Error("make still waits after its child stopped")
			}
		})
	}
}
