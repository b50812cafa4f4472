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
	"path/filepath"
	"strings"
)

// clusterControllers are the kube-controller-manager controllers that make
// the local control plane behave as a cluster does for what a user of the
// operator does with it (there are no nodes or pods):
//   - namespace-controller empties and removes a deleted namespace, so a
//     workspace (with its customers and invoices) can be deleted;
//   - garbage-collector-controller deletes what an owner reference ties to
//     a deleted object;
//   - clusterrole-aggregation-controller fills the built-in view, edit and
//     admin ClusterRoles, here with invoicing-viewer-role and
//     invoicing-editor-role, so binding edit or view in a workspace grants
//     access to its customers and invoices;
//   - serviceaccount-controller gives every namespace its default
//     ServiceAccount, and serviceaccount-token-controller fills the token
//     Secrets (kubernetes.io/service-account-token) a user creates.
var clusterControllers = []string{
	"namespace-controller",
	"garbage-collector-controller",
	"clusterrole-aggregation-controller",
	"serviceaccount-controller",
	"serviceaccount-token-controller",
}

// controllerManagerArgs are the arguments of kube-controller-manager, run
// with the admin kubeconfig and the API server's ServiceAccount signing key
// (in certDir, where envtest keeps it). It serves no endpoint of its own
// and, alone, needs no leader election.
func controllerManagerArgs(kubeconfig, certDir string) []string {
	return []string{
		kubeconfigFlag, kubeconfig,
		"--controllers", strings.Join(clusterControllers, ","),
		"--service-account-private-key-file", filepath.Join(certDir, "sa-signer.key"),
		"--leader-elect=false",
		"--secure-port=0",
	}
}
