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

// The install's identity: the benchmark renders config/default and gives the
// manager and the adapter the install's ServiceAccount (with its RBAC), a
// kubeconfig with its token, and the GOMAXPROCS of their containers' CPU
// limits.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/invoicing-dev/invoicing/internal/test/serviceaccount"
)

// install is what the benchmark takes from the rendered config/default.
type install struct {
	account   types.NamespacedName         // the ServiceAccount of the manager and the adapter
	identity  []*unstructured.Unstructured // its Namespace, ServiceAccount and RBAC
	apf       []*unstructured.Unstructured // FlowSchemas, then PriorityLevelConfigurations
	token     string                       // the ServiceAccount's token
	saConfig  *rest.Config                 // as the ServiceAccount
	schemaUID map[string]string            // the applied FlowSchemas by name, while applied
	// maxProcs is GOMAXPROCS per container of the Deployment: what Go
	// picks (since 1.25) under the container's CPU limit.
	maxProcs map[string]int64
}

// env is what the benchmark adds to the environment of the binary that runs
// in container: GOMAXPROCS as in the install, so that the scheduler spins
// no more Ps than in a pod (which shows in the CPU each request takes).
func (in *install) env(container string) []string {
	if n, ok := in.maxProcs[container]; ok {
		return []string{"GOMAXPROCS=" + strconv.FormatInt(n, 10)}
	}
	return nil
}

// readMaxProcs records the GOMAXPROCS of each container of a Deployment
// with a CPU limit: the limit in cores, rounded up.
func (in *install) readMaxProcs(deploy *unstructured.Unstructured) error {
	var d appsv1.Deployment
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(deploy.Object, &d); err != nil {
		return fmt.Errorf("reading the Deployment %s: %w", deploy.GetName(), err)
	}
	for _, c := range d.Spec.Template.Spec.Containers {
		if cpu, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
			in.maxProcs[c.Name] = max(1, (cpu.MilliValue()+999)/1000)
		}
	}
	return nil
}

// renderInstall runs kubectl kustomize on the install directory.
func renderInstall(ctx context.Context, kubectl, dir string) (*install, error) {
	out, err := exec.CommandContext(ctx, kubectl, "kustomize", dir).Output() //nolint:gosec // our own tools
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("kubectl kustomize %s: %w: %s", dir, err, ee.Stderr)
		}
		return nil, fmt.Errorf("kubectl kustomize %s: %w", dir, err)
	}
	in := &install{maxProcs: map[string]int64{}}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(out), 4096)
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("decoding the rendered install: %w", err)
		}
		if len(u.Object) == 0 {
			continue
		}
		gvk := u.GroupVersionKind()
		switch {
		case gvk.Group == flowcontrolGroup:
			in.apf = append(in.apf, u)
		case gvk.Kind == "Deployment":
			if err := in.readMaxProcs(u); err != nil {
				return nil, err
			}
		case gvk.Kind == "ServiceAccount":
			in.account = types.NamespacedName{Namespace: u.GetNamespace(), Name: u.GetName()}
			in.identity = append(in.identity, u)
		case gvk.Kind == "Namespace" || gvk.Group == "rbac.authorization.k8s.io":
			in.identity = append(in.identity, u)
		}
	}
	if in.account.Name == "" {
		return nil, fmt.Errorf("%s renders no ServiceAccount", dir)
	}
	if len(in.apf) == 0 {
		return nil, fmt.Errorf("%s renders no FlowSchema or PriorityLevelConfiguration", dir)
	}
	// Priority levels first on apply, FlowSchemas first on removal: a
	// FlowSchema never names a level that is not there.
	slices.SortStableFunc(in.apf, func(a, b *unstructured.Unstructured) int {
		return strings.Compare(b.GetKind(), a.GetKind())
	})
	return in, nil
}

// provisionInstall creates the install's identity, takes a token for its
// ServiceAccount, and writes a kubeconfig with it for the two binaries.
func (b *bench) provisionInstall(ctx context.Context, cs kubernetes.Interface, cfg *rest.Config) (string, error) {
	in, err := renderInstall(ctx, filepath.Join(b.cfg.Assets, "kubectl"), b.cfg.Install)
	if err != nil {
		return "", err
	}
	for _, o := range in.identity {
		if err := b.admin.Create(ctx, o.DeepCopy()); err != nil {
			return "", fmt.Errorf("creating %s %s: %w", o.GetKind(), o.GetName(), err)
		}
	}
	if in.token, err = serviceaccount.Token(ctx, cs, in.account.Namespace, in.account.Name, tokenLifetime); err != nil {
		return "", err
	}
	in.saConfig = rest.AnonymousClientConfig(cfg)
	in.saConfig.BearerToken = in.token
	b.install = in
	b.logf("The manager and the adapter run as %s, with GOMAXPROCS %v", in.account, in.maxProcs)

	kc := clientcmdapi.NewConfig()
	kc.Clusters["bench"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["install"] = &clientcmdapi.AuthInfo{Token: in.token}
	kc.Contexts["bench"] = &clientcmdapi.Context{Cluster: "bench", AuthInfo: "install"}
	kc.CurrentContext = "bench"
	path := filepath.Join(b.cfg.OutDir, "kubeconfig")
	return path, clientcmd.WriteToFile(*kc, path)
}
