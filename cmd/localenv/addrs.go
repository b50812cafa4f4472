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
	"fmt"
	"net"
)

// kubeconfigFlag is how every Kubernetes client localenv starts is given
// its kubeconfig.
const kubeconfigFlag = "--kubeconfig"

// metricsOff is the metrics address that serves no metrics endpoint, as
// the manager's and the adapter's --metrics-bind-address take it.
const metricsOff = "0"

// onLoopback refuses an address off loopback, for what localenv serves
// without authentication: the mail catcher and plain-HTTP metrics.
func onLoopback(flag, addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q: %w", flag, addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s %q: it is served without authentication, on loopback only (127.0.0.1, ::1, localhost)", flag, addr)
	}
	return nil
}

// operatorArgs are the arguments of the manager and of the adapter, which
// authenticate with kubeconfig and listen where o says, after checking
// every address o binds without authentication (the mail catcher's too)
// for loopback.
func (o options) operatorArgs(kubeconfig string) (manager, adapter []string, err error) {
	if err := o.mail.check(); err != nil {
		return nil, nil, err
	}
	managerMetrics, err := metricsArgs("--manager-metrics-addr", o.managerMetricsAddr)
	if err != nil {
		return nil, nil, err
	}
	adapterMetrics, err := metricsArgs("--adapter-metrics-addr", o.adapterMetricsAddr)
	if err != nil {
		return nil, nil, err
	}
	// Webhook receivers on a developer's machine listen on loopback, often
	// over plain http: allowed here, never in config/.
	manager = append([]string{kubeconfigFlag, kubeconfig, "--health-probe-bind-address", o.probeAddr,
		"--webhook-allow-insecure-loopback"}, managerMetrics...)
	adapter = append([]string{kubeconfigFlag, kubeconfig, "--listen-address", o.apiAddr}, adapterMetrics...)
	return manager, adapter, nil
}

// metricsArgs are the manager's or the adapter's metrics flags for addr:
// none served with metricsOff (or empty), else plain HTTP on a loopback
// address, so that curl http://addr/metrics reads them without a token.
func metricsArgs(flag, addr string) ([]string, error) {
	if addr == "" || addr == metricsOff {
		return []string{"--metrics-bind-address", metricsOff}, nil
	}
	if err := onLoopback(flag, addr); err != nil {
		return nil, err
	}
	return []string{"--metrics-bind-address", addr, "--metrics-secure=false"}, nil
}

// metricsBanner tells where the probes are, and the metrics when served.
func metricsBanner(o options) string {
	b := fmt.Sprintf("  Probes: http://%s/readyz (manager), http://%s/readyz (adapter).\n", o.probeAddr, o.apiAddr)
	for _, m := range []struct{ who, addr string }{{"manager", o.managerMetricsAddr}, {"adapter", o.adapterMetricsAddr}} {
		if m.addr != "" && m.addr != metricsOff {
			b += fmt.Sprintf("  Metrics of the %s: curl -s http://%s/metrics\n", m.who, m.addr)
		}
	}
	return b + "\n"
}
