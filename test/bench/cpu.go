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

// A process's CPU time, to report the adapter's CPU per create apart from
// the noise that other processes on the machine put into its rates.

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times in /proc/<pid>/stat: USER_HZ, which
// Linux fixes at 100 for user space on every architecture Go supports.
const userHZ = 100

// cpu is the CPU time the process has used so far, user and system, all
// threads together (utime and stime of /proc/<pid>/stat).
func (p *process) cpu() (time.Duration, error) {
	return cpuOf(p.cmd.Process.Pid)
}

// cpuOf is the CPU time process pid has used so far, user and system.
func cpuOf(pid int) (time.Duration, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)) //nolint:gosec // /proc
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which is in parentheses and may
	// hold spaces: state is field 3, utime 14 and stime 15.
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return 0, errors.New("no command name in /proc stat")
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 13 {
		return 0, errors.New("too few fields in /proc stat")
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading /proc stat: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// cpuMeter sums a process's CPU time over the stretches it is on.
type cpuMeter struct {
	p     *process
	total time.Duration
	since time.Duration
	err   error
}

func (m *cpuMeter) on() {
	if t, err := m.p.cpu(); err != nil {
		m.err = errors.Join(m.err, err)
	} else {
		m.since = t
	}
}

func (m *cpuMeter) off() {
	if t, err := m.p.cpu(); err != nil {
		m.err = errors.Join(m.err, err)
	} else {
		m.total += t - m.since
	}
}

// stackCPU is the CPU time the manager, the kube-apiserver and etcd have
// used: what issuing an invoice costs each, apart from the rates that
// other work on the machine moves.
type stackCPU struct{ manager, apiserver, etcd time.Duration }

// stackCPU reads the three processes' CPU time now.
func (b *bench) stackCPU() (stackCPU, error) {
	var s stackCPU
	apiPID, etcdPID, err := b.plane.pids()
	if err != nil {
		return s, err
	}
	if s.manager, err = b.manager.cpu(); err != nil {
		return s, err
	}
	if s.apiserver, err = cpuOf(apiPID); err != nil {
		return s, err
	}
	s.etcd, err = cpuOf(etcdPID)
	return s, err
}

// add is s plus what was used between from and to.
func (s stackCPU) add(from, to stackCPU) stackCPU {
	return stackCPU{
		manager:   s.manager + to.manager - from.manager,
		apiserver: s.apiserver + to.apiserver - from.apiserver,
		etcd:      s.etcd + to.etcd - from.etcd,
	}
}

// msPer is each process's CPU milliseconds per one of n operations.
func (s stackCPU) msPer(n int) map[string]float64 {
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(max(n, 1)) }
	return map[string]float64{"manager": per(s.manager), "apiserver": per(s.apiserver), "etcd": per(s.etcd)}
}
