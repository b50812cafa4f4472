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

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// Names of what localenv creates, as config/default names them in a cluster.
const (
	systemNamespace = "invoicing-system"
	operatorAccount = "invoicing-controller-manager"
	clientAccount   = "demo-client"
	clientRole      = "invoicing-client"
	tokenLifetime   = 24 * time.Hour
	// fieldManager owns what localenv applies.
	fieldManager = "localenv"
	// crdWait bounds the wait for freshly applied CRDs to be served.
	crdWait = time.Minute
)

// install applies the kustomization in dir (config/local) as an install
// does, with server-side apply, and waits until its CRDs are served. It runs
// at every start: what changed in config/ since the last run is applied over
// the objects kept in the state directory.
func install(ctx context.Context, kubectl, kubeconfig, dir string) error {
	steps := [][]string{
		{"apply", "--server-side", "--force-conflicts", "--field-manager", fieldManager, "-k", dir},
		{"wait", "--for", "condition=Established", "--all", "customresourcedefinitions", "--timeout", crdWait.String()},
	}
	for _, args := range steps {
		cmd := exec.CommandContext(ctx, kubectl, append([]string{kubeconfigFlag, kubeconfig}, args...)...) //nolint:gosec // kubectl of the assets
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("kubectl %s: %w\n%s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// provision makes the demo workspace, a client ServiceAccount in it allowed
// to get, list and create customers, invoices, credit notes, payments,
// period closes, credit applications, refunds, write-offs and emails (a
// send request, POST /v1/invoices/{id}/send, creates an Email) there, and
// to read its ledger seals and its events, and returns a fresh token for that account and for the operator's
// (installed by config/local).
func provision(ctx context.Context, cs kubernetes.Interface, workspace string) (operatorToken, clientToken string, err error) {
	if err := ensure(ctx, cs.CoreV1().Namespaces(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: workspace}}); err != nil {
		return "", "", err
	}
	const group = "billing.invoicing.dev"
	role := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: clientRole, Namespace: workspace},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{group},
			Resources: []string{"customers", "invoices", "creditnotes", "payments", "periodcloses",
				"creditapplications", "refunds", "writeoffs", "emails", "invoiceschedules", "pendingitems",
				"banktransactions"},
			Verbs: []string{"get", "list", "create"},
		}, {
			// POST /v1/invoice_schedules/{id}/pause, resume and cancel.
			APIGroups: []string{group},
			Resources: []string{"invoiceschedules"},
			Verbs:     []string{"patch"},
		}, {
			// The seals are written by the manager alone; the client reads
			// and verifies them. GET /v1/events asks for list on "events",
			// a resource no kind stores (docs/events.md), as the view role
			// grants it.
			APIGroups: []string{group},
			Resources: []string{"ledgerseals", "events"},
			Verbs:     []string{"get", "list"},
		}},
	}
	if err := apply(ctx, cs.RbacV1().Roles(workspace), role); err != nil {
		return "", "", err
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: clientRole, Namespace: workspace},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: clientRole},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: clientAccount, Namespace: workspace}},
	}
	if err := apply(ctx, cs.RbacV1().RoleBindings(workspace), binding); err != nil {
		return "", "", err
	}
	if operatorToken, err = serviceAccountToken(ctx, cs, systemNamespace, operatorAccount); err != nil {
		return "", "", err
	}
	if clientToken, err = serviceAccountToken(ctx, cs, workspace, clientAccount); err != nil {
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

// kubectlIn is the kubectl of the control plane's assets.
func kubectlIn(assets string) string { return filepath.Join(assets, "kubectl") }
