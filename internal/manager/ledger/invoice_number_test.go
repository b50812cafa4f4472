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

package ledger

import (
	"testing"
	"time"

	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/test/managertest"
)

func TestNumberedStatus(t *testing.T) {
	issuedNow := billingv1.InvoiceStatus{
		Phase:    billingv1.InvoiceIssued,
		Total:    ptr.To[int64](1_000),
		BillTo:   &billingv1.BillTo{Name: "Acme Ltd", Email: "ap@acme.example"},
		IssuedAt: ptr.To(metav1.NewTime(managertest.Now)),
	}
	issuedBeforeNumbering := *issuedNow.DeepCopy()
	issuedBeforeNumbering.IssuedAt = ptr.To(metav1.NewTime(managertest.Earlier))
	assigned := numbering.Assignment{Sequence: 42, IssuedAt: managertest.Now.Add(-time.Second)}
	acmeIssuer := &billingv1.Issuer{Name: "Acme Billing GmbH", TaxID: "DE123456789"}
	profile := &billingv1.BillingProfile{Spec: billingv1.BillingProfileSpec{
		Issuer:           acmeIssuer,
		NumberPrefix:     ptr.To("ACME/2026/"),
		PaymentTermsDays: ptr.To[int32](14),
	}}

	tests := []struct {
		name       string
		status     billingv1.InvoiceStatus
		assignment numbering.Assignment
		profile    *billingv1.BillingProfile
		wasIssued  bool
		wantNumber string
		wantIssued time.Time
		wantDue    time.Time
		wantIssuer *billingv1.Issuer
	}{
		{
			name:   "an invoice of a workspace without a profile takes the default prefix, 30 days and no issuer",
			status: issuedNow, assignment: assigned,
			wantNumber: "INV-000042", wantIssued: assigned.IssuedAt, wantDue: assigned.IssuedAt.AddDate(0, 0, 30),
		},
		{
			name:   "an invoice takes the profile's prefix, payment terms and issuer",
			status: issuedNow, assignment: assigned, profile: profile,
			wantNumber: "ACME/2026/000042", wantIssued: assigned.IssuedAt, wantDue: assigned.IssuedAt.AddDate(0, 0, 14),
			wantIssuer: acmeIssuer,
		},
		{
			name:   "a profile that leaves the prefix and terms out gets the defaults",
			status: issuedNow, assignment: assigned,
			profile:    &billingv1.BillingProfile{Spec: billingv1.BillingProfileSpec{Issuer: acmeIssuer}},
			wantNumber: "INV-000042", wantIssued: assigned.IssuedAt, wantDue: assigned.IssuedAt.AddDate(0, 0, 30),
			wantIssuer: acmeIssuer,
		},
		{
			name:   "an empty prefix leaves the bare sequence, and zero terms make it due on issue",
			status: issuedNow, assignment: numbering.Assignment{Sequence: 1_234_567, IssuedAt: managertest.Now},
			profile: &billingv1.BillingProfile{Spec: billingv1.BillingProfileSpec{
				NumberPrefix: ptr.To(""), PaymentTermsDays: ptr.To[int32](0),
			}},
			wantNumber: "1234567", wantIssued: managertest.Now, wantDue: managertest.Now,
		},
		{
			name:   "an invoice issued before numbering existed keeps its issue time",
			status: issuedBeforeNumbering, assignment: assigned, wasIssued: true,
			wantNumber: "INV-000042", wantIssued: managertest.Earlier, wantDue: managertest.Earlier.AddDate(0, 0, 30),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewWithT(t)
			before := *tt.status.DeepCopy()
			got, err := numberedStatus(tt.status, tt.assignment, tt.profile, tt.wasIssued)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(got.Sequence).To(HaveValue(Equal(tt.assignment.Sequence)))
			g.Expect(got.Number).To(Equal(tt.wantNumber))
			g.Expect(got.IssuedAt.Time).To(BeTemporally("==", tt.wantIssued))
			g.Expect(got.DueAt.Time).To(BeTemporally("==", tt.wantDue))
			g.Expect(got.Issuer).To(Equal(tt.wantIssuer))
			g.Expect(got.BillTo).To(Equal(tt.status.BillTo))
			g.Expect(tt.status).To(Equal(before), "numberedStatus changed its argument")
		})
	}
}

func TestNumberedStatusRefusesAnAssignmentWithoutASequence(t *testing.T) {
	g := NewWithT(t)
	_, err := numberedStatus(billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued},
		numbering.Assignment{IssuedAt: managertest.Now}, nil, false)
	g.Expect(err).To(MatchError(numbering.ErrInvalidSequence))
}

func TestNeedsNumber(t *testing.T) {
	tests := []struct {
		name   string
		status billingv1.InvoiceStatus
		want   bool
	}{
		{"an issued invoice without a sequence needs one", billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued}, true},
		{"an issued invoice with a sequence keeps it",
			billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, Sequence: ptr.To[int64](7)}, false},
		{"an invalid invoice gets none", billingv1.InvoiceStatus{Phase: billingv1.InvoiceInvalid}, false},
		{"a pending invoice gets none", billingv1.InvoiceStatus{Phase: billingv1.InvoicePending}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			NewWithT(t).Expect(needsNumber(&tt.status)).To(Equal(tt.want))
		})
	}
}

func TestAnInvoiceFreezesTheProfilesPaymentAccountAndTheCustomersElectronicAddress(t *testing.T) {
	g := NewWithT(t)
	account := &billingv1.PaymentAccount{IBAN: "DE02120300000000202051", BIC: "BYLADEM1001", AccountName: "Acme"}
	issuer := &billingv1.Issuer{Name: "Acme", LegalRegistrationID: "HRB 1",
		Contact:           &billingv1.Contact{Name: "AR", Phone: "+49 30 1", Email: "ar@acme.example"},
		ElectronicAddress: &billingv1.ElectronicAddress{Scheme: "0088", Value: "4035811991021"}}
	profile := &billingv1.BillingProfile{Spec: billingv1.BillingProfileSpec{Issuer: issuer, Payment: account}}
	got, err := numberedStatus(billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued},
		numbering.Assignment{Sequence: 1, IssuedAt: managertest.Now}, profile, false)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(got.PaymentAccount).To(Equal(account))
	g.Expect(got.Issuer).To(Equal(issuer))
	account.IBAN, issuer.Contact.Phone = "GB29NWBK60161331926819", "+44"
	g.Expect(got.PaymentAccount.IBAN).To(Equal("DE02120300000000202051"), "the snapshot shares the profile's account")
	g.Expect(got.Issuer.Contact.Phone).To(Equal("+49 30 1"), "the snapshot shares the profile's contact")

	without, err := numberedStatus(billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued},
		numbering.Assignment{Sequence: 2, IssuedAt: managertest.Now}, nil, false)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(without.PaymentAccount).To(BeNil())

	customer := &billingv1.Customer{Spec: billingv1.CustomerSpec{Name: "Ada", Email: "ada@example.com",
		ElectronicAddress: &billingv1.ElectronicAddress{Scheme: "9930", Value: "DE811128135"}}}
	bt := billTo(customer)
	customer.Spec.ElectronicAddress.Value = "DE000000000"
	g.Expect(bt.ElectronicAddress).To(Equal(&billingv1.ElectronicAddress{Scheme: "9930", Value: "DE811128135"}))
}

func TestAnInvoiceIsGivenItsPaymentReferenceAtIssueUnlessTheProfileSaysNone(t *testing.T) {
	account := billingv1.PaymentAccount{IBAN: "DE02120300000000202051"}
	none := account
	none.Reference = billingv1.PaymentReferenceNone
	explicit := account
	explicit.Reference = billingv1.PaymentReferenceISO11649
	cases := []struct {
		name    string
		account *billingv1.PaymentAccount
		before  string
		want    string
	}{
		{"a profile with an account gives the reference by default", &account, "", "RF29INV000042"},
		{"a profile that asks for iso11649 gives it", &explicit, "", "RF29INV000042"},
		{"a profile that says none gives none", &none, "", ""},
		{"a profile without an account gives none", nil, "", ""},
		{"a reference once given is kept", &account, "RF18539007547034", "RF18539007547034"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := NewWithT(t)
			profile := &billingv1.BillingProfile{Spec: billingv1.BillingProfileSpec{Payment: c.account}}
			got, err := numberedStatus(billingv1.InvoiceStatus{Phase: billingv1.InvoiceIssued, PaymentReference: c.before},
				numbering.Assignment{Sequence: 42, IssuedAt: managertest.Now}, profile, false)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(got.PaymentReference).To(Equal(c.want))
		})
	}
}
