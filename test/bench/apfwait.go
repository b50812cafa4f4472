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

// What the API server says of its priority levels: the queue wait per level
// that the measurements without and with the APF objects report, and a dump
// of the levels for reading a run.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// apfWait is the API server's queue wait per priority level: the sum and
// count of apiserver_flowcontrol_request_wait_duration_seconds.
type apfWait map[string][2]float64

// scrapeAPFWait reads the API server's metrics.
func (b *bench) scrapeAPFWait(ctx context.Context) (apfWait, error) {
	data, err := b.cs.Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the API server's metrics: %w", err)
	}
	w := apfWait{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		series, ok := strings.CutPrefix(line, "apiserver_flowcontrol_request_wait_duration_seconds_")
		if !ok {
			continue
		}
		i := 0
		switch {
		case strings.HasPrefix(series, "sum{"):
		case strings.HasPrefix(series, "count{"):
			i = 1
		default:
			continue
		}
		level := label(series, "priority_level")
		v, err := strconv.ParseFloat(series[strings.LastIndexByte(series, ' ')+1:], 64)
		if level == "" || err != nil {
			continue
		}
		s := w[level]
		s[i] += v
		w[level] = s
	}
	return w, sc.Err()
}

func label(series, name string) string {
	_, v, ok := strings.Cut(series, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ = strings.Cut(v, `"`)
	return v
}

// add adds the growth from before to after to w.
func (w apfWait) add(before, after apfWait) {
	for level, a := range after {
		d := [2]float64{a[0] - before[level][0], a[1] - before[level][1]}
		if d[1] > 0 {
			s := w[level]
			w[level] = [2]float64{s[0] + d[0], s[1] + d[1]}
		}
	}
}

// meanMs is the mean queue wait per level, in milliseconds, and the
// requests it is over.
func (w apfWait) meanMs() map[string]apfLevelWait {
	out := map[string]apfLevelWait{}
	for level, s := range w {
		out[level] = apfLevelWait{MeanMs: float64(int(s[0]/s[1]*1e6+0.5)) / 1000, Requests: int64(s[1])}
	}
	return out
}

// apfLevelWait is a priority level's mean queue wait over its requests.
type apfLevelWait struct {
	MeanMs   float64 `json:"mean_wait_ms"`
	Requests int64   `json:"requests"`
}

// dumpPriorityLevels saves the API server's view of its priority levels (what
// docs/apf.md tells an operator to read) as name.txt under the output
// directory, followed by each level's seats from its metrics.
func (b *bench) dumpPriorityLevels(ctx context.Context, name string) error {
	rc := b.cs.Discovery().RESTClient()
	dump, err := rc.Get().AbsPath("/debug/api_priority_and_fairness/dump_priority_levels").DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("reading dump_priority_levels: %w", err)
	}
	metrics, err := rc.Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("reading the API server's metrics: %w", err)
	}
	out := append(dump, "\nSeats per priority level (apiserver_flowcontrol_*_limit_seats):\n"...)
	for line := range strings.SplitSeq(string(metrics), "\n") {
		for _, m := range []string{"nominal", "lower", "current", "upper"} {
			if strings.HasPrefix(line, "apiserver_flowcontrol_"+m+"_limit_seats{") {
				out = append(append(out, line...), '\n')
			}
		}
	}
	return os.WriteFile(filepath.Join(b.cfg.OutDir, name+".txt"), out, 0o600)
}
