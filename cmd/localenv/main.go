/*
Copyright 2026 The Invoicing Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Command localenv is what `make run` runs: a local control plane (the same
// kube-apiserver and etcd the envtest suites use, its etcd data kept under
// --state-dir so objects survive restarts), the CRDs and RBAC from config/,
// the workspace "demo" with a client ServiceAccount and its token, then the
// controller manager and the HTTP adapter as child processes, each with the
// ServiceAccount and permissions it has in a real cluster. Ctrl-C stops them
// all, children first, and leaves no process behind.
//
// It is a development tool; the container image does not contain it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"go.uber.org/zap/zapcore"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/yaml"
)

// Names of what localenv creates, as config/default names them in a cluster.
const (
	systemNamespace   = "invoicing-system"
	operatorAccount   = "invoicing-controller-manager"
	clientAccount     = "demo-client"
	clientRole        = "invoicing-client"
	tokenLifetime     = 24 * time.Hour
	childStopDeadline = 10 * time.Second
)

type options struct {
	assets    string
	stateDir  string
	crds      string
	rbacDir   string
	manager   string
	adapter   string
	apiAddr   string
	probeAddr string
	workspace string
}

func main() {
	var o options
	flag.StringVar(&o.assets, "assets", "", "Directory holding the kube-apiserver, etcd and kubectl binaries.")
	flag.StringVar(&o.stateDir, "state-dir", ".local", "Directory for etcd data, kubeconfigs and the client token.")
	flag.StringVar(&o.crds, "crds", "config/crd/bases", "Directory of the CustomResourceDefinitions to install.")
	flag.StringVar(&o.rbacDir, "rbac", "config/rbac", "Directory of the operator's ClusterRole (role.yaml).")
	flag.StringVar(&o.manager, "manager", "bin/manager", "The controller manager binary.")
	flag.StringVar(&o.adapter, "adapter", "bin/adapter", "The HTTP adapter binary.")
	flag.StringVar(&o.apiAddr, "api-addr", "127.0.0.1:8080", "Address the HTTP adapter listens on.")
	flag.StringVar(&o.probeAddr, "probe-addr", "127.0.0.1:8081", "Address of the controller manager's health probes.")
	flag.StringVar(&o.workspace, "workspace", "demo", "The workspace (namespace) to create, with a client ServiceAccount.")
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

func run(o options) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// With its terminal or pipe gone, a write to stdout must not kill us
	// before we have stopped the control plane.
	signal.Ignore(syscall.SIGPIPE)

	if err := os.MkdirAll(filepath.Join(o.stateDir, "etcd"), 0o700); err != nil {
		return err
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory: o.assets,
		CRDDirectoryPaths:     []string{o.crds},
		ErrorIfCRDPathMissing: true,
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

	admin, err := env.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return fmt.Errorf("adding the admin user: %w", err)
	}
	adminKubeconfig, err := admin.KubeConfig()
	if err != nil {
		return err
	}
	kubeconfigPath := filepath.Join(o.stateDir, "kubeconfig")
	if err := os.WriteFile(kubeconfigPath, adminKubeconfig, 0o600); err != nil {
		return err
	}

	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	operatorToken, clientToken, err := provision(ctx, cs, o)
	if err != nil {
		return err
	}
	operatorKubeconfig := filepath.Join(o.stateDir, "operator.kubeconfig")
	if err := writeTokenKubeconfig(operatorKubeconfig, cfg, operatorToken); err != nil {
		return err
	}
	tokenPath := filepath.Join(o.stateDir, "token")
	if err := os.WriteFile(tokenPath, []byte(clientToken), 0o600); err != nil {
		return err
	}

	childCtx, stopChildren := context.WithCancel(context.Background())
	children := []*child{
		newChild(childCtx, o.manager, "--kubeconfig", operatorKubeconfig, "--health-probe-bind-address", o.probeAddr,
			"--metrics-bind-address", "0"),
		newChild(childCtx, o.adapter, "--kubeconfig", operatorKubeconfig, "--listen-address", o.apiAddr),
	}
	// Stop the children before the control plane (deferred above) goes away.
	defer waitChildren(children)
	defer stopChildren()
	exited := make(chan error, len(children))
	for _, c := range children {
		if err := c.start(exited); err != nil {
			return err
		}
	}
	printBanner(o, kubeconfigPath, tokenPath)

	select {
	case <-ctx.Done():
		fmt.Println("\nShutting down...")
		return nil
	case err := <-exited:
		return err
	}
}

// provision makes what a cluster installed with config/default has, and the
// demo workspace: the operator's ServiceAccount bound to its ClusterRole
// (config/rbac/role.yaml, the controller's and the adapter's rules), and a client ServiceAccount in the workspace allowed
// to get, list and create customers and invoices there. It returns a fresh
// token for each account.
func provision(ctx context.Context, cs kubernetes.Interface, o options) (operatorToken, clientToken string, err error) {
	for _, ns := range []string{systemNamespace, o.workspace} {
		if err := ensure(ctx, cs.CoreV1().Namespaces(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			return "", "", err
		}
	}
	operator, err := readClusterRole(filepath.Join(o.rbacDir, "role.yaml"))
	if err != nil {
		return "", "", err
	}
	operator.Name = "invoicing-" + operator.Name
	if err := apply(ctx, cs.RbacV1().ClusterRoles(), operator); err != nil {
		return "", "", err
	}
	operatorBinding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: operator.Name + "binding"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: operator.Name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: operatorAccount, Namespace: systemNamespace}},
	}
	if err := apply(ctx, cs.RbacV1().ClusterRoleBindings(), operatorBinding); err != nil {
		return "", "", err
	}
	role := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: clientRole, Namespace: o.workspace},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{"billing.invoicing.dev"},
			Resources: []string{"customers", "invoices"},
			Verbs:     []string{"get", "list", "create"},
		}},
	}
	if err := apply(ctx, cs.RbacV1().Roles(o.workspace), role); err != nil {
		return "", "", err
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: clientRole, Namespace: o.workspace},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: clientRole},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: clientAccount, Namespace: o.workspace}},
	}
	if err := apply(ctx, cs.RbacV1().RoleBindings(o.workspace), binding); err != nil {
		return "", "", err
	}
	if operatorToken, err = serviceAccountToken(ctx, cs, systemNamespace, operatorAccount); err != nil {
		return "", "", err
	}
	if clientToken, err = serviceAccountToken(ctx, cs, o.workspace, clientAccount); err != nil {
		return "", "", err
	}
	return operatorToken, clientToken, nil
}

// serviceAccountToken ensures the ServiceAccount and returns a new token for it.
func serviceAccountToken(ctx context.Context, cs kubernetes.Interface, namespace, name string) (string, error) {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace}}
	if err := ensure(ctx, cs.CoreV1().ServiceAccounts(namespace), sa); err != nil {
		return "", err
	}
	tr, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To(int64(tokenLifetime.Seconds()))},
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("requesting a token for %s/%s: %w", namespace, name, err)
	}
	return tr.Status.Token, nil
}

// creator is the Create method every typed client has.
type creator[T any] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
}

// ensure creates obj unless it exists.
func ensure[T any](ctx context.Context, c creator[T], obj T) error {
	if _, err := c.Create(ctx, obj, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating %T: %w", obj, err)
	}
	return nil
}

// updater is a typed client that can create and update.
type updater[T any] interface {
	creator[T]
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
}

// apply creates obj, or overwrites it when it exists (the state directory may
// hold an older version from a previous run).
func apply[T any](ctx context.Context, c updater[T], obj T) error {
	_, err := c.Create(ctx, obj, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		_, err = c.Update(ctx, obj, metav1.UpdateOptions{})
	}
	if err != nil {
		return fmt.Errorf("applying %T: %w", obj, err)
	}
	return nil
}

func readClusterRole(path string) (*rbacv1.ClusterRole, error) {
	data, err := os.ReadFile(path) //nolint:gosec // a manifest path given by make
	if err != nil {
		return nil, err
	}
	role := &rbacv1.ClusterRole{}
	if err := yaml.UnmarshalStrict(data, role); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return role, nil
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

// child is a process we start and stop.
type child struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once the process has exited and been reaped
}

// newChild prepares a child process that shares our output, gets SIGTERM when
// ctx is cancelled (SIGKILL childStopDeadline later), and dies with us.
func newChild(ctx context.Context, path string, args ...string) *child {
	c := exec.CommandContext(ctx, path, args...) //nolint:gosec // the binaries are make's own build outputs
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
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

// waitChildren waits until every started child has exited.
func waitChildren(children []*child) {
	for _, c := range children {
		if c.cmd.Process != nil {
			<-c.done
		}
	}
}

func printBanner(o options, kubeconfigPath, tokenPath string) {
	kubectl := filepath.Join(o.assets, "kubectl")
	if abs, err := filepath.Abs(kubeconfigPath); err == nil {
		kubeconfigPath = abs
	}
	fmt.Printf(`
Invoicing is running on a local control plane. Press Ctrl-C to stop it.

  kubectl (built with the control plane; any recent kubectl works):
    alias kubectl='%[1]s --kubeconfig %[2]s'
    kubectl apply -f config/samples/
    kubectl get customers,invoices -n %[5]s

  HTTP API on http://%[3]s, as ServiceAccount %[5]s/%[6]s (token in %[4]s, valid %[7]d hours):
    curl -s -H "Authorization: Bearer $(cat %[4]s)" http://%[3]s/v1/invoices

  Data is kept in %[8]s between runs; delete that directory to start afresh.

`, kubectl, kubeconfigPath, o.apiAddr, tokenPath, o.workspace, clientAccount, int(tokenLifetime.Hours()), o.stateDir)
}
