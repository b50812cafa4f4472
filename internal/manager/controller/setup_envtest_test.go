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

package controller

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// Setup's success is the whole suite: its manager is wired by Setup. These
// specs check that a failure names the part that could not be set up.
var _ = Describe("Setup", func() {
	// newManager returns a manager, never started, of the suite's API server
	// with scheme. Controller names may repeat: the suite's manager already
	// uses them in this process.
	newManager := func(scheme *runtime.Scheme) ctrl.Manager {
		mgr, err := ctrl.NewManager(cfg, ctrl.Options{
			Scheme:                 scheme,
			Metrics:                metricsserver.Options{BindAddress: "0"},
			HealthProbeBindAddress: "0",
			Controller:             config.Controller{SkipNameValidation: ptr.To(true)},
		})
		Expect(err).NotTo(HaveOccurred())
		return mgr
	}

	It("says the field indexes could not be registered when they already are", func() {
		mgr := newManager(testScheme)
		Expect(Setup(ctx, mgr, Options{})).To(Succeed())
		Expect(Setup(ctx, mgr, Options{})).To(MatchError(ContainSubstring("registering field indexes")))
	})

	It("names the controller it could not set up", func() {
		withoutKeys := runtime.NewScheme()
		withoutKeys.AddKnownTypes(billingv1.GroupVersion,
			&billingv1.Invoice{}, &billingv1.InvoiceList{}, &billingv1.Customer{}, &billingv1.CustomerList{},
			&billingv1.BillingProfile{}, &billingv1.BillingProfileList{},
			&billingv1.CreditNote{}, &billingv1.CreditNoteList{}, &billingv1.Payment{}, &billingv1.PaymentList{},
			&billingv1.CreditApplication{}, &billingv1.CreditApplicationList{}, &billingv1.Refund{},
			&billingv1.RefundList{}, &billingv1.WriteOff{}, &billingv1.WriteOffList{}, &billingv1.Email{}, &billingv1.EmailList{},
			&billingv1.InvoiceSchedule{}, &billingv1.InvoiceScheduleList{},
			&billingv1.BankTransaction{}, &billingv1.BankTransactionList{})
		Expect(Setup(ctx, newManager(withoutKeys), Options{})).
			To(MatchError(ContainSubstring("setting up the IdempotencyKey controller")))
	})
})
