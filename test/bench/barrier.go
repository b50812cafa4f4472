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

// The cost of the adapter's read barrier (read your writes across
// replicas) during measurement 3, from the adapter's own metrics.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

const (
	barrierTime      = "invoicing_store_read_barrier_seconds"
	barrierFallbacks = "invoicing_store_read_barrier_fallbacks_total"
	barrierConfirmed = "invoicing_store_read_barrier_confirmed_total"
)

// barrierStats are the adapter's read barrier series at one moment: the
// time histogram's cumulative buckets (by upper bound, in seconds) and
// count, and the fallbacks to the API server by reason.
type barrierStats struct {
	buckets   map[float64]float64
	count     float64
	fallbacks map[string]float64
	// confirmed are the last pages served from the cache after a
	// metadata-only read confirmed it, by reason.
	confirmed map[string]float64
}

// scrapeBarrier reads the adapter's metrics endpoint.
func (b *bench) scrapeBarrier(ctx context.Context) (barrierStats, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.metricsURL, nil)
	if err != nil {
		return barrierStats{}, err
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return barrierStats{}, fmt.Errorf("reading the adapter's metrics: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return barrierStats{}, fmt.Errorf("reading the adapter's metrics: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return barrierStats{}, fmt.Errorf("reading the adapter's metrics: %s", resp.Status)
	}
	return parseBarrier(data), nil
}

// parseBarrier reads the barrier's series out of a text exposition.
func parseBarrier(data []byte) barrierStats {
	s := barrierStats{buckets: map[float64]float64{}, fallbacks: map[string]float64{}, confirmed: map[string]float64{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		series, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(series, barrierTime+`_bucket{le="`):
			le := strings.TrimSuffix(strings.TrimPrefix(series, barrierTime+`_bucket{le="`), `"}`)
			if bound, err := strconv.ParseFloat(le, 64); err == nil {
				s.buckets[bound] = v
			}
		case series == barrierTime+"_count":
			s.count = v
		case strings.HasPrefix(series, barrierFallbacks+`{reason="`):
			s.fallbacks[strings.TrimSuffix(strings.TrimPrefix(series, barrierFallbacks+`{reason="`), `"}`)] = v
		case strings.HasPrefix(series, barrierConfirmed+`{reason="`):
			s.confirmed[strings.TrimSuffix(strings.TrimPrefix(series, barrierConfirmed+`{reason="`), `"}`)] = v
		}
	}
	return s
}

// since is what happened between prev and s.
func (s barrierStats) since(prev barrierStats) barrierStats {
	d := barrierStats{buckets: map[float64]float64{}, count: s.count - prev.count, fallbacks: map[string]float64{},
		confirmed: map[string]float64{}}
	for le, v := range s.buckets {
		d.buckets[le] = v - prev.buckets[le]
	}
	for reason, v := range s.fallbacks {
		if v -= prev.fallbacks[reason]; v > 0 {
			d.fallbacks[reason] = v
		}
	}
	for reason, v := range s.confirmed {
		if v -= prev.confirmed[reason]; v > 0 {
			d.confirmed[reason] = v
		}
	}
	return d
}

// quantileMs is the upper bound, in milliseconds, of the bucket that holds
// quantile q of the barriers: an upper estimate, as precise as the buckets.
func (s barrierStats) quantileMs(q float64) float64 {
	if s.count == 0 {
		return 0
	}
	bounds := make([]float64, 0, len(s.buckets))
	for le := range s.buckets {
		bounds = append(bounds, le)
	}
	slices.Sort(bounds)
	finite := 0.0
	for _, le := range bounds {
		if math.IsInf(le, 1) {
			break // beyond the last bound: report that bound
		}
		finite = le
		if s.buckets[le] >= q*s.count {
			return le * 1000
		}
	}
	return finite * 1000
}
