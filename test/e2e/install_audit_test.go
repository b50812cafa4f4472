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

// The audit of the install's ServiceAccount: refused nothing, and used
// every rule it is granted.

import (
	"context"
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// usedEveryRule: was refused nothing and used every rule the install grants its ServiceAccount.
func (s *installSuite) usedEveryRule() {
	events := s.c.readAudit()
	Expect(events).NotTo(BeEmpty())
	var refused []string
	for _, e := range events {
		if e.forbidden() {
			refused = append(refused, e.String())
		}
	}
	Expect(refused).To(BeEmpty(), "the install's RBAC lacks a rule the binaries need")

	var unused, twice []string
	seen := map[grant]bool{}
	for _, g := range grantsOf(s.c, s.rendered) {
		if key := (grant{namespace: g.namespace, group: g.group, resource: g.resource, verb: g.verb}); seen[key] {
			twice = append(twice, g.role+": "+g.String())
		} else {
			seen[key] = true
		}
		if !slices.ContainsFunc(events, g.allows) {
			unused = append(unused, g.role+": "+g.String())
		}
	}
	Expect(unused).To(BeEmpty(), "rules that nothing used: remove them, or test what needs them")
	Expect(twice).To(BeEmpty(), "rules granted twice: removing one of them would go unnoticed")
}

// grant is one verb on one resource that a role bound to the install's
// ServiceAccount allows, in a namespace or cluster-wide.
type grant struct {
	role, namespace, group, resource, verb string
}

func (g grant) String() string {
	return fmt.Sprintf("%s %s.%s (namespace %q)", g.verb, g.resource, g.group, g.namespace)
}

func (g grant) allows(e auditEvent) bool {
	if e.ObjectRef == nil || e.Verb != g.verb || e.ObjectRef.APIGroup != g.group {
		return false
	}
	res := e.ObjectRef.Resource
	if e.ObjectRef.Subresource != "" {
		res += "/" + e.ObjectRef.Subresource
	}
	return res == g.resource && (g.namespace == "" || e.ObjectRef.Namespace == g.namespace)
}

// grantsOf lists what the rendered install's bindings grant its
// ServiceAccount, rule by rule, reading the bound roles from the API server
// (which also resolves roles the install does not ship itself).
func grantsOf(c *cluster, rendered []*unstructured.Unstructured) []grant {
	GinkgoHelper()
	ctx := context.Background()
	var grants []grant
	add := func(role, namespace string, rules []rbacv1.PolicyRule) {
		for _, r := range rules {
			Expect(r.NonResourceURLs).To(BeEmpty(), "%s grants non-resource URLs", role)
			for _, group := range r.APIGroups {
				for _, res := range r.Resources {
					for _, verb := range r.Verbs {
						Expect([]string{group, res, verb}).NotTo(ContainElement("*"), "%s grants a wildcard", role)
						grants = append(grants, grant{role: role, namespace: namespace, group: group, resource: res, verb: verb})
					}
				}
			}
		}
	}
	for _, obj := range rendered {
		var ref rbacv1.RoleRef
		var subjects []rbacv1.Subject
		switch obj.GetKind() {
		case "ClusterRoleBinding":
			var b rbacv1.ClusterRoleBinding
			Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &b)).To(Succeed())
			ref, subjects = b.RoleRef, b.Subjects
		case "RoleBinding":
			var b rbacv1.RoleBinding
			Expect(runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &b)).To(Succeed())
			ref, subjects = b.RoleRef, b.Subjects
		default:
			continue
		}
		if !slices.ContainsFunc(subjects, func(s rbacv1.Subject) bool {
			return s.Kind == rbacv1.ServiceAccountKind && s.Name == installAccount && s.Namespace == installNamespace
		}) {
			continue
		}
		switch {
		case ref.Kind == "ClusterRole" && obj.GetKind() == "ClusterRoleBinding":
			cr, err := c.admin.RbacV1().ClusterRoles().Get(ctx, ref.Name, metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			add(ref.Name, "", cr.Rules)
		case ref.Kind == "ClusterRole":
			cr, err := c.admin.RbacV1().ClusterRoles().Get(ctx, ref.Name, metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			add(ref.Name, obj.GetNamespace(), cr.Rules)
		default:
			r, err := c.admin.RbacV1().Roles(obj.GetNamespace()).Get(ctx, ref.Name, metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			add(ref.Name, obj.GetNamespace(), r.Rules)
		}
	}
	Expect(grants).NotTo(BeEmpty(), "no binding of the install names its ServiceAccount")
	return grants
}
