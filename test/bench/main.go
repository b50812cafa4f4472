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

// Command bench is what `make bench` runs: it starts a control plane (the
// envtest kube-apiserver and etcd), the real manager and adapter binaries,
// and measures the adapter and the controller side by side with the
// Kubernetes API itself (see docs/performance.md). It prints a table and
// writes report.json. A benchmark run never fails on a figure, only when it
// could not measure.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
)

func main() {
	c := Config{}
	small := flag.Bool("small", false, "The smoke variant: 1,000 invoices instead of 10,000.")
	flag.StringVar(&c.Assets, "assets", os.Getenv("KUBEBUILDER_ASSETS"),
		"Directory of the kube-apiserver and etcd binaries (default $KUBEBUILDER_ASSETS).")
	flag.StringVar(&c.CRDs, "crds", "config/crd/bases", "Directory of the CustomResourceDefinitions.")
	flag.StringVar(&c.Install, "install", "config/default",
		"The install's kustomization: its ServiceAccount runs the binaries, its APF objects are applied in some rounds.")
	flag.StringVar(&c.Manager, "manager", "bin/manager", "The controller manager binary.")
	flag.StringVar(&c.Adapter, "adapter", "bin/adapter", "The adapter binary.")
	flag.StringVar(&c.OutDir, "out", "bin/bench", "Directory for report.json, profiles and the binaries' logs.")
	flag.IntVar(&c.Invoices, "invoices", 0, "Invoices per measurement (default 10,000, or 1,000 with -small).")
	flag.IntVar(&c.MemoryInvoices, "memory-invoices", 0,
		"Invoices in the cluster for measurement 5 (default 100,000; with -small, 1,000 more in each of 7 workspaces).")
	restartSizes := flag.String("restart-sizes", "",
		"Invoices in the cluster at measurement 9's restarts, separated by commas (default 100000,200000; with -small, one at the size reached).")
	flag.IntVar(&c.MillionInvoices, "million-invoices", 0,
		"Invoices in the installation of measurement 11, run only with -only million (default 1,000,000; with -small, 10,000).")
	flag.IntVar(&c.Workers, "workers", 16, "Concurrent workers on each side of a pair.")
	managerArgs := flag.String("manager-args", "", "Extra flags for the manager, separated by spaces.")
	adapterArgs := flag.String("adapter-args", "", "Extra flags for the adapter, separated by spaces.")
	watchCache := flag.Bool("watch-cache", true,
		"Start the kube-apiserver with its watch cache (false: the dedicated control plane's --watch-cache=false).")
	flag.BoolVar(&c.Profile, "profile", true, "Save CPU profiles of the adapter and the manager under -out.")
	cpuProfile := flag.String("cpuprofile", "", "Write a CPU profile of the benchmark process itself (its clients) to this file.")
	only := flag.String("only", "",
		"Run only these measurements, by number (or memory, restart, sealing, million, schedules, banking), separated by commas "+
			"(e.g. 4,6 or memory,restart); 2 and 3 also run 1, whose invoices they read; 11 (million) runs only when named.")
	flag.Parse()
	var err error
	if c.RestartSizes, err = sizes(*restartSizes); err != nil {
		fmt.Fprintln(os.Stderr, "bench: -restart-sizes:", err)
		os.Exit(2)
	}
	if !*small {
		if c.MemoryInvoices == 0 {
			c.MemoryInvoices = 100_000
		}
		if len(c.RestartSizes) == 0 {
			c.RestartSizes = []int{100_000, 200_000}
		}
	}
	if c.MillionInvoices == 0 {
		c.MillionInvoices = 1_000_000
		if *small {
			c.MillionInvoices = 10_000
		}
	}
	c.Only = strings.FieldsFunc(*only, func(r rune) bool { return r == ',' || r == ' ' })
	if c.Invoices == 0 {
		c.Invoices = 10_000
		if *small {
			c.Invoices = 1_000
		}
	}
	c.ManagerArgs, c.AdapterArgs = strings.Fields(*managerArgs), strings.Fields(*adapterArgs)
	c.NoWatchCache = !*watchCache
	c.Log = os.Stdout

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopProfile, err := profileSelf(*cpuProfile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench: -cpuprofile:", err)
		os.Exit(2)
	}
	report, err := Run(ctx, c)
	stopProfile()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	report.PrintTable(os.Stdout)
	fmt.Printf("\nWrote %s\n", report.path)
}

// profileSelf starts a CPU profile of this process into path (none when
// path is empty) and returns the function that ends it.
func profileSelf(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path) //nolint:gosec // a path the user gave
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}

// sizes parses numbers separated by commas.
func sizes(list string) ([]int, error) {
	var out []int
	for f := range strings.FieldsFuncSeq(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(strings.ReplaceAll(f, "_", ""))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a number of invoices", f)
		}
		out = append(out, n)
	}
	return out, nil
}
