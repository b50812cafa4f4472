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
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// parentPollInterval is how often localenv looks at make.
const parentPollInterval = 200 * time.Millisecond

// makeSignals are the signals GNU make stops on. Its handler first resets
// the signal to its default (to raise it again once its children are
// gone), then waits for its children. It sends SIGTERM on to them, but not
// SIGINT, SIGHUP or SIGQUIT, which it expects the terminal to have sent to
// the whole process group: `kill -INT <pid of make>` reaches make alone,
// and make would wait for us forever.
var makeSignals = []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM}

// stopWithParent returns a context that is cancelled when the parent
// process (make, whose recipe execs localenv) stops: when it no longer
// catches a signal of makeSignals it caught when we started (it is
// handling it), or when it has exited (we were re-parented). It looks every
// parentPollInterval. Where /proc is missing (not Linux) it watches for the
// parent's exit only.
func stopWithParent(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	parent := os.Getppid()
	caught, known := parentCaught(parent)
	go func() {
		tick := time.NewTicker(parentPollInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if why := parentStopped(parent, caught, known); why != "" {
				fmt.Printf("\n%s: stopping too.\n", why)
				cancel()
				return
			}
		}
	}()
	return ctx, cancel
}

// parentStopped says why the parent process counts as stopping, or "".
func parentStopped(parent int, caught uint64, known bool) string {
	if os.Getppid() != parent {
		return "make has exited"
	}
	if !known {
		return ""
	}
	now, ok := parentCaught(parent)
	if !ok {
		return ""
	}
	for _, sig := range makeSignals {
		if bit := uint64(1) << (sig - 1); caught&bit != 0 && now&bit == 0 {
			return "make got " + sig.String()
		}
	}
	return ""
}

// parentCaught reads the set of signals the process pid catches, and
// whether it could.
func parentCaught(pid int) (uint64, bool) {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	return caughtSignals(status)
}

// caughtSignals parses the SigCgt line of a /proc/<pid>/status: a
// hexadecimal mask whose bit n-1 is set when the process catches signal n.
func caughtSignals(status []byte) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		if mask, ok := strings.CutPrefix(sc.Text(), "SigCgt:"); ok {
			v, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64)
			return v, err == nil
		}
	}
	return 0, false
}
