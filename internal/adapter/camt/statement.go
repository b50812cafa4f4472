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

package camt

// Statement is a camt.053 document (a BankToCustomerStatement): one
// message from a bank holding the statements of one or more accounts.
type Statement struct {
	// Version is the document's version, from its namespace.
	Version Version
	// SHA256 is the SHA-256 of the whole document as received, in lower
	// case hex: what the caller stores to know a file it has seen.
	SHA256 string
	// MessageID is the bank's id of the message (GrpHdr/MsgId).
	MessageID string
	// Accounts are the document's statements (Stmt), in order.
	Accounts []AccountStatement
}

// AccountStatement is one Stmt: the entries booked or pending on one
// account over a period.
type AccountStatement struct {
	// ID is the bank's id of the statement (Stmt/Id).
	ID string
	// IBAN is the account's IBAN (Acct/Id/IBAN), or "" when the bank
	// identifies the account otherwise; OtherID is then that id
	// (Acct/Id/Othr/Id), so that such a statement is read rather than
	// refused and the caller decides what to do with an account it
	// cannot match by IBAN.
	IBAN    string
	OtherID string
	// Currency is the account's currency (Acct/Ccy) or, when the
	// statement does not name it, that of its first balance (Bal/Amt).
	Currency string
	// Transactions are the statement's entries, one per entry or, for an
	// entry that batches several transactions, one per transaction, in
	// document order.
	Transactions []Transaction
}

// Direction says whether an amount is credited or debited to the account.
type Direction string

// The directions of CdtDbtInd.
const (
	Credit Direction = "CRDT"
	Debit  Direction = "DBIT"
)

// Transaction is one payment on a statement: an entry (Ntry) or one of the
// transactions an entry batches (NtryDtls/TxDtls).
type Transaction struct {
	// Entry is the 1-based position of its entry among all the entries of
	// the document, counting across statements.
	Entry int
	// Detail is the 1-based position of its TxDtls within its entry when
	// the entry batches several, and 0 when the transaction is the
	// entry itself (with at most one TxDtls).
	Detail int
	// EntryRef is the entry's NtryRef, "" when absent.
	EntryRef string
	// EntryServicerRef is the entry's AcctSvcrRef, "" when absent.
	EntryServicerRef string
	// ServicerRef is the bank's reference of the transaction
	// (TxDtls/Refs/AcctSvcrRef), "" when absent.
	ServicerRef string
	// EndToEndID is the payer's end-to-end id (TxDtls/Refs/EndToEndId),
	// "" when absent; banks write NOTPROVIDED when the payer gave none.
	EndToEndID string
	// Amount is the amount as the document writes it, a non-negative
	// decimal (its sign is Direction): the entry's Amt, or for a batched
	// transaction its own (TxDtls/Amt in 08, else TxDtls/AmtDtls/TxAmt/Amt).
	Amount string
	// Currency is Amount's currency (its Ccy), an ISO 4217 code.
	Currency string
	// Minor is Amount in minor units of Currency (1234 for 12.34 EUR).
	Minor int64
	// Direction is whether the amount was credited or debited: the
	// entry's CdtDbtInd, or a batched transaction's own when it has one.
	Direction Direction
	// Status is the entry's status: BOOK, PDNG, INFO (02's codes); in 08
	// the code of Sts/Cd (the same and others, such as FUTR) or the
	// proprietary Sts/Prtry.
	Status string
	// Reversal is whether the entry reverses an earlier one (RvslInd).
	Reversal bool
	// BookingDate is the entry's booking date (BookgDt/Dt, or the date of
	// BookgDt/DtTm as written, whatever its time zone), written
	// YYYY-MM-DD; "" when absent, as for a pending entry.
	BookingDate string
	// ValueDate is the entry's value date (ValDt), likewise.
	ValueDate string
	// CreditorRefs are the structured creditor references of its
	// remittance (RmtInf/Strd/CdtrRefInf/Ref, such as an RF reference),
	// in order.
	CreditorRefs []string
	// Unstructured is its unstructured remittance (RmtInf/Ustrd), the
	// lines joined with a space.
	Unstructured string
	// DebtorName is the debtor's name (RltdPties/Dbtr/Nm in 02,
	// RltdPties/Dbtr/Pty/Nm in 08), "" when absent.
	DebtorName string
	// DebtorIBAN is the debtor's account (RltdPties/DbtrAcct/Id/IBAN), ""
	// when absent or not an IBAN.
	DebtorIBAN string
}
