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

// Package retention proves config/policy against a real kube-apiserver:
// the API server itself refuses to delete an issued invoice, an issued
// credit note, a recorded payment, an applied credit application, a
// recorded refund or write-off, a sent reminder (an Email with an event) or
// a workspace's invoice sequence, whoever asks, and still lets a whole
// workspace (namespace) go. No
// controller runs here: a spec makes an invoice or a credit note issued,
// or a payment recorded, by writing its status subresource, as the
// controller does. Where a team's role lets it delete what a policy
// retains (Emails), a spec binds config/rbac's role and asks as the team.
package retention

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/yaml"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// policyDir holds the ValidatingAdmissionPolicies and their bindings, as
// config/default and config/local install them (there with the name
// prefix "invoicing-").
var policyDir = filepath.Join(testenv.ModuleRoot(), "config", "policy")

var (
	ctx = context.Background()
	// k8s is the cluster admin, reading and writing straight through the
	// API server. Admission policies bind everyone, the admin too.
	k8s client.Client
	// manager is the manager's ServiceAccount (impersonated, with the
	// admin's RBAC: the policies are what is tested, not the role).
	manager client.Client
	// testEnvConfig is the admin's connection, which a spec copies to
	// impersonate a team's member.
	testEnvConfig *rest.Config
)

// managerServiceAccount is the user name of the manager's ServiceAccount
// as config/default names it, which the policies let seal.
const managerServiceAccount = "system:serviceaccount:invoicing-system:invoicing-controller-manager"

func TestRetention(t *testing.T) {
	testenv.Require(t)
	RegisterFailHandler(Fail)
	RunSpecs(t, "Retention suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	// A new policy reaches the API server's admission through an informer,
	// as does a namespace's deletion: both take a moment to be effective.
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(200 * time.Millisecond)

	By("starting the control plane with the generated CRDs")
	testEnv, err := testenv.Start()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(testEnv.Stop()).To(Succeed()) })
	k8s = testEnv.Client
	testEnvConfig = testEnv.Config
	asManager := rest.CopyConfig(testEnv.Config)
	asManager.Impersonate = rest.ImpersonationConfig{UserName: managerServiceAccount,
		Groups: []string{"system:masters", "system:authenticated"}}
	manager, err = client.New(asManager, client.Options{Scheme: k8s.Scheme()})
	Expect(err).NotTo(HaveOccurred())

	By("installing the policies of " + policyDir)
	for _, obj := range policyObjects() {
		Expect(k8s.Create(ctx, obj)).To(Succeed())
	}
})

// policyObjects reads the manifests of policyDir strictly: each policy
// and its binding, the policies first.
func policyObjects() []client.Object {
	GinkgoHelper()
	files, err := filepath.Glob(filepath.Join(policyDir, "*.yaml"))
	Expect(err).NotTo(HaveOccurred())
	var policies, bindings []client.Object
	bound := map[string]bool{}
	for _, file := range files {
		if filepath.Base(file) == "kustomization.yaml" {
			continue
		}
		data, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		for _, doc := range bytes.Split(data, []byte("\n---\n")) {
			var meta metav1.TypeMeta
			Expect(yaml.Unmarshal(doc, &meta)).To(Succeed())
			switch meta.Kind {
			case "ValidatingAdmissionPolicy":
				policy := &admissionregistrationv1.ValidatingAdmissionPolicy{}
				Expect(yaml.UnmarshalStrict(doc, policy)).To(Succeed(), file)
				policies = append(policies, policy)
			case "ValidatingAdmissionPolicyBinding":
				binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
				Expect(yaml.UnmarshalStrict(doc, binding)).To(Succeed(), file)
				bound[binding.Spec.PolicyName] = true
				bindings = append(bindings, binding)
			default:
				Fail(fmt.Sprintf("%s holds a %q, not a policy or a binding", file, meta.Kind))
			}
		}
	}
	names := make([]string, 0, len(policies))
	for _, p := range policies {
		names = append(names, p.GetName())
	}
	Expect(names).To(ContainElements("invoice-retention", "invoice-sequence-retention", "credit-note-retention",
		"payment-retention", "credit-application-retention", "refund-retention", "write-off-retention",
		"bank-transaction-retention",
		"email-retention", "period-close-retention", "ledger-seal-retention", "ledger-seal-writer", "sealed-in-label"),
		"the retention of invoices, invoice sequences, credit notes, payments, money on account, "+
			"sent reminders and seals")
	for _, p := range policies {
		Expect(bound).To(HaveKey(p.GetName()), "a binding binds %s", p.GetName())
	}
	return append(policies, bindings...)
}

// newNamespace creates a workspace of its own for one spec. envtest runs
// no namespace controller: a deleted namespace stays Terminating.
func newNamespace() string {
	GinkgoHelper()
	return builder.Namespace(GinkgoT(), ctx, k8s, "workspace-")
}

// createInvoice creates an invoice and, unless phase is empty (Pending),
// writes that phase to its status subresource as the controller would.
func createInvoice(namespace, name string, phase billingv1.InvoicePhase) *billingv1.Invoice {
	GinkgoHelper()
	inv := builder.Invoice(namespace, name, builder.WithCustomer("acme"), builder.WithItem("Consulting", 1, 15000))
	Expect(k8s.Create(ctx, inv)).To(Succeed())
	if phase != "" {
		inv.Status.Phase = phase
		Expect(k8s.Status().Update(ctx, inv)).To(Succeed())
	}
	return inv
}

// creditedInvoice is the invoice that the credit notes and payments of
// the specs are for: the policies do not read it, nor does the API server.
const creditedInvoice = "inv-issued"

// createCreditNote creates a full credit note of creditedInvoice and,
// unless phase is empty (Pending), writes that phase to its status
// subresource as the controller would.
func createCreditNote(namespace, name string, phase billingv1.CreditNotePhase) *billingv1.CreditNote {
	GinkgoHelper()
	cn := &billingv1.CreditNote{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: billingv1.CreditNoteSpec{
			InvoiceRef: billingv1.InvoiceReference{Name: creditedInvoice},
			Reason:     "issued_in_error",
			FullCredit: true,
		},
	}
	Expect(k8s.Create(ctx, cn)).To(Succeed())
	if phase != "" {
		cn.Status.Phase = phase
		Expect(k8s.Status().Update(ctx, cn)).To(Succeed())
	}
	return cn
}

// createPayment creates a payment of creditedInvoice and, unless phase is
// empty (Pending), writes that phase to its status subresource as the
// controller would.
func createPayment(namespace, name string, phase billingv1.PaymentPhase) *billingv1.Payment {
	GinkgoHelper()
	pay := &billingv1.Payment{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: billingv1.PaymentSpec{
			InvoiceRef: billingv1.InvoiceReference{Name: creditedInvoice},
			Amount:     15000,
		},
	}
	Expect(k8s.Create(ctx, pay)).To(Succeed())
	if phase != "" {
		pay.Status.Phase = phase
		Expect(k8s.Status().Update(ctx, pay)).To(Succeed())
	}
	return pay
}

// exists tells whether obj is still there.
func exists(obj client.Object) func() error {
	return func() error { return k8s.Get(ctx, client.ObjectKeyFromObject(obj), obj) }
}
