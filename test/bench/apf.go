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

package main

// The install's identity and its API Priority and Fairness objects: the
// benchmark renders config/default, gives the manager and the adapter the
// install's ServiceAccount (with its RBAC) and the GOMAXPROCS of their
// containers' CPU limits, and applies and removes the FlowSchemas and
// PriorityLevelConfigurations of config/apf between rounds, so that the API
// server classifies their requests as it would in a cluster.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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

const (
	flowcontrolGroup = "flowcontrol.apiserver.k8s.io"
	// The API server names the FlowSchema a request was classified by in
	// this response header.
	flowSchemaHeader = "X-Kubernetes-Pf-Flowschema-Uid"
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

// applyAPF creates the FlowSchemas and priority levels and waits until the
// API server classifies the ServiceAccount's requests by them.
func (b *bench) applyAPF(ctx context.Context) error {
	in := b.install
	in.schemaUID = map[string]string{}
	for _, o := range in.apf {
		obj := o.DeepCopy()
		if err := b.admin.Create(ctx, obj); err != nil {
			return fmt.Errorf("creating %s %s: %w", o.GetKind(), o.GetName(), err)
		}
		if obj.GetKind() == "FlowSchema" {
			in.schemaUID[obj.GetName()] = string(obj.GetUID())
		}
	}
	return b.awaitClassification(ctx, true)
}

// removeAPF deletes them and waits until the API server no longer uses them.
func (b *bench) removeAPF(ctx context.Context) error {
	for _, o := range slices.Backward(b.install.apf) {
		if err := b.admin.Delete(ctx, o.DeepCopy()); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting %s %s: %w", o.GetKind(), o.GetName(), err)
		}
	}
	return b.awaitClassification(ctx, false)
}

// awaitClassification sends the two kinds of request the FlowSchemas tell
// apart as the ServiceAccount (an access review, as the adapter does for a
// caller; a Lease read, as the manager's leader election does) until both
// are classified by the install's FlowSchemas (applied) or by none of them.
func (b *bench) awaitClassification(ctx context.Context, applied bool) error {
	hc, err := rest.HTTPClientFor(b.install.saConfig)
	if err != nil {
		return err
	}
	host := strings.TrimSuffix(b.install.saConfig.Host, "/")
	sar := `{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"bench-probe",` +
		`"resourceAttributes":{"verb":"get","resource":"invoices","group":"billing.invoicing.dev","namespace":"bench-0"}}}`
	probes := []struct{ method, url, body string }{
		{http.MethodPost, host + "/apis/authorization.k8s.io/v1/subjectaccessreviews", sar},
		{http.MethodGet, host + "/apis/coordination.k8s.io/v1/namespaces/" + b.install.account.Namespace +
			"/leases/bench-probe", ""},
	}
	ours := map[string]bool{}
	for _, uid := range b.install.schemaUID {
		ours[uid] = true
	}
	deadline := time.Now().Add(time.Minute)
	for {
		matched, seen := 0, []string{}
		for _, p := range probes {
			uid, err := classifiedBy(ctx, hc, p.method, p.url, p.body)
			if err != nil {
				return err
			}
			if ours[uid] == applied {
				matched++
			}
			seen = append(seen, uid)
		}
		if matched == len(probes) {
			if !applied {
				b.install.schemaUID = nil
			}
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("the API server does not classify the install's requests as expected "+
				"(FlowSchemas applied: %v, ours %v, seen %v)", applied, b.install.schemaUID, seen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// classifiedBy sends one request and returns the UID of the FlowSchema that
// classified it.
func classifiedBy(ctx context.Context, hc *http.Client, method, url, body string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.Header.Get(flowSchemaHeader), nil
}

// apfRounds is how many rounds of each variant the measurements without
// and with the install's APF objects run.
const apfRounds = 2

// apfVariants is the order of the variants in a round (false: without the
// objects): without and with in even rounds, with and without in odd ones,
// so that neither always follows the other.
func apfVariants(round int) []bool {
	if round%2 == 1 {
		return []bool{true, false}
	}
	return []bool{false, true}
}

// setAPF applies or removes the objects, unless they already are.
func (b *bench) setAPF(ctx context.Context, applied bool) error {
	switch {
	case applied == (b.install.schemaUID != nil):
		return nil
	case applied:
		return b.applyAPF(ctx)
	default:
		return b.removeAPF(ctx)
	}
}

// apfWait is the API server's queue wait per priority level: the sum and
// count of apiserver_flowcontrol_request_wait_duration_seconds.
type apfWait map[string][2]float64

// scrapeAPFWait reads the API server's metrics.
func (b *bench) scrapeAPFWait(ctx context.Context) (apfWait, error) {
	data, err := b.cs.Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the API server's metrics: %w", err)
	}
	w := apfWait{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		series, ok := strings.CutPrefix(line, "apiserver_flowcontrol_request_wait_duration_seconds_")
		if !ok {
			continue
		}
		i := 0
		switch {
		case strings.HasPrefix(series, "sum{"):
		case strings.HasPrefix(series, "count{"):
			i = 1
		default:
			continue
		}
		level := label(series, "priority_level")
		v, err := strconv.ParseFloat(series[strings.LastIndexByte(series, ' ')+1:], 64)
		if level == "" || err != nil {
			continue
		}
		s := w[level]
		s[i] += v
		w[level] = s
	}
	return w, sc.Err()
}

func label(series, name string) string {
	_, v, ok := strings.Cut(series, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ = strings.Cut(v, `"`)
	return v
}

// add adds the growth from before to after to w.
func (w apfWait) add(before, after apfWait) {
	for level, a := range after {
		d := [2]float64{a[0] - before[level][0], a[1] - before[level][1]}
		if d[1] > 0 {
			s := w[level]
			w[level] = [2]float64{s[0] + d[0], s[1] + d[1]}
		}
	}
}

// meanMs is the mean queue wait per level, in milliseconds, and the
// requests it is over.
func (w apfWait) meanMs() map[string]apfLevelWait {
	out := map[string]apfLevelWait{}
	for level, s := range w {
		out[level] = apfLevelWait{MeanMs: float64(int(s[0]/s[1]*1e6+0.5)) / 1000, Requests: int64(s[1])}
	}
	return out
}

// apfLevelWait is a priority level's mean queue wait over its requests.
type apfLevelWait struct {
	MeanMs   float64 `json:"mean_wait_ms"`
	Requests int64   `json:"requests"`
}

// dumpPriorityLevels saves the API server's view of its priority levels (what
// docs/apf.md tells an operator to read) as name.txt under the output
// directory, followed by each level's seats from its metrics.
func (b *bench) dumpPriorityLevels(ctx context.Context, name string) error {
	rc := b.cs.Discovery().RESTClient()
	dump, err := rc.Get().AbsPath("/debug/api_priority_and_fairness/dump_priority_levels").DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("reading dump_priority_levels: %w", err)
	}
	metrics, err := rc.Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("reading the API server's metrics: %w", err)
	}
	out := append(dump, "\nSeats per priority level (apiserver_flowcontrol_*_limit_seats):\n"...)
	for line := range strings.SplitSeq(string(metrics), "\n") {
		for _, m := range []string{"nominal", "lower", "current", "upper"} {
			if strings.HasPrefix(line, "apiserver_flowcontrol_"+m+"_limit_seats{") {
				out = append(append(out, line...), '\n')
			}
		}
	}
	return os.WriteFile(filepath.Join(b.cfg.OutDir, name+".txt"), out, 0o600)
}
