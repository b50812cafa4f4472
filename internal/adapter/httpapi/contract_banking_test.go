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

package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
)

// Bank transactions and statements as the adapter renders them match
// openapi.json in each of their states, and so does every answer their
// handlers give on a refusal; the checker refuses what does not. The
// envtest suite sends real imports and matches through the same checker;
// this covers, without a control plane, the states and refusals that are
// slow or awkward to reach there.
func TestBankTransactionsAndStatementsMatchTheDocument(t *testing.T) {
	c, err := newContract()
	if err != nil {
		t.Fatal(err)
	}
	created := metav1.Unix(1_800_000_000, 0)
	name := banktransfer.TransactionName(banktransfer.TransactionIdentity{Account: "DE89370400440532013000",
		Reference: "acctsvcrref:2026112000001", Amount: 11900, Currency: "EUR", CreditDebit: billingv1.Credit})
	pending := &billingv1.BankTransaction{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: fakeWorkspace, CreationTimestamp: created},
		Spec: billingv1.BankTransactionSpec{Entry: billingv1.BankEntry{Account: "DE89370400440532013000",
			StatementSHA256: strings.Repeat("ab", 32), StatementID: "STMT-2026-11-20", EntryReference: "1",
			BankReference: "2026112000001", EndToEndID: "E2E-42", BookingDate: "2026-11-20", ValueDate: "2026-11-20",
			Amount: 11900, Currency: "EUR", CreditDebit: billingv1.Credit,
			StructuredReferences: []string{"RF29DEMO000042"}, RemittanceText: "Invoice DEMO-000042",
			DebtorName: "Acme Corporation", DebtorAccount: "DE02120300000000202051"}},
	}
	bare := pending.DeepCopy()
	bare.Spec.Entry = billingv1.BankEntry{Account: "DE89370400440532013000", StatementSHA256: strings.Repeat("cd", 32),
		BookingDate: "2026-11-20", Amount: 250, Currency: "EUR", CreditDebit: billingv1.Credit}
	matched := pending.DeepCopy()
	matched.Status = billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionMatched,
		MatchedBy: billingv1.MatchedByReference, Invoice: "inv-1", Payment: name}
	manual := matched.DeepCopy()
	manual.Status.MatchedBy = billingv1.MatchedByManual
	unmatched := bare.DeepCopy()
	unmatched.Status = billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionUnmatched,
		Reason: billingv1.BankReasonNoMatch}
	debit := bare.DeepCopy()
	debit.Spec.Entry.CreditDebit = billingv1.Debit
	debit.Status = billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionIgnored, Reason: billingv1.BankReasonDebit}
	reversal := bare.DeepCopy()
	reversal.Spec.Entry.Reversal = true
	reversal.Status = billingv1.BankTransactionStatus{Phase: billingv1.BankTransactionIgnored,
		Reason: billingv1.BankReasonReversal}

	render := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	refusal := func(code, param string) string {
		if param == "" {
			return fmt.Sprintf(`{"error":{"type":"invalid_request_error","code":%q,"message":"m","request_id":"r1"}}`, code)
		}
		return fmt.Sprintf(`{"error":{"type":"invalid_request_error","code":%q,"message":"m","param":%q,"request_id":"r1"}}`,
			code, param)
	}
	statement := apiobject.BankStatement{Object: "bank_statement", Account: "DE89370400440532013000",
		SHA256: strings.Repeat("ab", 32), Transactions: 3, New: 2, Matched: 1, Unmatched: 0, Ignored: 1, Pending: 1}
	one := "/v1/bank_transactions/" + name
	match := one + "/match"
	cases := []struct {
		name, method, path string
		status             int
		body               string
		valid              bool
	}{
		{"a pending transaction with every field is valid", "GET", one, 200,
			render(apiobject.BankTransactionOf(pending)), true},
		{"a pending transaction with only the required fields is valid", "GET", one, 200,
			render(apiobject.BankTransactionOf(bare)), true},
		{"a transaction matched by reference is valid", "GET", one, 200, render(apiobject.BankTransactionOf(matched)), true},
		{"an unmatched transaction is valid", "GET", one, 200, render(apiobject.BankTransactionOf(unmatched)), true},
		{"an ignored debit is valid", "GET", one, 200, render(apiobject.BankTransactionOf(debit)), true},
		{"an ignored reversal is valid", "GET", one, 200, render(apiobject.BankTransactionOf(reversal)), true},
		{"a list of transactions is valid", "GET", "/v1/bank_transactions", 200,
			render(apiobject.List[apiobject.BankTransaction]{Object: "list", Data: []apiobject.BankTransaction{
				apiobject.BankTransactionOf(matched), apiobject.BankTransactionOf(unmatched)}}), true},
		{"a transaction matched by hand is the answer of a match", "POST", match, 200,
			render(apiobject.BankTransactionOf(manual)), true},
		{"a statement is the answer of an import", "POST", "/v1/bank_statements", 201, render(statement), true},

		{"a transaction in a status the API does not have is not valid", "GET", one, 200,
			strings.Replace(render(apiobject.BankTransactionOf(matched)), `"status":"matched"`, `"status":"Matched"`, 1),
			false},
		{"a transaction with the CRD's spelling of its direction is not valid", "GET", one, 200,
			strings.Replace(render(apiobject.BankTransactionOf(pending)), `"credit_debit":"credit"`,
				`"credit_debit":"Credit"`, 1), false},
		{"a transaction without its payment_id is not valid", "GET", one, 200,
			strings.Replace(render(apiobject.BankTransactionOf(matched)), `"payment_id":"`+name+`",`, "", 1), false},
		{"a statement with a negative count is not valid", "POST", "/v1/bank_statements", 201,
			strings.Replace(render(statement), `"pending":1`, `"pending":-1`, 1), false},

		{"an import of another media type is 415", "POST", "/v1/bank_statements", 415,
			refusal("unsupported_media_type", "Content-Type"), true},
		{"an import above 5 MB is 413", "POST", "/v1/bank_statements", 413, refusal("body_too_large", ""), true},
		{"an import that is not camt.053 is 422 statement_invalid", "POST", "/v1/bank_statements", 422,
			refusal("statement_invalid", ""), true},
		{"an import into a workspace that does not exist is 404", "POST", "/v1/bank_statements", 404,
			refusal("resource_missing", WorkspaceHeader), true},
		{"an import is never 409", "POST", "/v1/bank_statements", 409, refusal("already_matched", ""), false},
		{"an unknown status filter is 400", "GET", "/v1/bank_transactions", 400,
			`{"error":{"type":"invalid_request_error","code":"parameter_invalid","message":"m","param":"status","request_id":"r1"}}`,
			true},
		{"an unknown transaction is 404", "GET", one, 404, refusal("resource_missing", "bank_transaction_id"), true},
		{"a match of an unknown transaction is 404", "POST", match, 404, refusal("resource_missing", "bank_transaction_id"),
			true},
		{"a match of a matched transaction is 409 already_matched", "POST", match, 409, refusal("already_matched", ""), true},
		{"a match of an ignored one is 409 transaction_not_matchable", "POST", match, 409,
			refusal("transaction_not_matchable", ""), true},
		{"a match to an invoice not issued is 409", "POST", match, 409, refusal("invoice_not_issued", "invoice_id"), true},
		{"a match booked in a closed period is 409", "POST", match, 409, refusal("period_closed", "booking_date"), true},
		{"a match to an unknown invoice is 422 resource_missing", "POST", match, 422,
			refusal("resource_missing", "invoice_id"), true},
		{"a match to an invoice in another currency is 422", "POST", match, 422,
			refusal("currency_mismatch", "invoice_id"), true},
		{"a match without invoice_id is 422", "POST", match, 422, refusal("parameter_missing", "invoice_id"), true},
		{"a match is never 422 statement_invalid", "POST", match, 422, refusal("statement_invalid", ""), false},
	}
	hdr := http.Header{"Content-Type": {"application/json"}, "Request-Id": {"r1"}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://127.0.0.1"+tc.path, nil)
			resp := &http.Response{StatusCode: tc.status, Header: hdr, Request: req}
			err := c.check(req, resp, []byte(tc.body))
			if tc.valid && err != nil {
				t.Errorf("want valid, got %v", err)
			}
			if !tc.valid && err == nil {
				t.Error("want a mismatch, got none")
			}
		})
	}
}
