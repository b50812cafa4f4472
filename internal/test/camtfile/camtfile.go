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

// Package camtfile writes bank statements (camt.053.001.08) as a bank
// exports them, for the tests and benchmarks that import them: one
// account, its entries each one transaction with its remittance.
package camtfile

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"time"
)

// Entry is one line of a statement.
type Entry struct {
	// BankRef is the bank's reference (AcctSvcrRef); "" for none.
	BankRef string
	// Cents is the amount in minor units of Currency (two decimals).
	Cents    int64
	Currency string
	// Debit is money paid out; false is a credit.
	Debit bool
	// Reversal marks an entry reversing an earlier one.
	Reversal bool
	// Pending is an entry not booked yet (PDNG).
	Pending bool
	// Day is the booking day, YYYY-MM-DD.
	Day string
	// Reference is a structured creditor reference (RF); "" for none.
	Reference string
	// Text is the unstructured remittance; "" for none.
	Text string
	// Debtor is the payer's name; "" for none.
	Debtor string
}

// Write is a camt.053.001.08 document of the account iban with entries,
// its statement id id.
func Write(iban, id string, entries []Entry) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>`)
	now := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC).Format(time.RFC3339)
	fmt.Fprintf(&b, `<GrpHdr><MsgId>%s</MsgId><CreDtTm>%s</CreDtTm></GrpHdr>`, esc(id), now)
	currency := "EUR"
	if len(entries) > 0 && entries[0].Currency != "" {
		currency = entries[0].Currency
	}
	fmt.Fprintf(&b, `<Stmt><Id>%s</Id><CreDtTm>%s</CreDtTm><Acct><Id><IBAN>%s</IBAN></Id><Ccy>%s</Ccy></Acct>`,
		esc(id), now, iban, currency)
	fmt.Fprintf(&b, `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="%s">0.00</Amt>`+
		`<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-30</Dt></Dt></Bal>`, currency)
	for _, e := range entries {
		writeEntry(&b, e)
	}
	b.WriteString(`</Stmt></BkToCstmrStmt></Document>`)
	return b.Bytes()
}

func writeEntry(b *bytes.Buffer, e Entry) {
	currency := e.Currency
	if currency == "" {
		currency = "EUR"
	}
	direction, status := "CRDT", "BOOK"
	if e.Debit {
		direction = "DBIT"
	}
	if e.Pending {
		status = "PDNG"
	}
	fmt.Fprintf(b, `<Ntry><Amt Ccy="%s">%d.%02d</Amt><CdtDbtInd>%s</CdtDbtInd>`,
		currency, e.Cents/100, e.Cents%100, direction)
	if e.Reversal {
		b.WriteString(`<RvslInd>true</RvslInd>`)
	}
	fmt.Fprintf(b, `<Sts><Cd>%s</Cd></Sts>`, status)
	if !e.Pending {
		fmt.Fprintf(b, `<BookgDt><Dt>%s</Dt></BookgDt>`, e.Day)
	}
	if e.BankRef != "" {
		fmt.Fprintf(b, `<AcctSvcrRef>%s</AcctSvcrRef>`, esc(e.BankRef))
	}
	b.WriteString(`<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>`)
	if e.Debtor == "" && e.Text == "" && e.Reference == "" {
		b.WriteString(`</Ntry>`)
		return
	}
	b.WriteString(`<NtryDtls><TxDtls>`)
	if e.Debtor != "" {
		fmt.Fprintf(b, `<RltdPties><Dbtr><Pty><Nm>%s</Nm></Pty></Dbtr></RltdPties>`, esc(e.Debtor))
	}
	if e.Text != "" || e.Reference != "" {
		b.WriteString(`<RmtInf>`)
		if e.Text != "" {
			fmt.Fprintf(b, `<Ustrd>%s</Ustrd>`, esc(e.Text))
		}
		if e.Reference != "" {
			fmt.Fprintf(b, `<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>ISO</Issr></Tp>`+
				`<Ref>%s</Ref></CdtrRefInf></Strd>`, esc(e.Reference))
		}
		b.WriteString(`</RmtInf>`)
	}
	b.WriteString(`</TxDtls></NtryDtls></Ntry>`)
}

// esc is s escaped for XML text.
func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
