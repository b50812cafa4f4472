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

// Measurement 7, the noisy neighbour: another identity writes ConfigMaps as
// fast as it can while the adapter creates invoices. The adapter's create
// rate and p99 are compared with a quiet round, with and without the
// install's APF objects, in alternating rounds.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/invoicing-dev/invoicing/internal/test/serviceaccount"
)

const (
	noisyNS = "bench-noise"
	noisySA = "bench-noisy"
	// noisyWorkspace is where the adapter creates during measurement 7.
	noisyWorkspace = "bench-1"
)

// noisyNeighbour is the other identity: a ServiceAccount allowed to write
// ConfigMaps in its own namespace, with one ConfigMap per writer.
type noisyNeighbour struct {
	cs      kubernetes.Interface
	writers int
}

// provisionNoisyNeighbour creates the neighbour's namespace, account, role
// and ConfigMaps, and a client with its token and no client-side limit.
func (b *bench) provisionNoisyNeighbour(ctx context.Context, cfg *rest.Config) (*noisyNeighbour, error) {
	writers := 4 * b.cfg.Workers
	objs := make([]client.Object, 0, 4+writers)
	objs = append(objs,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: noisyNS}},
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: noisySA, Namespace: noisyNS}},
		&rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: noisySA, Namespace: noisyNS},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"},
				Verbs: []string{"patch"}}},
		},
		&rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: noisySA, Namespace: noisyNS},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: noisySA},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: noisySA, Namespace: noisyNS}},
		})
	for i := range writers {
		objs = append(objs, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "noise-" + strconv.Itoa(i), Namespace: noisyNS},
			Data:       map[string]string{"n": "0"},
		})
	}
	for _, o := range objs {
		if err := b.admin.Create(ctx, o); err != nil {
			return nil, fmt.Errorf("creating %T %s: %w", o, o.GetName(), err)
		}
	}
	token, err := serviceaccount.Token(ctx, b.cs, noisyNS, noisySA, tokenLifetime)
	if err != nil {
		return nil, fmt.Errorf("the noisy neighbour: %w", err)
	}
	nc := rest.AnonymousClientConfig(cfg)
	nc.BearerToken, nc.QPS = token, -1
	cs, err := kubernetes.NewForConfig(nc)
	if err != nil {
		return nil, err
	}
	if err := b.awaitAllowedTo(ctx, "system:serviceaccount:"+noisyNS+":"+noisySA, &authorizationv1.ResourceAttributes{
		Namespace: noisyNS, Verb: "patch", Resource: "configmaps",
	}); err != nil {
		return nil, err
	}
	return &noisyNeighbour{cs: cs, writers: writers}, nil
}

// awaitAllowedTo waits until RBAC allows user to do what attrs say.
func (b *bench) awaitAllowedTo(ctx context.Context, user string, attrs *authorizationv1.ResourceAttributes) error {
	deadline := time.Now().Add(time.Minute)
	for {
		sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User: user, ResourceAttributes: attrs,
		}}
		if err := b.admin.Create(ctx, sar); err != nil {
			return err
		}
		if sar.Status.Allowed {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("RBAC does not allow %s to %s %s", user, attrs.Verb, attrs.Resource)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// noise is the neighbour writing: each writer patches its own ConfigMap in
// a loop until stopped (after its write in flight, so that no request is
// cut off).
type noise struct {
	writes  atomic.Int64
	start   time.Time
	stopped atomic.Bool
	wg      sync.WaitGroup
	mu      sync.Mutex
	err     error
}

func (n *noisyNeighbour) start(ctx context.Context) *noise {
	z := &noise{start: time.Now()}
	for i := range n.writers {
		z.wg.Go(func() {
			cms := n.cs.CoreV1().ConfigMaps(noisyNS)
			name := "noise-" + strconv.Itoa(i)
			for k := 1; !z.stopped.Load() && ctx.Err() == nil; k++ {
				patch := []byte(`{"data":{"n":"` + strconv.Itoa(k) + `"}}`)
				if _, err := cms.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
					z.mu.Lock()
					z.err = errors.Join(z.err, err)
					z.mu.Unlock()
					z.stopped.Store(true)
					return
				}
				z.writes.Add(1)
			}
		})
	}
	return z
}

// stop ends the writing and returns the writes per second it made.
func (z *noise) stop() (float64, error) {
	elapsed := time.Since(z.start)
	z.stopped.Store(true)
	z.wg.Wait()
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.err != nil {
		return 0, fmt.Errorf("the noisy neighbour: %w", z.err)
	}
	return float64(z.writes.Load()) / elapsed.Seconds(), nil
}

// noisyRun is what the rounds of one variant of measurement 7 measured.
type noisyRun struct {
	quiet, noisy result
	wait         apfWait
	writesPerSec float64 // the neighbour's, mean over the rounds
}

// measureNoisyNeighbour: POST /v1/invoices in a quiet round, then in a round
// during which the neighbour writes, each with and without the APF objects,
// in alternating rounds.
func (b *bench) measureNoisyNeighbour(ctx context.Context, r *Report) error {
	per := max(b.cfg.Invoices/8, b.cfg.Workers)
	runs := map[bool]*noisyRun{false: {wait: apfWait{}}, true: {wait: apfWait{}}}
	for round := range apfRounds {
		for _, applied := range apfVariants(round) {
			if err := b.setAPF(ctx, applied); err != nil {
				return err
			}
			if err := b.noisyCell(ctx, per, applied && round == apfRounds-1, runs[applied]); err != nil {
				return err
			}
		}
	}
	if err := b.setAPF(ctx, false); err != nil {
		return err
	}
	without, with := runs[false], runs[true]
	r.NoisyRateRatio = ratio(without.noisy.perSec(), without.quiet.perSec())
	r.NoisyRateRatioAPF = ratio(with.noisy.perSec(), with.quiet.perSec())
	r.NoisyCreateP99Ms, r.NoisyCreateP99MsAPF = without.noisy.percentileMs(0.99), with.noisy.percentileMs(0.99)
	r.QuietCreateP99Ms, r.QuietCreateP99MsAPF = without.quiet.percentileMs(0.99), with.quiet.percentileMs(0.99)
	d := &r.Details
	d.NoisyInvoices = apfRounds * per
	d.QuietPerSec, d.QuietPerSecAPF = without.quiet.perSec(), with.quiet.perSec()
	d.NoisyPerSec, d.NoisyPerSecAPF = without.noisy.perSec(), with.noisy.perSec()
	d.NeighbourWritesPerSec, d.NeighbourWritesPerSecAPF = without.writesPerSec, with.writesPerSec
	d.NeighbourWriters = b.neighbour.writers
	d.APFWait["noisy"], d.APFWait["noisy_apf"] = without.wait.meanMs(), with.wait.meanMs()
	return nil
}

// noisyCell is one quiet round and one noisy round of measurement 7. It
// returns when the controller has issued the invoices of both, so that
// none of this cell's work falls into the next.
func (b *bench) noisyCell(ctx context.Context, per int, dump bool, run *noisyRun) error {
	w, err := b.watchIssued(ctx, noisyWorkspace)
	if err != nil {
		return err
	}
	defer w.stop()
	before, err := b.scrapeAPFWait(ctx)
	if err != nil {
		return err
	}
	create := func(ctx context.Context, _ int) error { _, err := b.createHTTP(ctx, noisyWorkspace); return err }
	q, err := b.parallel(ctx, per, create)
	if err != nil {
		return err
	}
	run.quiet.add(q)
	z := b.neighbour.start(ctx)
	time.Sleep(time.Second) // let the neighbour reach its pace
	n, err := b.parallel(ctx, per, create)
	if err == nil && dump {
		err = b.dumpPriorityLevels(ctx, "apf-priority-levels-noisy")
	}
	wps, stopErr := z.stop()
	if err = errors.Join(err, stopErr); err != nil {
		return err
	}
	run.noisy.add(n)
	run.writesPerSec += wps / apfRounds
	b.created.Add(int64(2 * per))
	after, err := b.scrapeAPFWait(ctx)
	if err != nil {
		return err
	}
	run.wait.add(before, after)
	_, err = w.await(ctx, 2*per, time.Duration(2*per)*10*time.Millisecond+2*time.Minute)
	return err
}
