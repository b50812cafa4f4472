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

// Command localenv is what `make run` runs: a small cluster without nodes.
// It starts a local control plane (the same kube-apiserver and etcd the
// envtest suites use, its etcd data kept under --state-dir so objects
// survive restarts) and kube-controller-manager with the controllers a user
// of the operator relies on (namespace deletion, garbage collection,
// ClusterRole aggregation, ServiceAccounts; see clusterControllers), applies
// config/local (the CRDs, the RBAC and the retention policies of an install)
// with server-side apply, makes the workspace "demo" with a client
// ServiceAccount and its token, then runs the controller manager and the
// HTTP adapter as child processes, each with the ServiceAccount and
// permissions it has in a real cluster, and, with --mailpit, Mailpit: a mail
// catcher on loopback that the demo workspace's mail goes to. Every address
// it binds is a flag (make run's variables), so two runs with their own
// addresses and state directories run side by side. Ctrl-C or SIGTERM
// stops them all, children first, and leaves no process behind; so does a
// SIGINT sent to make alone, with --stop-with-make.
//
// It is a development tool; the container image does not contain it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"go.uber.org/zap/zapcore"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

type options struct {
	assets             string
	stateDir           string
	install            string
	samples            string
	manager            string
	adapter            string
	apiAddr            string
	probeAddr          string
	managerMetricsAddr string
	adapterMetricsAddr string
	workspace          string
	mail               mailCatcher
	stopWithMake       bool
}

// defineFlags defines localenv's flags on fs, into o.
func defineFlags(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.assets, "assets", "", "Directory holding the kube-apiserver, etcd, kube-controller-manager and kubectl binaries.")
	fs.StringVar(&o.stateDir, "state-dir", ".local",
		"Directory for etcd data, kubeconfigs, the client token and the kube-controller-manager log.")
	fs.StringVar(&o.install, "install", "config/local",
		"Kustomization to apply (server-side) at every start: the CRDs, the RBAC and whatever else it lists.")
	fs.StringVar(&o.samples, "samples", "config/samples",
		"The samples' kustomization. When the mail catcher listens elsewhere than its demo billing profile sends, "+
			"the banner names an overlay of it in --state-dir that sends to the catcher.")
	fs.StringVar(&o.manager, "manager", "bin/manager", "The controller manager binary.")
	fs.StringVar(&o.adapter, "adapter", "bin/adapter", "The HTTP adapter binary.")
	fs.StringVar(&o.apiAddr, "api-addr", "127.0.0.1:8080", "Address the HTTP adapter listens on (its /v1 API and its probes).")
	fs.StringVar(&o.probeAddr, "probe-addr", "127.0.0.1:8081", "Address of the controller manager's health probes.")
	fs.StringVar(&o.managerMetricsAddr, "manager-metrics-addr", metricsOff,
		"Address (loopback) of the controller manager's metrics, over plain HTTP; 0 serves none.")
	fs.StringVar(&o.adapterMetricsAddr, "adapter-metrics-addr", metricsOff,
		"Address (loopback) of the HTTP adapter's metrics, over plain HTTP; 0 serves none.")
	fs.StringVar(&o.workspace, "workspace", "demo", "The workspace (namespace) to create, with a client ServiceAccount.")
	fs.StringVar(&o.mail.binary, "mailpit", "", "The Mailpit binary to run as the mail catcher; none when empty.")
	fs.StringVar(&o.mail.smtpAddr, "mail-smtp-addr", "127.0.0.1:1025", "Address (loopback) of the mail catcher's SMTP server.")
	fs.StringVar(&o.mail.webAddr, "mail-web-addr", "127.0.0.1:8025", "Address (loopback) of the mail catcher's web view.")
	fs.BoolVar(&o.stopWithMake, "stop-with-make", false,
		"Stop, as on SIGINT, when the parent process (make, whose recipe execs localenv) is told to stop or exits: "+
			"make does not pass SIGINT on to its children.")
}

func main() {
	var o options
	defineFlags(flag.CommandLine, &o)
	// Human-readable logs; the control plane's debug chatter stays hidden.
	zapOpts := zap.Options{Development: true, Level: zapcore.InfoLevel}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))

	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "localenv:", err)
		os.Exit(1)
	}
}

// stopContext is cancelled on Ctrl-C or SIGTERM and, with --stop-with-make,
// when make stops.
func (o options) stopContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if !o.stopWithMake {
		return ctx, stop
	}
	ctx, stopped := stopWithParent(ctx)
	return ctx, func() { stopped(); stop() }
}

func run(o options) error {
	ctx, stop := o.stopContext()
	defer stop()
	operatorKubeconfig := filepath.Join(o.stateDir, "operator.kubeconfig")
	managerArgs, adapterArgs, err := o.operatorArgs(operatorKubeconfig)
	if err != nil {
		return err
	}
	// With its terminal or pipe gone, a write to stdout must not kill us
	// before we have stopped the control plane.
	signal.Ignore(syscall.SIGPIPE)

	if err := os.MkdirAll(filepath.Join(o.stateDir, "etcd"), 0o700); err != nil {
		return err
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory: o.assets,
		ControlPlane: envtest.ControlPlane{
			// A data directory of our own is kept when etcd stops.
			Etcd: &envtest.Etcd{DataDir: filepath.Join(o.stateDir, "etcd")},
		},
	}
	fmt.Println("Starting the local control plane (kube-apiserver and etcd)...")
	cfg, err := env.Start()
	if err != nil {
		return fmt.Errorf("starting the control plane: %w", err)
	}
	defer func() {
		fmt.Println("Stopping the local control plane...")
		if err := env.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "localenv: stopping the control plane:", err)
		}
	}()

	kubeconfigPath, err := writeAdminKubeconfig(env, o.stateDir)
	if err != nil {
		return err
	}

	// Stop the children before the control plane (deferred above) goes away.
	procs := newChildren()
	defer procs.stopAll()

	// kube-controller-manager first, so that the roles installed next are
	// aggregated at once. Its log goes to a file: it is chatty.
	kcmLogPath := filepath.Join(o.stateDir, "kube-controller-manager.log")
	kcmLog, err := os.Create(kcmLogPath) //nolint:gosec // a file in our state directory
	if err != nil {
		return err
	}
	defer func() { _ = kcmLog.Close() }()
	if err := procs.start(kcmLog, filepath.Join(o.assets, "kube-controller-manager"),
		controllerManagerArgs(kubeconfigPath, env.ControlPlane.APIServer.CertDir)...); err != nil {
		return err
	}

	// The mail catcher before the manager, so that no first message waits
	// for a retry.
	if err := o.mail.start(ctx, procs); err != nil {
		return err
	}

	if err := install(ctx, kubectlIn(o.assets), kubeconfigPath, o.install); err != nil {
		return fmt.Errorf("installing %s: %w", o.install, err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	operatorToken, clientToken, err := provision(ctx, cs, o.workspace)
	if err != nil {
		return err
	}
	if err := writeTokenKubeconfig(operatorKubeconfig, cfg, operatorToken); err != nil {
		return err
	}
	tokenPath := filepath.Join(o.stateDir, "token")
	if err := os.WriteFile(tokenPath, []byte(clientToken), 0o600); err != nil {
		return err
	}

	if err := procs.start(os.Stdout, o.manager, managerArgs...); err != nil {
		return err
	}
	if err := procs.start(os.Stdout, o.adapter, adapterArgs...); err != nil {
		return err
	}
	samples, err := demoSamples(o.stateDir, o.samples, o.mail)
	if err != nil {
		return err
	}
	printBanner(o, kubeconfigPath, tokenPath, samples)

	select {
	case <-ctx.Done():
		fmt.Println("\nShutting down...")
		return nil
	case err := <-procs.exited:
		return err
	}
}

// writeAdminKubeconfig adds an admin (system:masters) to the control plane
// and writes its kubeconfig into stateDir, for kubectl; it returns the path.
func writeAdminKubeconfig(env *envtest.Environment, stateDir string) (string, error) {
	admin, err := env.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return "", fmt.Errorf("adding the admin user: %w", err)
	}
	adminKubeconfig, err := admin.KubeConfig()
	if err != nil {
		return "", err
	}
	path := filepath.Join(stateDir, "kubeconfig")
	return path, os.WriteFile(path, adminKubeconfig, 0o600)
}

// writeTokenKubeconfig writes a kubeconfig that authenticates with a bearer token.
func writeTokenKubeconfig(path string, cfg *rest.Config, token string) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters["local"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["operator"] = &clientcmdapi.AuthInfo{Token: token}
	kc.Contexts["local"] = &clientcmdapi.Context{Cluster: "local", AuthInfo: "operator"}
	kc.CurrentContext = "local"
	return clientcmd.WriteToFile(*kc, path)
}

func printBanner(o options, kubeconfigPath, tokenPath, samples string) {
	kubectl := kubectlIn(o.assets)
	if abs, err := filepath.Abs(kubeconfigPath); err == nil {
		kubeconfigPath = abs
	}
	fmt.Printf(`
Invoicing is running on a local control plane. Press Ctrl-C to stop it.

  kubectl (built with the control plane; any recent kubectl works):
    alias kubectl='%[1]s --kubeconfig %[2]s'
    kubectl apply -k %[8]s
    kubectl get customers,invoices -n %[5]s

  HTTP API on http://%[3]s, as ServiceAccount %[5]s/%[6]s (token in %[4]s, valid %[7]d hours):
    curl -s -H "Authorization: Bearer $(cat %[4]s)" http://%[3]s/v1/invoices
    curl -sN -H "Authorization: Bearer $(cat %[4]s)" -H "Accept: text/event-stream" \
      "http://%[3]s/v1/invoices?status=issued&order=sequence"     # follow the issued invoices
    # once the samples are applied: the demo invoice as a PDF (without the Accept header: HTML)
    curl -s -H "Authorization: Bearer $(cat %[4]s)" -H 'Accept: application/pdf' -o invoice.pdf \
      http://%[3]s/v1/invoices/acme-2026-001/document

`, kubectl, kubeconfigPath, o.apiAddr, tokenPath, o.workspace, clientAccount, int(tokenLifetime.Hours()), samples)
	fmt.Print(o.mail.banner(samples))
	fmt.Print(metricsBanner(o))
	fmt.Printf("  Data is kept in %s between runs; delete that directory to start afresh.\n\n", o.stateDir)
}
