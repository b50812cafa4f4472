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
	"io"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// childStopDeadline is how long a child has to exit after SIGTERM before it
// gets SIGKILL.
const childStopDeadline = 10 * time.Second

// child is a process we start and stop.
type child struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once the process has exited and been reaped
}

// newChild prepares a child process that writes to out, gets SIGTERM when
// ctx is cancelled (SIGKILL childStopDeadline later), and dies with us.
func newChild(ctx context.Context, out io.Writer, path string, args ...string) *child {
	c := exec.CommandContext(ctx, path, args...) //nolint:gosec // the binaries are make's own build outputs
	c.Stdout, c.Stderr = out, out
	c.Cancel = func() error { return c.Process.Signal(syscall.SIGTERM) }
	c.WaitDelay = childStopDeadline
	// Its own process group, so Ctrl-C reaches only us and we stop the
	// children in order; Pdeathsig, so a child never outlives us.
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	return &child{cmd: c, done: make(chan struct{})}
}

// start starts the process and reports its exit on exited.
func (c *child) start(exited chan<- error) error {
	if err := c.cmd.Start(); err != nil {
		close(c.done)
		return fmt.Errorf("starting %s: %w", c.cmd.Path, err)
	}
	go func() {
		err := c.cmd.Wait()
		close(c.done)
		exited <- fmt.Errorf("%s exited: %w", filepath.Base(c.cmd.Path), err)
	}()
	return nil
}

// children are the processes of one run, stopped together.
type children struct {
	ctx    context.Context
	stop   context.CancelFunc
	list   []*child
	exited chan error // the first exit of a child ends the run
}

func newChildren() *children {
	ctx, stop := context.WithCancel(context.Background())
	return &children{ctx: ctx, stop: stop, exited: make(chan error, 8)}
}

// start starts a child that writes to out.
func (cs *children) start(out io.Writer, path string, args ...string) error {
	c := newChild(cs.ctx, out, path, args...)
	cs.list = append(cs.list, c)
	return c.start(cs.exited)
}

// stopAll sends SIGTERM to every child and waits until each has exited.
func (cs *children) stopAll() {
	cs.stop()
	for _, c := range cs.list {
		<-c.done
	}
}
