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

package camt_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/adapter/camt"
)

// fixture is a file under testdata, read or failing the test.
func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// edit is the fixture name with old replaced by new, once.
func edit(t testing.TB, name, old, new string) string {
	t.Helper()
	doc := fixture(t, name)
	if !strings.Contains(doc, old) {
		t.Fatalf("%s has no %q", name, old)
	}
	return strings.Replace(doc, old, new, 1)
}

// cut is the fixture name without the first element from start to end.
func cut(t testing.TB, name, start, end string) string {
	t.Helper()
	doc := fixture(t, name)
	i, j := strings.Index(doc, start), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %s...%s", name, start, end)
	}
	return doc[:i] + doc[j+len(end):]
}

const (
	ntry1  = "/Document/BkToCstmrStmt/Stmt[1]/Ntry[1]"
	ns02   = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"
	nsBoth = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.02 or urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"
)

func TestReadRefusesWhatIsNotAValidStatementNamingWhere(t *testing.T) {
	cases := []struct {
		name  string
		doc   string
		first string
	}{
		{"a bank's CSV export is not XML", fixture(t, "invalid/not-xml.csv"),
			"/: not XML: the document does not start with <"},
		{"an empty body is not XML", "",
			"/: not XML: the document does not start with <"},
		{"bytes that are not UTF-8 are refused", "<Document>\xff</Document>",
			"/: not UTF-8 text"},
		{"an element left open is not well-formed", `<Document xmlns="` + ns02 + `"><BkToCstmrStmt>`,
			"/: not well-formed XML: XML syntax error on line 1: unexpected EOF"},
		{"a second root element is refused", `<Document xmlns="` + ns02 + `"/><Document xmlns="` + ns02 + `"/>`,
			"/: not well-formed XML: a second root element"},
		{"an encoding other than UTF-8 is refused", `<?xml version="1.0" encoding="ISO-8859-1"?><Document/>`,
			`/: not well-formed XML: xml: encoding "ISO-8859-1" declared but Decoder.CharsetReader is nil`},
		{"a DOCTYPE is refused before its entities are read", fixture(t, "invalid/doctype.xml"),
			"/: a DOCTYPE or other declaration (<!...>); documents with a DOCTYPE are refused"},
		{"elements nested deeper than 64 levels are refused", strings.Repeat("<a>", 65) + strings.Repeat("</a>", 65),
			"/: elements nested deeper than 64 levels"},
		{"a pain.001 payment order is not a statement", fixture(t, "invalid/pain001.xml"),
			`/Document: namespace "urn:iso:std:iso:20022:tech:xsd:pain.001.001.03" is not a camt.053 version read here (` + nsBoth + ")"},
		{"a camt.053 version not read here names its namespace",
			`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"/>`,
			`/Document: namespace "urn:iso:std:iso:20022:tech:xsd:camt.053.001.04" is not a camt.053 version read here (` + nsBoth + ")"},
		{"a Document without a namespace is refused", `<Document><BkToCstmrStmt/></Document>`,
			"/Document: no namespace; a camt.053 Document is in " + nsBoth},
		{"a root element other than Document is refused", `<BkToCstmrStmt xmlns="` + ns02 + `"/>`,
			"/BkToCstmrStmt: the root element is BkToCstmrStmt, not a camt.053 Document"},
		{"an entry without its credit-debit indicator names the element it expected", fixture(t, "invalid/missing-element.xml"),
			ntry1 + ": unexpected element Sts; expected CdtDbtInd"},
		{"an entry's value date before its booking date is out of order", fixture(t, "invalid/wrong-order.xml"),
			ntry1 + ": unexpected element BookgDt; expected AcctSvcrRef, Avlbty or BkTxCd"},
		{"an element the schema does not declare is refused", fixture(t, "invalid/unknown-element.xml"),
			ntry1 + ": unexpected element Memo; expected BookgDt, ValDt, AcctSvcrRef, Avlbty or BkTxCd"},
		{"a statement without its balances misses them", cut(t, "v02-one-entry.xml", "<Bal>", "</Bal>"),
			"/Document/BkToCstmrStmt/Stmt[1]: unexpected element Ntry; expected RltdAcct, Intrst or Bal"},
		{"a statement that ends early misses its next required element",
			fixture(t, "v02-one-entry.xml")[:strings.Index(fixture(t, "v02-one-entry.xml"), "<CreDtTm>2026-05-04T07:00:00</CreDtTm>\n      <Acct>")] +
				"</Stmt></BkToCstmrStmt></Document>",
			"/Document/BkToCstmrStmt/Stmt[1]: missing element CreDtTm"},
		{"a lower-case currency code does not match its pattern", fixture(t, "invalid/lower-case-currency.xml"),
			ntry1 + `/Amt/@Ccy: "eur" does not match the pattern [A-Z]{3,3}`},
		{"an IBAN written in groups does not match its pattern", fixture(t, "invalid/iban-with-spaces.xml"),
			`/Document/BkToCstmrStmt/Stmt[1]/Acct/Id/IBAN: "FR14 2004 1010 0505 0001 3M02 606" does not match the pattern [A-Z]{2,2}[0-9]{2,2}[a-zA-Z0-9]{1,30}`},
		{"an amount with six fraction digits breaks the schema's five", fixture(t, "invalid/six-fraction-digits.xml"),
			ntry1 + `/Amt: "310.200001" has more than 5 fraction digits`},
		{"an amount in thousandths of a euro has more fraction digits than the euro", fixture(t, "invalid/cents-of-a-cent.xml"),
			ntry1 + `/Amt: "310.205" has more than 2 fraction digits (EUR)`},
		{"a currency ISO 4217 does not assign is refused", fixture(t, "invalid/unassigned-currency.xml"),
			ntry1 + `/Amt: "XYZ" is not an ISO 4217 currency code`},
		{"a negative amount is below the schema's minimum", fixture(t, "invalid/negative-amount.xml"),
			ntry1 + `/Amt: "-310.20" is less than 0`},
		{"an amount without its currency misses the attribute", fixture(t, "invalid/missing-currency.xml"),
			ntry1 + "/Amt: missing attribute Ccy"},
		{"an attribute the schema does not declare is refused", edit(t, "v02-one-entry.xml", `<Sts>`, `<Sts xml:lang="de">`),
			ntry1 + "/Sts/@{http://www.w3.org/XML/1998/namespace}lang: attribute not allowed"},
		{"a decimal comma is not a decimal", fixture(t, "invalid/comma-decimal.xml"),
			ntry1 + `/Amt: "310,20" is not a valid xs:decimal`},
		{"30 February is no date", fixture(t, "invalid/no-such-day.xml"),
			ntry1 + `/ValDt/Dt: "2026-02-30" is not a valid xs:date`},
		{"a credit-debit indicator that is no code is refused", fixture(t, "invalid/unknown-code.xml"),
			ntry1 + `/CdtDbtInd: "CREDIT" is not one of CRDT, DBIT`},
		{"a 08 status written as in 02 is text where elements belong", fixture(t, "invalid/v08-status-as-in-02.xml"),
			ntry1 + `/Sts: text "BOOK" is not allowed between elements`},
		{"a transaction of a batch without an amount cannot be taken",
			edit(t, "v02-batch.xml", `<AmtDtls>
              <TxAmt>
                <Amt Ccy="EUR">32.45</Amt>
              </TxAmt>
            </AmtDtls>`, ""),
			"/Document/BkToCstmrStmt/Stmt[1]/Ntry[2]/NtryDtls[1]/TxDtls[3]: a transaction of a batch has no amount (AmtDtls/TxAmt/Amt)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := camt.Read([]byte(c.doc))
			var invalid *camt.InvalidError
			if !errors.As(err, &invalid) {
				t.Fatalf("Read = %v, %v; want an *InvalidError", st, err)
			}
			if len(invalid.Reasons) == 0 || invalid.Reasons[0] != c.first {
				t.Errorf("first reason:\n got %q\nwant %q", invalid.Reasons, c.first)
			}
		})
	}
}

func TestAtMostTwentyReasonsAreGiven(t *testing.T) {
	doc := fixture(t, "v02-one-entry.xml")
	start, end := strings.Index(doc, "<Ntry>"), strings.Index(doc, "</Ntry>")+len("</Ntry>")
	bad := strings.Replace(doc[start:end], `Ccy="EUR"`, `Ccy="euro"`, 1)
	doc = doc[:start] + strings.Repeat(bad, 25) + doc[end:]
	_, err := camt.Read([]byte(doc))
	var invalid *camt.InvalidError
	if !errors.As(err, &invalid) {
		t.Fatalf("Read = %v; want an *InvalidError", err)
	}
	if len(invalid.Reasons) != 20 {
		t.Errorf("%d reasons, want 20: %q", len(invalid.Reasons), invalid.Reasons)
	}
	if want := `/Document/BkToCstmrStmt/Stmt[1]/Ntry[20]/Amt/@Ccy: "euro" does not match the pattern [A-Z]{3,3}`; invalid.Reasons[19] != want {
		t.Errorf("last reason %q, want %q", invalid.Reasons[19], want)
	}
	if !strings.HasPrefix(err.Error(), "invalid camt.053 statement: "+invalid.Reasons[0]+" (and 19 more: ") {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestWhatXMLAllowsAroundAValidStatementIsAccepted(t *testing.T) {
	doc := fixture(t, "v02-one-entry.xml")
	cases := []struct{ name, doc string }{
		{"a byte order mark before the document", "\xef\xbb\xbf" + doc},
		{"a schema location on the Document", edit(t, "v02-one-entry.xml", `<Document xmlns="`+ns02+`"`,
			`<Document xmlns="`+ns02+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="`+ns02+` camt.053.001.02.xsd"`)},
		{"a namespace prefix instead of the default namespace", strings.NewReplacer("</", "</c:", "<?", "<?", "<!", "<!", "<", "<c:",
			`xmlns=`, `xmlns:c=`).Replace(doc)},
		{"comments and CDATA inside values", edit(t, "v02-one-entry.xml", "<Nm>Durand SARL</Nm>", "<Nm><!-- payer -->Durand <![CDATA[SARL]]></Nm>")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := camt.Read([]byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if tx := st.Accounts[0].Transactions[0]; tx.DebtorName != "Durand SARL" || tx.Minor != 31020 {
				t.Errorf("transaction %+v", tx)
			}
		})
	}
}
