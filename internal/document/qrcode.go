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

package document

import (
	"fmt"
	"html/template"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/banktransfer"
)

// This file is the EPC QR code an invoice in euros shows beside its bank
// details: the transfer of what remains to pay, as a matrix of modules
// drawn as vector shapes in both the HTML (an inline SVG) and the PDF.

// qrQuietZone is the light border around a code, in modules, that its
// specification asks for (ISO/IEC 18004: four).
const qrQuietZone = 4

// qrCode is a QR code's modules, row by row, true where dark, without
// its quiet zone.
type qrCode struct {
	modules [][]bool
}

// epcCode is the EPC QR code (EPC069-12, error correction level M) that
// pays owed euro cents of an issued invoice with st's account and
// reference; nil when there is none to show: another currency, no account,
// nothing owed, or more than a code can ask for.
func epcCode(st *billingv1.InvoiceStatus, currency string, owed int64) *qrCode {
	a := st.PaymentAccount
	if currency != "EUR" || a == nil || owed <= 0 {
		return nil
	}
	name := a.AccountName
	if name == "" && st.Issuer != nil {
		name = st.Issuer.Name
	}
	t := banktransfer.EPCTransfer{BIC: a.BIC, Name: name, IBAN: a.IBAN, Cents: owed, Reference: st.PaymentReference}
	if t.Reference == "" {
		t.Text = st.Number
	}
	payload, err := banktransfer.EPCPayload(t)
	if err != nil {
		return nil
	}
	code, err := qrcode.New(payload, qrcode.Medium)
	if err != nil {
		return nil
	}
	code.DisableBorder = true
	return &qrCode{modules: code.Bitmap()}
}

// runs calls dark once per horizontal run of dark modules: its row, first
// column and length. One shape per run keeps the drawing small.
func (q *qrCode) runs(dark func(row, col, n int)) {
	for y, row := range q.modules {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			dark(y, start, x-start)
		}
	}
}

// SVG is the code as an inline SVG image, its quiet zone included, one
// path of unit squares in a viewBox of modules.
func (q *qrCode) SVG() template.HTML {
	side := len(q.modules) + 2*qrQuietZone
	var d strings.Builder
	q.runs(func(row, col, n int) {
		fmt.Fprintf(&d, "M%d %dh%dv1h-%dz", col+qrQuietZone, row+qrQuietZone, n, n)
	})
	//nolint:gosec // every part of the markup is written here from numbers
	return template.HTML(fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" class="epc-qr" viewBox="0 0 %d %d" `+
		`shape-rendering="crispEdges" role="img" aria-label="EPC QR code"><rect width="%d" height="%d" fill="#fff"/>`+
		`<path fill="#000" d="%s"/></svg>`, side, side, side, side, d.String()))
}
