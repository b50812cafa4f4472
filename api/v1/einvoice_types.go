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

package v1

// The data e-invoices need beyond a printed invoice: electronic addresses,
// a seller contact and the account to pay to.

// ElectronicAddress is where a party receives e-invoices: its Peppol
// participant identifier, for example scheme "0088" (GLN) with value
// "4035811991021", or scheme "9930" (German VAT number) with value
// "DE123456789". It is the seller's (BT-34) or buyer's (BT-49) electronic
// address of EN 16931.
type ElectronicAddress struct {
	// scheme is the code of the identifier's scheme in the CEF Electronic
	// Address Scheme (EAS) code list: four digits, for example "0088",
	// "0204" (German Leitweg-ID) or "9930".
	// +required
	// +kubebuilder:validation:MinLength=4
	// +kubebuilder:validation:MaxLength=4
	// +kubebuilder:validation:Pattern=`^[0-9]{4}$`
	Scheme string `json:"scheme"`

	// value is the identifier within its scheme, for example
	// "4035811991021". 1 to 128 characters, without spaces.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^\S+$`
	Value string `json:"value"`
}

// Contact is whom a buyer can reach at the issuer about an invoice: the
// seller contact (BG-6) of EN 16931, which XRechnung requires.
type Contact struct {
	// name is a person or department, for example "Accounts receivable".
	// 1 to 256 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	Name string `json:"name,omitempty"`

	// phone is a telephone number, for example "+49 30 1234567". 3 to 64
	// characters: digits, spaces and + ( ) - / . only.
	// +optional
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[0-9+()./ -]+$`
	Phone string `json:"phone,omitempty"`

	// email is an e-mail address, for example "ar@example.com". At most
	// 254 characters.
	// +optional
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=254
	// +kubebuilder:validation:Format=email
	// +kubebuilder:validation:Pattern=`^[^@\s<>()\[\],;:"\\]+@[^@\s<>()\[\],;:"\\]+$`
	Email string `json:"email,omitempty"`
}

// PaymentAccount is the bank account invoices are paid to by SEPA credit
// transfer, printed on each invoice and written in its e-invoice (BG-17).
type PaymentAccount struct {
	// iban is the account's IBAN, in upper case without spaces, for example
	// "DE02120300000000202051". 15 to 34 characters: a country code, two
	// check digits (mod 97) and the account.
	// +required
	// +kubebuilder:validation:MinLength=15
	// +kubebuilder:validation:MaxLength=34
	// +kubebuilder:validation:Pattern=`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`
	IBAN string `json:"iban"`

	// bic is the bank's BIC (SWIFT code), 8 or 11 characters, for example
	// "BYLADEM1001".
	// +optional
	// +kubebuilder:validation:MinLength=8
	// +kubebuilder:validation:MaxLength=11
	// +kubebuilder:validation:Pattern=`^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$`
	BIC string `json:"bic,omitempty"`

	// accountName is the account holder's name, for example "Example GmbH".
	// 1 to 140 characters.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=140
	AccountName string `json:"accountName,omitempty"`

	// reference is how invoices paid to this account are referenced:
	// "iso11649" gives each invoice at issue a structured creditor
	// reference (RF and two check digits before its number's letters and
	// digits, status.paymentReference), printed next to the IBAN, carried
	// by its e-invoice (BT-83) and its EPC QR code, and matched against
	// bank statements; "none" gives none, and transfers quote the invoice
	// number. Defaults to "iso11649".
	// +optional
	// +kubebuilder:validation:Enum=iso11649;none
	Reference PaymentReferenceScheme `json:"reference,omitempty"`
}

// PaymentReferenceScheme is how an invoice's bank transfers are referenced.
type PaymentReferenceScheme string

const (
	// PaymentReferenceISO11649 is a structured creditor reference (RF).
	PaymentReferenceISO11649 PaymentReferenceScheme = "iso11649"
	// PaymentReferenceNone is no reference beyond the invoice number.
	PaymentReferenceNone PaymentReferenceScheme = "none"
)

// StructuredReference reports whether invoices paid to a carry an
// ISO 11649 reference: every account but one whose reference is "none".
func (a *PaymentAccount) StructuredReference() bool {
	return a != nil && a.Reference != PaymentReferenceNone
}
