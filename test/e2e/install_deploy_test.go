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

// The install applied, and its pod's two containers run as the rendered
// Deployment says.

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/invoicing-dev/invoicing/internal/test/binaries"
	"github.com/invoicing-dev/invoicing/internal/test/netutil"
	"github.com/invoicing-dev/invoicing/internal/test/testca"
)

// rendersAndApplies: renders with kubectl kustomize and applies cleanly with server-side apply.
func (s *installSuite) rendersAndApplies() {
	By("installing cert-manager's CRDs, which the install's Certificates and Issuers need")
	s.c.installCertManagerCRDs()
	out := s.c.kubectl("kustomize", filepath.Join(repoRoot, "config", "default"))
	s.rendered = decodeManifests(out)
	manifests := filepath.Join(s.c.dir, "install.yaml")
	Expect(os.WriteFile(manifests, []byte(out), 0o600)).To(Succeed())

	applied := s.c.kubectl("apply", "--server-side", "--field-manager=e2e-install", "-f", manifests)
	for _, obj := range s.rendered {
		Expect(applied).To(ContainSubstring("/"+obj.GetName()+" serverside-applied"),
			"%s %s was not applied", obj.GetKind(), obj.GetName())
	}
	kinds := map[string]int{}
	for _, obj := range s.rendered {
		kinds[obj.GetKind()]++
	}
	Expect(kinds).To(HaveKeyWithValue("Namespace", 1))
	Expect(kinds).To(HaveKeyWithValue("CustomResourceDefinition", 17))
	Expect(kinds).To(HaveKeyWithValue("Deployment", 1))
	Expect(kinds).To(HaveKeyWithValue("ServiceAccount", 1))
	Expect(kinds).To(HaveKeyWithValue("Service", 2))
	Expect(kinds).To(HaveKeyWithValue("PodDisruptionBudget", 1))
	Expect(kinds).To(HaveKeyWithValue("Certificate", 3))
	Expect(kinds).To(HaveKeyWithValue("Issuer", 2))
	// API Priority and Fairness (config/apf): a level and a FlowSchema
	// each for the controller, the adapter and the sealing.
	Expect(kinds).To(HaveKeyWithValue("FlowSchema", 3))
	Expect(kinds).To(HaveKeyWithValue("PriorityLevelConfiguration", 3))
	// Retention (config/policy): issued invoices, invoice sequences,
	// issued credit notes, recorded payments, applied credit applications,
	// recorded refunds and write-offs, matched bank transactions, sent
	// reminders, period closes and seals are not deleted but with their
	// namespace (sealed originals by the manager alone), only the manager
	// writes seals and the sealed-in label.
	Expect(kinds).To(HaveKeyWithValue("ValidatingAdmissionPolicy", 13))
	Expect(kinds).To(HaveKeyWithValue("ValidatingAdmissionPolicyBinding", 13))

	By("applying the optional NetworkPolicies as a server-side dry run")
	policies := s.c.kubectl("kustomize", filepath.Join(repoRoot, "config", "network-policy"))
	policies = strings.ReplaceAll(policies, "namespace: system", "namespace: "+installNamespace)
	policyFile := filepath.Join(s.c.dir, "network-policy.yaml")
	Expect(os.WriteFile(policyFile, []byte(policies), 0o600)).To(Succeed())
	Expect(s.c.kubectl("apply", "--server-side", "--dry-run=server", "-f", policyFile)).
		To(ContainSubstring("networkpolicy.networking.k8s.io/allow-api-traffic serverside-applied"))

	By("applying the optional ServiceMonitor and PrometheusRule as a server-side dry run")
	s.c.installPrometheusOperatorCRDs()
	monitoring := s.c.kubectl("kustomize", filepath.Join(repoRoot, "config", "prometheus"))
	monitoring = strings.ReplaceAll(monitoring, "namespace: system", "namespace: "+installNamespace)
	monitoringFile := filepath.Join(s.c.dir, "prometheus.yaml")
	Expect(os.WriteFile(monitoringFile, []byte(monitoring), 0o600)).To(Succeed())
	Expect(s.c.kubectl("apply", "--server-side", "--dry-run=server", "-f", monitoringFile)).To(SatisfyAll(
		ContainSubstring("servicemonitor.monitoring.coreos.com/controller-manager-metrics-monitor serverside-applied"),
		ContainSubstring("prometheusrule.monitoring.coreos.com/alerts serverside-applied")))
}

// runsThePod: runs the controller and the adapter as two restricted containers of one pod.
func (s *installSuite) runsThePod() {
	deploy := renderedDeployment(s.rendered)
	spec := deploy.Spec.Template.Spec
	Expect(spec.ServiceAccountName).To(Equal(installAccount))
	By("running two replicas, spread over nodes, with a grace period longer than the adapter's drain")
	Expect(deploy.Spec.Replicas).To(HaveValue(BeEquivalentTo(2)))
	Expect(spec.TopologySpreadConstraints).To(ContainElement(HaveField("TopologyKey", "kubernetes.io/hostname")))
	Expect(containerArgs(deploy, "manager")).To(ContainElement("--leader-elect"))
	drain := 15 * time.Second // the adapter's --shutdown-timeout default
	if v := flagValue(containerArgs(deploy, "adapter"), "--shutdown-timeout"); v != "" {
		var err error
		drain, err = time.ParseDuration(v)
		Expect(err).NotTo(HaveOccurred())
	}
	for _, ctr := range spec.Containers {
		if ctr.Lifecycle != nil && ctr.Lifecycle.PreStop != nil && ctr.Lifecycle.PreStop.Sleep != nil {
			drain += time.Duration(ctr.Lifecycle.PreStop.Sleep.Seconds) * time.Second
		}
	}
	Expect(time.Duration(ptr.Deref(spec.TerminationGracePeriodSeconds, 30)) * time.Second).To(BeNumerically(">", drain))
	Expect(spec.SecurityContext.RunAsNonRoot).To(HaveValue(BeTrue()))
	Expect(spec.SecurityContext.SeccompProfile.Type).To(Equal(corev1.SeccompProfileTypeRuntimeDefault))
	Expect(spec.Containers).To(HaveLen(2))
	for _, ctr := range spec.Containers {
		Expect(ctr.Image).To(Equal(spec.Containers[0].Image), "one image for both containers")
		Expect(ctr.SecurityContext.ReadOnlyRootFilesystem).To(HaveValue(BeTrue()), ctr.Name)
		Expect(ctr.SecurityContext.AllowPrivilegeEscalation).To(HaveValue(BeFalse()), ctr.Name)
		Expect(ctr.SecurityContext.Capabilities.Drop).To(ConsistOf(corev1.Capability("ALL")), ctr.Name)
		Expect(ctr.LivenessProbe).NotTo(BeNil(), ctr.Name)
		Expect(ctr.ReadinessProbe).NotTo(BeNil(), ctr.Name)
		for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			Expect(ctr.Resources.Requests).To(HaveKey(r), ctr.Name)
			Expect(ctr.Resources.Limits).To(HaveKey(r), ctr.Name)
		}
	}

	By("creating a pod of the template where the restricted Pod Security Standard is enforced")
	ns, err := s.c.admin.CoreV1().Namespaces().Get(context.Background(), installNamespace, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	Expect(ns.Labels).To(HaveKeyWithValue("pod-security.kubernetes.io/enforce", "restricted"))
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "template-", Namespace: installNamespace},
		Spec:       deploy.Spec.Template.Spec,
	}
	_, err = s.c.admin.CoreV1().Pods(installNamespace).Create(context.Background(), pod,
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	Expect(err).NotTo(HaveOccurred(), "the pod template must pass the restricted Pod Security Standard")

	By("running both binaries with the Deployment's arguments, as its ServiceAccount")
	kubeconfig := s.c.writeKubeconfig("install", s.c.token(installNamespace, installAccount))
	managerArgs, managerAddrs := localize(containerArgs(deploy, "manager"))
	adapterArgs, adapterAddrs := localize(containerArgs(deploy, "adapter"))
	s.ca, err = testca.New("install test CA")
	Expect(err).NotTo(HaveOccurred())
	managerArgs = localizeCerts(managerArgs, s.ca, filepath.Join(s.c.dir, "manager"))
	adapterArgs = localizeCerts(adapterArgs, s.ca, filepath.Join(s.c.dir, "adapter"))
	Expect(flagValue(adapterArgs, "--tls-cert-dir")).NotTo(BeEmpty(), "the install serves the API over HTTPS")
	s.audience = flagValue(adapterArgs, "--token-audiences")
	Expect(s.audience).NotTo(BeEmpty(), "the install requires a token audience")
	// Outside a pod the manager cannot read its namespace from the
	// mounted ServiceAccount: name it.
	managerArgs = append(managerArgs, "--leader-election-namespace="+installNamespace)
	// The webhook receiver listens on this machine's loopback, which the
	// install refuses (in a pod, loopback is the manager itself).
	managerArgs = append(managerArgs, "--webhook-allow-insecure-loopback")
	s.manager = runBinary("manager", kubeconfig, managerArgs...)
	s.adapter = runBinary("adapter", kubeconfig, adapterArgs...)
	s.api = "https://" + adapterAddrs["--listen-address"]
	s.adapterM = adapterAddrs["--metrics-bind-address"]
	s.managerM = managerAddrs["--metrics-bind-address"]
	Expect(s.adapterM).NotTo(BeEmpty(), "the install serves the adapter's metrics")
	Expect(s.managerM).NotTo(BeEmpty(), "the install serves the manager's metrics")

	Eventually(func() (int, error) {
		return status("http://" + managerAddrs["--health-probe-bind-address"] + "/readyz")
	},
		time.Minute).Should(Equal(http.StatusOK))
	Eventually(func() (int, error) { return statusWith(s.ca.Client(), s.api+"/readyz") }, time.Minute).Should(Equal(http.StatusOK))

	By("holding the leader election Lease in the install's namespace")
	Eventually(func() (string, error) {
		lease, err := s.c.admin.CoordinationV1().Leases(installNamespace).Get(context.Background(),
			"invoicing-controller.billing.invoicing.dev", metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		return ptr.Deref(lease.Spec.HolderIdentity, ""), nil
	}, time.Minute).ShouldNot(BeEmpty())
}

func renderedDeployment(rendered []*unstructured.Unstructured) *appsv1.Deployment {
	GinkgoHelper()
	for _, obj := range rendered {
		if obj.GetKind() == "Deployment" {
			d := &appsv1.Deployment{}
			Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, d)).To(Succeed())
			return d
		}
	}
	Fail("config/default renders no Deployment")
	return nil
}

func containerArgs(d *appsv1.Deployment, name string) []string {
	GinkgoHelper()
	for _, ctr := range d.Spec.Template.Spec.Containers {
		if ctr.Name == name {
			return slices.Clone(ctr.Args)
		}
	}
	Fail("the Deployment has no container " + name)
	return nil
}

// localize moves every --*-address=:PORT argument to a free loopback
// address, so that the binaries run here as they would in the pod, and
// returns the addresses by flag.
func localize(args []string) ([]string, map[string]string) {
	addrs := map[string]string{}
	for i, arg := range args {
		name, value, ok := strings.Cut(arg, "=")
		if ok && strings.HasSuffix(name, "-address") && strings.HasPrefix(value, ":") {
			addrs[name] = netutil.MustFreeAddr(GinkgoT())
			args[i] = name + "=" + addrs[name]
		}
	}
	return args, addrs
}

// runBinary starts one of the binaries BeforeSuite built, with kubeconfig.
// stopBinary stops it.
func runBinary(name, kubeconfig string, args ...string) *gexec.Session {
	GinkgoHelper()
	cmd := exec.Command(filepath.Join(bins, name), args...)
	// client-go's informers start with a streaming watch where the API
	// server offers one, and with a list elsewhere. Turning the streaming watch off makes the binaries ask for
	// what an older API server gets, so the audit proves the list rules too.
	cmd.Env = binaries.CoverEnv(append(os.Environ(), "KUBECONFIG="+kubeconfig, "KUBE_FEATURE_WatchListClient=false"))
	session, err := gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	return session
}

// stopBinary stops a binary with SIGTERM, as the kubelet does, so that it
// shuts down cleanly and writes its coverage.
func stopBinary(session *gexec.Session) {
	GinkgoHelper()
	if session == nil {
		return
	}
	session.Terminate()
	Eventually(session, 30*time.Second).Should(gexec.Exit(0))
}
