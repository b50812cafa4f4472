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

// The control plane under measurement: the kube-apiserver's and etcd's
// resident memory, etcd's database size, and a restart of the API server
// alone (with or without its watch cache).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// controlPlane is the benchmark's kube-apiserver and etcd.
type controlPlane struct {
	env *testenv.Env
	// kubeconfig is an admin's, for kubectl.
	kubeconfig string
}

// planeUsage is what the control plane holds at one moment.
type planeUsage struct {
	APIServerRSS int64 `json:"apiserver_rss_bytes"`
	EtcdRSS      int64 `json:"etcd_rss_bytes"`
	EtcdDB       int64 `json:"etcd_db_bytes"`
	EtcdDBInUse  int64 `json:"etcd_db_in_use_bytes"`
}

// pids are the kube-apiserver's and etcd's process ids.
func (c *controlPlane) pids() (apiPID, etcdPID int, err error) {
	cp := c.env.Environment.ControlPlane
	if apiPID, err = pidWithArgument("--cert-dir=" + cp.GetAPIServer().CertDir); err != nil {
		return 0, 0, fmt.Errorf("the kube-apiserver: %w", err)
	}
	if etcdPID, err = pidWithArgument("--data-dir=" + cp.Etcd.DataDir); err != nil {
		return 0, 0, fmt.Errorf("etcd: %w", err)
	}
	return apiPID, etcdPID, nil
}

// usage reads both processes' VmRSS and etcd's database size.
func (c *controlPlane) usage(ctx context.Context) (planeUsage, error) {
	var u planeUsage
	cp := c.env.Environment.ControlPlane
	apiPID, etcdPID, err := c.pids()
	if err != nil {
		return u, err
	}
	if u.APIServerRSS, err = rssOf(apiPID); err != nil {
		return u, err
	}
	if u.EtcdRSS, err = rssOf(etcdPID); err != nil {
		return u, err
	}
	metrics, err := get(ctx, cp.Etcd.URL.String()+"/metrics")
	if err != nil {
		return u, err
	}
	u.EtcdDB = int64(metricValue(metrics, "etcd_mvcc_db_total_size_in_bytes"))
	u.EtcdDBInUse = int64(metricValue(metrics, "etcd_mvcc_db_total_size_in_use_in_bytes"))
	return u, nil
}

// pidWithArgument finds the process whose command line has arg.
func pidWithArgument(arg string) (int, error) {
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		return 0, err
	}
	for _, path := range dirs {
		cmdline, err := os.ReadFile(path) //nolint:gosec // /proc
		if err != nil {
			continue
		}
		for a := range bytes.SplitSeq(cmdline, []byte{0}) {
			if string(a) == arg {
				return strconv.Atoi(filepath.Base(filepath.Dir(path)))
			}
		}
	}
	return 0, fmt.Errorf("no process with %s", arg)
}

// get returns the body of a plain GET.
func get(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// metricValue is the value of an unlabelled series in a Prometheus text
// exposition, 0 when it is absent.
func metricValue(exposition []byte, name string) float64 {
	sc := bufio.NewScanner(bytes.NewReader(exposition))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err == nil {
				return f
			}
		}
	}
	return 0
}

// restartAPIServer stops the API server and starts it again, with its
// watch cache on or off, and returns how long it took from the start until
// it answered a list of invoices.
func (c *controlPlane) restartAPIServer(ctx context.Context, watchCache bool) (time.Duration, error) {
	api := c.env.Environment.ControlPlane.GetAPIServer()
	if err := api.Stop(); err != nil {
		return 0, fmt.Errorf("stopping the kube-apiserver: %w", err)
	}
	api.Configure().Set("watch-cache", strconv.FormatBool(watchCache))
	start := time.Now()
	if err := api.Start(); err != nil {
		return 0, fmt.Errorf("starting the kube-apiserver: %w", err)
	}
	for {
		err := c.env.Client.List(ctx, &billingv1.InvoiceList{}, client.Limit(1))
		if err == nil {
			return time.Since(start), nil
		}
		if ctx.Err() != nil || time.Since(start) > 10*time.Minute {
			return 0, fmt.Errorf("the kube-apiserver did not serve invoices after its start: %w", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// timeKubectlGet is how long `kubectl get invoices -n ns` takes, and how
// many lines it printed.
func (c *controlPlane) timeKubectlGet(ctx context.Context, kubectl, ns string) (time.Duration, int, error) {
	start := time.Now()
	out, err := exec.CommandContext(ctx, kubectl, //nolint:gosec // our own kubectl
		"--kubeconfig", c.kubeconfig, "get", "invoices", "-n", ns, "--no-headers").Output()
	if err != nil {
		return 0, 0, err
	}
	return time.Since(start), bytes.Count(out, []byte{'\n'}), nil
}

// compactAndDefragment compacts etcd's history up to its current revision
// and defragments its database, through etcd's JSON gateway, as an
// operator would with etcdctl.
func (c *controlPlane) compactAndDefragment(ctx context.Context) error {
	base := c.env.Environment.ControlPlane.Etcd.URL.String()
	var head struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	if err := postJSON(ctx, base+"/v3/kv/range", map[string]any{"key": "AA=="}, &head); err != nil {
		return fmt.Errorf("reading etcd's revision: %w", err)
	}
	if err := postJSON(ctx, base+"/v3/kv/compaction",
		map[string]any{"revision": head.Header.Revision, "physical": true}, nil); err != nil {
		return fmt.Errorf("compacting etcd: %w", err)
	}
	if err := postJSON(ctx, base+"/v3/maintenance/defragment", map[string]any{}, nil); err != nil {
		return fmt.Errorf("defragmenting etcd: %w", err)
	}
	return nil
}

// postJSON posts body as JSON to url and decodes the answer into out
// (when not nil).
func postJSON(ctx context.Context, url string, body, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s: %s: %.200s", url, resp.Status, answer)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(answer, out)
}
