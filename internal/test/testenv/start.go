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

package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Env is a running control plane.
type Env struct {
	// Config is the cluster admin's, with the rate limit of
	// WithClientRateLimit when one was given.
	Config *rest.Config
	// Client is the cluster admin's, with the scheme of the start (by
	// default client-go's kinds and billing.invoicing.dev/v1); it reads
	// and writes straight through the API server.
	Client client.WithWatch
	// Environment is envtest's, for what a suite does beyond the common
	// (adding users, stopping and starting the API server alone).
	Environment *envtest.Environment
}

// options are what Start is given.
type options struct {
	scheme       *runtime.Scheme
	assets       string
	crdDir       string
	crds         []*apiextensionsv1.CustomResourceDefinition
	noCRDs       bool
	certDir      string
	flags        [][2]string
	qps          float32
	burst        int
	setRateLimit bool
}

// Option changes how Start starts the control plane.
type Option func(*options)

// WithScheme sets the scheme of the admin client (and of envtest's CRD
// installation) instead of client-go's kinds and billing.invoicing.dev/v1.
func WithScheme(scheme *runtime.Scheme) Option {
	return func(o *options) { o.scheme = scheme }
}

// WithAssets names the directory of kube-apiserver and etcd instead of
// KUBEBUILDER_ASSETS, for a program (test/bench) that is given it.
func WithAssets(dir string) Option {
	return func(o *options) { o.assets = dir }
}

// WithCRDDirectory installs the CRDs of dir instead of the module's
// config/crd/bases, for a program (test/bench) that is given it.
func WithCRDDirectory(dir string) Option {
	return func(o *options) { o.crdDir = dir }
}

// WithCRDs installs crds instead of the files of config/crd/bases, as a
// downstream suite does with config/crd.CRDs.
func WithCRDs(crds ...*apiextensionsv1.CustomResourceDefinition) Option {
	return func(o *options) { o.crds = crds }
}

// WithoutCRDs installs no CRDs: the suite applies them itself, as the
// install (config/default) does.
func WithoutCRDs() Option {
	return func(o *options) { o.noCRDs = true }
}

// WithCertDir keeps the API server's certificates (its serving CA and
// ServiceAccount signing key) in dir, so that they survive a restart of
// the API server alone.
func WithCertDir(dir string) Option {
	return func(o *options) { o.certDir = dir }
}

// WithAPIServerFlag sets a flag of kube-apiserver, such as
// token-auth-file or audit-policy-file.
func WithAPIServerFlag(name, value string) Option {
	return func(o *options) { o.flags = append(o.flags, [2]string{name, value}) }
}

// WithClientRateLimit sets the QPS and burst of Config and Client: a
// suite with many concurrent writers would otherwise measure client-go's
// default limit. A negative qps means no client-side limit.
func WithClientRateLimit(qps float32, burst int) Option {
	return func(o *options) { o.qps, o.burst, o.setRateLimit = qps, burst, true }
}

// DefaultScheme returns a new scheme with client-go's kinds and
// billing.invoicing.dev/v1.
func DefaultScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(billingv1.AddToScheme(scheme))
	return scheme
}

// Start starts a control plane with the CRDs of the module's
// config/crd/bases installed. It does not check the binaries: a suite
// calls Require first, in its TestXxx (StartTest does both).
func Start(opts ...Option) (*Env, error) {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	if o.scheme == nil {
		o.scheme = DefaultScheme()
	}
	env := &envtest.Environment{Scheme: o.scheme, BinaryAssetsDirectory: o.assets}
	switch {
	case o.noCRDs:
	case o.crds != nil:
		env.CRDs = o.crds
	default:
		dir := o.crdDir
		if dir == "" {
			root := ModuleRoot()
			if root == "" {
				return nil, errors.New("finding the CRDs: no go.mod at or above the working directory")
			}
			dir = filepath.Join(root, "config", "crd", "bases")
		}
		env.CRDDirectoryPaths = []string{dir}
		env.ErrorIfCRDPathMissing = true
	}
	if o.certDir != "" {
		env.ControlPlane.APIServer = &envtest.APIServer{CertDir: o.certDir}
	}
	for _, flag := range o.flags {
		env.ControlPlane.GetAPIServer().Configure().Set(flag[0], flag[1])
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("starting the control plane: %w", err)
	}
	if o.setRateLimit {
		cfg.QPS, cfg.Burst = o.qps, o.burst
	}
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: o.scheme})
	if err != nil {
		_ = env.Stop()
		return nil, fmt.Errorf("creating the admin client: %w", err)
	}
	return &Env{Config: cfg, Client: c, Environment: env}, nil
}

// StartTest is Require and Start for a plain Go test: it skips or fails tb
// as Require does, fails it when the control plane does not start, and
// stops the control plane when tb ends.
func StartTest(tb testing.TB, opts ...Option) *Env {
	tb.Helper()
	Require(tb)
	env, err := Start(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := env.Stop(); err != nil {
			tb.Error(err)
		}
	})
	return env
}

// Stop stops the control plane.
func (e *Env) Stop() error {
	return e.Environment.Stop()
}

// WriteKubeconfig writes to path a kubeconfig of a new user named user in
// the group system:masters, for kubectl and the binaries.
func (e *Env) WriteKubeconfig(path, user string) error {
	admin, err := e.Environment.AddUser(envtest.User{Name: user, Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return err
	}
	kubeconfig, err := admin.KubeConfig()
	if err != nil {
		return err
	}
	return os.WriteFile(path, kubeconfig, 0o600)
}
