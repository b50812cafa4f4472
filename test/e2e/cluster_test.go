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

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/invoicing-dev/invoicing/internal/test/serviceaccount"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// cluster is a control plane for the install suite: envtest's kube-apiserver
// and etcd, with an audit log of what the install's ServiceAccount asks
// for, and kube-controller-manager running the controllers an install
// relies on (ClusterRole aggregation, ResourceQuota).
type cluster struct {
	env        *testenv.Env
	cfg        *rest.Config
	admin      kubernetes.Interface
	adminDyn   dynamic.Interface
	dir        string
	kubeconfig string // an admin kubeconfig, for kubectl
	auditLog   string
}

// The install's ServiceAccount, as config/default names it.
const (
	installNamespace = "invoicing-system"
	installAccount   = "invoicing-controller-manager"
)

var installUser = "system:serviceaccount:" + installNamespace + ":" + installAccount

// auditPolicy records every request of the install's ServiceAccount once,
// when its answer is known, and nothing else.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
  users: ["` + "system:serviceaccount:" + installNamespace + ":" + installAccount + `"]
- level: None
`

func startCluster() *cluster {
	GinkgoHelper()
	c := &cluster{dir: GinkgoT().TempDir()}
	policy := filepath.Join(c.dir, "audit-policy.yaml")
	Expect(os.WriteFile(policy, []byte(auditPolicy), 0o600)).To(Succeed())
	c.auditLog = filepath.Join(c.dir, "audit.log")

	// No CRDs: the install applies them.
	var err error
	c.env, err = testenv.Start(testenv.WithoutCRDs(),
		testenv.WithAPIServerFlag("audit-policy-file", policy),
		testenv.WithAPIServerFlag("audit-log-path", c.auditLog),
		testenv.WithAPIServerFlag("audit-log-mode", "blocking"))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(c.env.Stop()).To(Succeed()) })
	c.cfg = c.env.Config
	c.admin = kubernetes.NewForConfigOrDie(c.cfg)
	c.adminDyn = dynamic.NewForConfigOrDie(c.cfg)

	c.kubeconfig = filepath.Join(c.dir, "admin.kubeconfig")
	Expect(c.env.WriteKubeconfig(c.kubeconfig, "e2e-admin")).To(Succeed())

	// kube-controller-manager with only what this suite needs: the
	// aggregation of the viewer and editor roles into view and edit, and
	// ResourceQuota usage. No HTTPS endpoint of its own.
	kcm := exec.Command(filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kube-controller-manager"),
		"--kubeconfig", c.kubeconfig,
		"--controllers", "clusterrole-aggregation,resourcequota",
		"--leader-elect=false",
		"--secure-port=0",
		"--concurrent-resource-quota-syncs=1",
		"--resource-quota-sync-period=5s",
	)
	session, err := gexec.Start(kcm, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { session.Kill().Wait(10 * time.Second) })
	return c
}

// kubectl runs the kubectl of the control plane as the admin and returns its
// standard output.
func (c *cluster) kubectl(args ...string) string {
	GinkgoHelper()
	cmd := exec.Command(filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kubectl"),
		append([]string{"--kubeconfig", c.kubeconfig}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "kubectl %s: %s", strings.Join(args, " "), stderr.String())
	return string(out)
}

// token returns a new token of a ServiceAccount, creating it (and its
// namespace) when missing. It is bound to audiences, or without them to the
// API server (kubectl create token [--audience]).
func (c *cluster) token(namespace, name string, audiences ...string) string {
	GinkgoHelper()
	ctx := context.Background()
	_, err := c.admin.CoreV1().Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
	Expect(client.IgnoreAlreadyExists(err)).To(Succeed())
	_, err = c.admin.CoreV1().ServiceAccounts(namespace).Create(ctx,
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	Expect(client.IgnoreAlreadyExists(err)).To(Succeed())
	token, err := serviceaccount.Token(ctx, c.admin, namespace, name, time.Hour, audiences...)
	Expect(err).NotTo(HaveOccurred())
	return token
}

// bindRole gives a ServiceAccount a ClusterRole in its namespace with a
// RoleBinding, as a cluster administrator gives a team a workspace.
func (c *cluster) bindRole(namespace, account, clusterRole string) {
	GinkgoHelper()
	_, err := c.admin.RbacV1().RoleBindings(namespace).Create(context.Background(), &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: account + "-" + clusterRole},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: clusterRole},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: account, Namespace: namespace}},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
}

// configFor is a client configuration that authenticates with token only.
func (c *cluster) configFor(token string) *rest.Config {
	return &rest.Config{
		Host:            c.cfg.Host,
		TLSClientConfig: rest.TLSClientConfig{CAData: c.cfg.CAData},
		BearerToken:     token,
		QPS:             50,
		Burst:           100,
	}
}

// dynamicFor is a client-go dynamic client that authenticates with token:
// what kubectl and GitOps controllers use to apply manifests.
func (c *cluster) dynamicFor(token string) dynamic.Interface {
	GinkgoHelper()
	d, err := dynamic.NewForConfig(c.configFor(token))
	Expect(err).NotTo(HaveOccurred())
	return d
}

// writeKubeconfig writes a kubeconfig that authenticates with token, for
// the binaries, and returns its path.
func (c *cluster) writeKubeconfig(name, token string) string {
	GinkgoHelper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["e2e"] = &clientcmdapi.Cluster{Server: c.cfg.Host, CertificateAuthorityData: c.cfg.CAData}
	cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: "e2e", AuthInfo: name}
	cfg.CurrentContext = name
	path := filepath.Join(c.dir, name+".kubeconfig")
	Expect(clientcmd.WriteToFile(*cfg, path)).To(Succeed())
	return path
}

// decodeManifests reads a multi-document YAML stream into objects.
func decodeManifests(data string) []*unstructured.Unstructured {
	GinkgoHelper()
	var objs []*unstructured.Unstructured
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(data), 4096)
	for {
		obj := &unstructured.Unstructured{}
		err := dec.Decode(&obj.Object)
		if errors.Is(err, io.EOF) {
			return objs
		}
		Expect(err).NotTo(HaveOccurred())
		if len(obj.Object) > 0 {
			objs = append(objs, obj)
		}
	}
}

// auditEvent is what the suite reads of an audit.k8s.io/v1 Event.
type auditEvent struct {
	Stage string `json:"stage"`
	Verb  string `json:"verb"`
	User  struct {
		Username string `json:"username"`
	} `json:"user"`
	ObjectRef *struct {
		APIGroup    string `json:"apiGroup"`
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
		Namespace   string `json:"namespace"`
		Name        string `json:"name"`
	} `json:"objectRef"`
	RequestURI string `json:"requestURI"`
	// Annotations hold the authorizer's decision ("allow" or "forbid")
	// under authorization.k8s.io/decision.
	Annotations    map[string]string `json:"annotations"`
	ResponseStatus *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"responseStatus"`
}

// readAudit returns the audit events of the install's ServiceAccount.
func (c *cluster) readAudit() []auditEvent {
	GinkgoHelper()
	f, err := os.Open(c.auditLog)
	Expect(err).NotTo(HaveOccurred())
	defer func() { _ = f.Close() }()
	var events []auditEvent
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		var e auditEvent
		Expect(json.Unmarshal(scanner.Bytes(), &e)).To(Succeed())
		if e.User.Username == installUser {
			events = append(events, e)
		}
	}
	Expect(scanner.Err()).NotTo(HaveOccurred())
	return events
}

// forbidden reports whether RBAC refused the request (as opposed to a 403
// of admission, such as a used-up ResourceQuota).
func (e auditEvent) forbidden() bool {
	return e.Annotations["authorization.k8s.io/decision"] == "forbid"
}

// String names a request in a failure message.
func (e auditEvent) String() string {
	code := 0
	if e.ResponseStatus != nil {
		code = e.ResponseStatus.Code
	}
	return fmt.Sprintf("%s %s -> %d %s", e.Verb, e.RequestURI, code, e.Annotations["authorization.k8s.io/reason"])
}
