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

// The benchmark's own world: its workspaces, a customer in each, and the
// ServiceAccount its HTTP and direct clients act as.

import (
	"context"
	"fmt"
	"slices"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/serviceaccount"
)

// provisionAll makes the benchmark's client, the install's identity (whose
// kubeconfig it returns, for the binaries) and the noisy neighbour.
func (b *bench) provisionAll(ctx context.Context, cfg *rest.Config) (string, error) {
	if err := b.provision(ctx, b.cs); err != nil {
		return "", err
	}
	kubeconfig, err := b.provisionInstall(ctx, b.cs, cfg)
	if err != nil {
		return "", err
	}
	b.neighbour, err = b.provisionNoisyNeighbour(ctx, cfg)
	return kubeconfig, err
}

// provision makes the workspaces, a customer in each, and a ServiceAccount
// allowed to get, list, watch and create customers and invoices in all of
// them, and takes a token for it.
func (b *bench) provision(ctx context.Context, cs kubernetes.Interface) error {
	for _, ns := range b.workspaces() {
		objs := append([]client.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}},
			clientAccess(ns, "events")...)
		objs = append(objs,
			&billingv1.Customer{
				ObjectMeta: metav1.ObjectMeta{Name: customer, Namespace: ns},
				Spec:       billingv1.CustomerSpec{Name: "Acme Corporation", Email: "billing@acme.example"},
			})
		if ns == defaultTaxWorkspace {
			objs = append(objs, builder.BillingProfile(ns, billingv1.DefaultBillingProfileName,
				builder.WithDefaultTax(defaultTax())))
		}
		if ns == clientNS {
			objs = slices.Insert(objs, 1, client.Object(&corev1.ServiceAccount{
				ObjectMeta: metav1.ObjectMeta{Name: clientSA, Namespace: ns}}))
		}
		for _, o := range objs {
			if err := b.admin.Create(ctx, o); err != nil {
				return fmt.Errorf("creating %T %s: %w", o, o.GetName(), err)
			}
		}
	}
	var err error
	b.token, err = serviceaccount.Token(ctx, cs, clientNS, clientSA, tokenLifetime)
	return err
}

// clientAccess is the Role and RoleBinding that let the benchmark's
// ServiceAccount get, list, watch and create customers, invoices and the
// resources more in ns.
func clientAccess(ns string, more ...string) []client.Object {
	return []client.Object{
		&rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: clientSA, Namespace: ns},
			Rules: []rbacv1.PolicyRule{{
				APIGroups: []string{billingv1.GroupVersion.Group}, Resources: append([]string{"customers", "invoices"}, more...),
				Verbs: []string{"get", "list", "watch", "create"},
			}},
		},
		&rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: clientSA, Namespace: ns},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: clientSA},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: clientSA, Namespace: clientNS}},
		},
	}
}

// awaitAllowed waits until RBAC allows the client in ns (the API server
// sees new Roles a moment after they are created).
func (b *bench) awaitAllowed(ctx context.Context, ns string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User: "system:serviceaccount:" + clientNS + ":" + clientSA,
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: ns, Verb: "create", Group: billingv1.GroupVersion.Group, Resource: "invoices",
			},
		}}
		if err := b.admin.Create(ctx, sar); err != nil {
			return err
		}
		if sar.Status.Allowed {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("RBAC does not allow the client in %s", ns)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
