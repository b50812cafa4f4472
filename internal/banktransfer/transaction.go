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

package banktransfer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// This file is what a booked bank line means for the ledger: its name,
// the keys an invoice is found by, and the payment that records it.

// TransactionNamePrefix starts every BankTransaction's name.
const TransactionNamePrefix = "btx-"

// TransactionIdentity is what tells one booked line at a bank from every
// other: the account, the bank's reference (its AcctSvcrRef, else the
// entry's NtryRef, else the entry's position in its statement and its
// booking date; with a suffix for one of several transactions an entry
// batches), the amount, the currency and the direction.
type TransactionIdentity struct {
	Account     string
	Reference   string
	Amount      int64
	Currency    string
	CreditDebit billingv1.CreditDebit
}

// TransactionName is the BankTransaction name of a line: btx- and the
// first 40 hex digits (160 bits) of the SHA-256 of its identity's fields,
// each on its own line. Importing the same statement twice, or two that
// overlap, names each line alike, so it is created once.
func TransactionName(id TransactionIdentity) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\n%s\n%d\n%s\n%s", id.Account, id.Reference, id.Amount,
		id.Currency, id.CreditDebit))
	return TransactionNamePrefix + hex.EncodeToString(sum[:20])
}

// InvoiceKey is the key an issued invoice numbered number is found by
// when a payer quotes it: its letters and digits in upper case, the last
// MaxReferenceDigits of them, which is also the body of its ISO 11649
// reference (Reference).
func InvoiceKey(number string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(number) {
		if isAlnum(r) {
			b.WriteRune(r)
		}
	}
	key := b.String()
	if len(key) > MaxReferenceDigits {
		key = key[len(key)-MaxReferenceDigits:]
	}
	return key
}

// NumberKeys are the InvoiceKeys of the words of a remittance text that
// may be invoice numbers, in order, each once: words (between spaces and
// , ; : ( ) " ') of 3 or more letters and digits with at least one digit.
// A number written with its separators ("INV-000042", "2026/001") is one
// word; one split by spaces is not found.
func NumberKeys(text string) []string {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || strings.ContainsRune(",;:()\"'", r)
	})
	var keys []string
	seen := map[string]bool{}
	for _, w := range words {
		w = strings.TrimRight(w, ".")
		key := InvoiceKey(w)
		if len(key) < 3 || !strings.ContainsAny(key, "0123456789") || seen[key] {
			continue
		}
		seen[key] = true
		keys = append(keys, key)
	}
	return keys
}

// PaidAt is when a line booked on day (YYYY-MM-DD) was paid: the start of
// that day in the workspace's time zone loc.
func PaidAt(day string, loc *time.Location) (time.Time, error) {
	t, err := time.ParseInLocation(time.DateOnly, day, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("booking date %q: %w", day, err)
	}
	return t, nil
}

// MaxPaymentReference is the longest reference a Payment holds.
const MaxPaymentReference = 128

// PaymentOf is the Payment that records bank transaction t as paying
// invoice, matched by how: named like t, labelled with t's name, for t's
// amount in its currency, paid by bank transfer at the start of its
// booking day in loc, its reference the bank's (else the payer's
// end-to-end id, else the entry's reference). The manager creates it for
// a match it finds, the adapter for one made by hand; created under that
// name, it exists once whoever creates it first.
func PaymentOf(t *billingv1.BankTransaction, invoice string, how billingv1.BankMatchedBy, loc *time.Location) (
	*billingv1.Payment, error) {
	e := &t.Spec.Entry
	paidAt, err := PaidAt(e.BookingDate, loc)
	if err != nil {
		return nil, err
	}
	ref := e.BankReference
	if ref == "" {
		ref = e.EndToEndID
	}
	if ref == "" {
		ref = e.EntryReference
	}
	if len(ref) > MaxPaymentReference {
		ref = ref[:MaxPaymentReference]
	}
	at := metav1.NewTime(paidAt)
	return &billingv1.Payment{
		ObjectMeta: metav1.ObjectMeta{Name: t.Name, Namespace: t.Namespace,
			Labels:      map[string]string{billingv1.LabelBankTransaction: t.Name},
			Annotations: map[string]string{billingv1.AnnotationMatchedBy: string(how)}},
		Spec: billingv1.PaymentSpec{InvoiceRef: billingv1.InvoiceReference{Name: invoice}, Amount: e.Amount,
			Currency: e.Currency, PaidAt: &at, Method: billingv1.PaymentMethodBankTransfer, Reference: ref},
	}, nil
}

// MatchOf is how the Payment p matched its bank transaction, and whether
// p is one that records a bank transaction named name at all.
func MatchOf(p *billingv1.Payment, name string) (billingv1.BankMatchedBy, bool) {
	if p.Labels[billingv1.LabelBankTransaction] != name {
		return "", false
	}
	switch how := billingv1.BankMatchedBy(p.Annotations[billingv1.AnnotationMatchedBy]); how {
	case billingv1.MatchedByReference, billingv1.MatchedByNumberAndAmount:
		return how, true
	}
	return billingv1.MatchedByManual, true
}
