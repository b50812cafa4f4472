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
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/camt"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// MaxStatementBytes is the largest bank statement accepted (5 MB): some
// 10,000 entries written compactly, a few thousand as banks that write
// every optional element do.
const MaxStatementBytes = 5 << 20

// The limits of a bank transaction's fields (api/v1 BankEntry).
const (
	maxStructuredReferences = 10
	maxRemittanceText       = 1400
)

// entryAccount is the shape the CRD admits of a transaction's account
// (api/v1 BankEntry.Account): an IBAN in capitals, 15 to 34 long. The
// ISO 20022 schema admits lower case and shorter ones.
var entryAccount = regexp.MustCompile(`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`)

// statementCreators is how many of a statement's transactions are created
// at once.
const statementCreators = 8

// statementWait bounds how long an import waits for the controller to
// match its new transactions before it answers the rest as pending.
const statementWait = 5 * time.Second

// importBankStatement serves POST /v1/bank_statements: a camt.053
// document (Content-Type: application/xml, at most MaxStatementBytes),
// checked against the ISO 20022 schema of its version, whose booked
// entries become BankTransactions named from their identity at the bank
// (banktransfer.TransactionName): a statement imported twice, or two that
// overlap, create each line once. A document that is not camt.053, is
// malformed or fails its schema is 422 statement_invalid, and nothing is
// created. The answer (201) counts the statement's transactions, the new
// ones, and what became of them within a few seconds (the controller
// matches them; those it has not looked at yet are pending).
func (a *Adapter) importBankStatement(w http.ResponseWriter, r *http.Request, c *call) *Error {
	ctx, cancel := statementContext(w, r)
	defer cancel()
	r = r.WithContext(ctx)
	body, e := readMediaBody(w, r, "application/xml", MaxStatementBytes,
		"Send a camt.053 bank statement as XML, with Content-Type: application/xml.")
	if e != nil {
		return e
	}
	st, err := camt.Read(body)
	if err != nil {
		var invalid *camt.InvalidError
		if errors.As(err, &invalid) {
			return errorf(http.StatusUnprocessableEntity, CodeStatementInvalid, "",
				"The statement is not a valid camt.053 document: %s.", strings.Join(invalid.Reasons, "; "))
		}
		return apiError(r.Context(), err, "Unable to read the statement")
	}
	lines, account, e := bankTransactionsOf(st, c.ns)
	if e != nil {
		return e
	}
	created, err := a.createAll(r.Context(), lines)
	if err != nil {
		return apiError(r.Context(), err, "Unable to create the statement's bank transactions")
	}
	out := apiobject.BankStatement{Object: "bank_statement", Account: account, SHA256: st.SHA256,
		Transactions: len(lines), New: created}
	counts, err := a.awaitMatches(r.Context(), c.ns, lines)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the statement's bank transactions")
	}
	out.Matched, out.Unmatched = counts["matched"], counts["unmatched"]
	out.Ignored, out.Pending = counts["ignored"], counts["pending"]
	writeJSON(w, r, http.StatusCreated, out)
	return nil
}

// StatementTimeout bounds an import, in place of the request timeout: a
// statement of 10,000 lines is 10,000 creates, which take minutes on a
// small control plane that matches them meanwhile. An import cut short
// (by this, the client or a restart) is imported again safely: what it
// created is not created twice.
const StatementTimeout = 10 * time.Minute

// statementContext is the context of an import: StatementTimeout to read,
// create and answer, in place of the request timeout, and the server's
// read and write deadlines moved as far.
func statementContext(w http.ResponseWriter, r *http.Request) (context.Context, context.CancelFunc) {
	rc := http.NewResponseController(w)
	deadline := time.Now().Add(StatementTimeout + 5*time.Second)
	// An error only says that the writer cannot move them: the server's
	// timeouts then hold.
	_ = rc.SetReadDeadline(deadline)
	_ = rc.SetWriteDeadline(deadline)
	return context.WithTimeout(infoFrom(r.Context()).untimed, StatementTimeout)
}

// bankTransactionsOf are the BankTransactions of workspace ns that the
// booked entries of st make, and the IBAN of its (first) account. A
// statement of an account without an IBAN, or with one the CRD would
// refuse, or a booked entry without a booking or value date, or of an
// amount the CRD would refuse (0, or above 2^53-1 minor units), is 422
// statement_invalid: every line is checked before the first is created,
// so that nothing is.
func bankTransactionsOf(st *camt.Statement, ns string) ([]*billingv1.BankTransaction, string, *Error) {
	var out []*billingv1.BankTransaction
	account := ""
	seen := map[string]bool{}
	for i, s := range st.Accounts {
		if s.IBAN == "" {
			return nil, "", errorf(http.StatusUnprocessableEntity, CodeStatementInvalid, "",
				"Statement %d (%s) names its account without an IBAN (%s): only accounts with an IBAN can be imported.",
				i+1, s.ID, s.OtherID)
		}
		if !entryAccount.MatchString(s.IBAN) {
			return nil, "", errorf(http.StatusUnprocessableEntity, CodeStatementInvalid, "",
				"Statement %d (%s) names its account %q: only an IBAN of 15 to 34 capital letters and digits can be imported.",
				i+1, s.ID, s.IBAN)
		}
		if account == "" {
			account = s.IBAN
		}
		for _, tx := range s.Transactions {
			if tx.Status != "BOOK" || tx.Minor == 0 {
				// Pending and information entries come back booked; a line
				// of 0.00 (a fee waived, an account notice) moves no money.
				continue
			}
			t, e := bankTransactionOf(st, &s, &tx, ns)
			if e != nil {
				return nil, "", e
			}
			if !seen[t.Name] {
				seen[t.Name] = true
				out = append(out, t)
			}
		}
	}
	return out, account, nil
}

// bankTransactionOf is the BankTransaction of one booked transaction tx of
// statement s of document st.
func bankTransactionOf(st *camt.Statement, s *camt.AccountStatement, tx *camt.Transaction, ns string) (
	*billingv1.BankTransaction, *Error) {
	day := tx.BookingDate
	if day == "" {
		day = tx.ValueDate
	}
	if day == "" {
		return nil, errorf(http.StatusUnprocessableEntity, CodeStatementInvalid, "",
			"Entry %d is booked without a booking or value date.", tx.Entry)
	}
	if tx.Minor > billing.MaxTotal {
		return nil, errorf(http.StatusUnprocessableEntity, CodeStatementInvalid, "",
			"Entry %d books %s %s: a booked line moves at most %d minor units.",
			tx.Entry, tx.Amount, tx.Currency, int64(billing.MaxTotal))
	}
	direction := billingv1.Credit
	if tx.Direction == camt.Debit {
		direction = billingv1.Debit
	}
	refs := tx.CreditorRefs
	if len(refs) > maxStructuredReferences {
		refs = refs[:maxStructuredReferences]
	}
	e := billingv1.BankEntry{Account: s.IBAN, StatementSHA256: st.SHA256, StatementID: s.ID,
		EntryReference: tx.EntryRef, BankReference: firstOf(tx.EntryServicerRef, tx.ServicerRef),
		EndToEndID: notProvided(tx.EndToEndID), BookingDate: day, ValueDate: tx.ValueDate, Amount: tx.Minor,
		Currency: tx.Currency, CreditDebit: direction, Reversal: tx.Reversal, StructuredReferences: refs,
		RemittanceText: cut(tx.Unstructured, maxRemittanceText), DebtorName: tx.DebtorName, DebtorAccount: tx.DebtorIBAN}
	name := banktransfer.TransactionName(banktransfer.TransactionIdentity{Account: s.IBAN, Reference: identity(tx, day),
		Amount: tx.Minor, Currency: tx.Currency, CreditDebit: direction})
	return &billingv1.BankTransaction{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: billingv1.BankTransactionSpec{Entry: e}}, nil
}

// identity is the reference that tells tx apart at its bank: the entry's
// AcctSvcrRef, else its NtryRef, else its position in the file and its
// booking day; with the transaction's place for one of several an entry
// batches.
func identity(tx *camt.Transaction, day string) string {
	ref := ""
	switch {
	case tx.EntryServicerRef != "":
		ref = "acctsvcrref:" + tx.EntryServicerRef
	case tx.EntryRef != "":
		ref = "ntryref:" + tx.EntryRef
	default:
		ref = "entry:" + strconv.Itoa(tx.Entry) + "@" + day
	}
	if tx.Detail > 0 {
		ref += "#" + strconv.Itoa(tx.Detail)
	}
	return ref
}

// firstOf is the first of values that is not empty.
func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// notProvided is an end-to-end id, "" for the NOTPROVIDED banks write
// when the payer gave none.
func notProvided(id string) string {
	if id == "NOTPROVIDED" {
		return ""
	}
	return id
}

// cut is s cut to at most n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// createAll creates lines, statementCreators at a time, and counts those
// that were new, which the store serves at once (read your writes); one
// that exists is left as it is.
func (a *Adapter) createAll(ctx context.Context, lines []*billingv1.BankTransaction) (int, error) {
	var (
		mu      sync.Mutex
		created int
		first   error
		wg      sync.WaitGroup
	)
	next := make(chan *billingv1.BankTransaction)
	for range min(statementCreators, len(lines)) {
		wg.Go(func() {
			for t := range next {
				ok, err := a.claims.CreateNamed(ctx, t)
				if ok {
					a.store.Created(t)
				}
				mu.Lock()
				if ok {
					created++
				}
				if err != nil && first == nil {
					first = fmt.Errorf("bank transaction %s: %w", t.Name, err)
				}
				mu.Unlock()
			}
		})
	}
	for _, t := range lines {
		next <- t
	}
	close(next)
	wg.Wait()
	return created, first
}

// awaitMatches counts lines by their status as the store reads them, once
// none is pending or statementWait has passed.
func (a *Adapter) awaitMatches(ctx context.Context, ns string, lines []*billingv1.BankTransaction) (map[string]int, error) {
	deadline := time.Now().Add(statementWait)
	for {
		counts := map[string]int{}
		for _, l := range lines {
			t := &billingv1.BankTransaction{}
			found, err := a.store.Get(ctx, ns, l.Name, t)
			if err != nil {
				return nil, err
			}
			if !found {
				t.Status = billingv1.BankTransactionStatus{}
			}
			counts[t.Status.Phase.Status()]++
		}
		if counts["pending"] == 0 || time.Now().After(deadline) {
			return counts, nil
		}
		select {
		case <-ctx.Done():
			return counts, nil
		case <-time.After(100 * time.Millisecond):
		}
	}
}
