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

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// reader extracts statements from a valid document, gathering what it
// cannot take as "path: what", at most maxReasons.
type reader struct {
	entries int
	errs    []string
}

func (r *reader) fail(path string, err error) {
	if len(r.errs) < maxReasons {
		r.errs = append(r.errs, path+": "+err.Error())
	}
}

// account reads a Stmt at path.
func (r *reader) account(stmt *node, path string) AccountStatement {
	a := AccountStatement{
		ID:       stmt.value("Id"),
		IBAN:     stmt.value("Acct", "Id", "IBAN"),
		OtherID:  stmt.value("Acct", "Id", "Othr", "Id"),
		Currency: stmt.value("Acct", "Ccy"),
	}
	if a.Currency == "" {
		a.Currency = stmt.at("Bal", "Amt").attr("Ccy")
	}
	for i, ntry := range stmt.all("Ntry") {
		r.entries++
		a.Transactions = append(a.Transactions, r.entry(ntry, fmt.Sprintf("%s/Ntry[%d]", path, i+1))...)
	}
	return a
}

// entry reads an Ntry at path: one transaction, or one per TxDtls when it
// has several.
func (r *reader) entry(ntry *node, path string) []Transaction {
	base := Transaction{
		Entry:            r.entries,
		EntryRef:         ntry.value("NtryRef"),
		EntryServicerRef: ntry.value("AcctSvcrRef"),
		Direction:        Direction(ntry.value("CdtDbtInd")),
		Status:           ntry.value("Sts"),
		Reversal:         isTrue(ntry.value("RvslInd")),
	}
	if sts := ntry.child("Sts"); sts != nil && len(sts.children) > 0 {
		base.Status = sts.value(sts.children[0].name.Local)
	}
	base.BookingDate = r.date(ntry.child("BookgDt"), path+"/BookgDt")
	base.ValueDate = r.date(ntry.child("ValDt"), path+"/ValDt")
	var details []*node
	var paths []string
	for i, d := range ntry.all("NtryDtls") {
		for j, tx := range d.all("TxDtls") {
			details = append(details, tx)
			paths = append(paths, fmt.Sprintf("%s/NtryDtls[%d]/TxDtls[%d]", path, i+1, j+1))
		}
	}
	if len(details) <= 1 {
		t := base
		r.amount(&t, ntry.child("Amt"), path+"/Amt")
		if len(details) == 1 {
			details1(&t, details[0])
		}
		return []Transaction{t}
	}
	out := make([]Transaction, 0, len(details))
	for i, tx := range details {
		t := base
		t.Detail = i + 1
		amt, amtPath := tx.child("Amt"), paths[i]+"/Amt"
		if amt == nil {
			amt, amtPath = tx.at("AmtDtls", "TxAmt", "Amt"), paths[i]+"/AmtDtls/TxAmt/Amt"
		}
		if amt == nil {
			r.fail(paths[i], fmt.Errorf("a transaction of a batch has no amount (AmtDtls/TxAmt/Amt)"))
			continue
		}
		r.amount(&t, amt, amtPath)
		if d := tx.value("CdtDbtInd"); d != "" {
			t.Direction = Direction(d)
		}
		details1(&t, tx)
		out = append(out, t)
	}
	return out
}

// details1 takes a TxDtls's references, remittance and debtor into t.
func details1(t *Transaction, tx *node) {
	t.ServicerRef = tx.value("Refs", "AcctSvcrRef")
	t.EndToEndID = tx.value("Refs", "EndToEndId")
	rmt := tx.child("RmtInf")
	ustrd := rmt.all("Ustrd")
	lines := make([]string, 0, len(ustrd))
	for _, u := range ustrd {
		lines = append(lines, trimSpace(string(u.text)))
	}
	t.Unstructured = strings.Join(lines, " ")
	for _, s := range rmt.all("Strd") {
		if ref := s.value("CdtrRefInf", "Ref"); ref != "" {
			t.CreditorRefs = append(t.CreditorRefs, ref)
		}
	}
	parties := tx.child("RltdPties")
	t.DebtorName = parties.value("Dbtr", "Nm")
	if t.DebtorName == "" {
		t.DebtorName = parties.value("Dbtr", "Pty", "Nm")
	}
	t.DebtorIBAN = parties.value("DbtrAcct", "Id", "IBAN")
}

// amount takes the amount element amt, at path, into t.
func (r *reader) amount(t *Transaction, amt *node, path string) {
	if amt == nil {
		r.fail(path, fmt.Errorf("no amount"))
		return
	}
	t.Amount = collapse(string(amt.text))
	t.Currency = amt.attr("Ccy")
	minor, err := minorUnits(t.Amount, t.Currency)
	if err != nil {
		r.fail(path, err)
	}
	t.Minor = minor
}

// date reads a date choice (Dt or DtTm) at path as YYYY-MM-DD, or "" for
// a nil choice.
func (r *reader) date(choice *node, path string) string {
	if choice == nil {
		return ""
	}
	d := choice.value("Dt")
	if d == "" {
		if d = choice.value("DtTm"); d != "" {
			path += "/DtTm"
		}
		d, _, _ = strings.Cut(d, "T")
	} else {
		path += "/Dt"
	}
	if len(d) > 10 {
		d = d[:10] // a time zone after the date
	}
	if _, err := time.Parse(time.DateOnly, d); err != nil {
		r.fail(path, fmt.Errorf("%s is not a date between years 1 and 9999", quote(d)))
		return ""
	}
	return d
}

// isTrue reads an xs:boolean.
func isTrue(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b
}
