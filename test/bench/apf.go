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

// The install's API Priority and Fairness objects: the benchmark applies
// and removes the FlowSchemas and PriorityLevelConfigurations of config/apf
// between rounds, and waits until the API server classifies the install's
// requests by them (or by none), as it would in a cluster.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
)

const (
	flowcontrolGroup = "flowcontrol.apiserver.k8s.io"
	// The API server names the FlowSchema a request was classified by in
	// this response header.
	flowSchemaHeader = "X-Kubernetes-Pf-Flowschema-Uid"
)

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
