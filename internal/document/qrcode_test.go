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
	"bytes"
	"image"
	"image/color"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
	"github.com/makiuchi-d/gozxing"
	gozxingqr "github.com/makiuchi-d/gozxing/qrcode"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// The EPC QR code is read back from what each document draws, by a
// standard QR decoder (ZXing's port), not from the code's own modules.

// epcInvoice is the sample in euros with its account and reference, with
// paid cents paid of it.
func epcInvoice(paid int64) *billingv1.Invoice {
	inv := twoRates()
	if paid > 0 {
		inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: paid, AmountRemaining: *inv.Status.Total - paid,
			PaymentStatus: billingv1.InvoicePaymentPartiallyPaid}
	}
	return inv
}

// wantEPC is the payload the code of inv must carry for owed cents.
func wantEPC(inv *billingv1.Invoice, owed string) string {
	a := inv.Status.PaymentAccount
	return strings.Join([]string{"BCD", "002", "1", "SCT", a.BIC, a.AccountName, a.IBAN, "EUR" + owed, "", inv.Status.PaymentReference}, "\n")
}

func TestTheHTMLShowsAnEPCQRCodeThatADecoderReadsBack(t *testing.T) {
	inv := epcInvoice(0)
	html, err := HTML(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, svgImage(t, string(html)))
	if want := wantEPC(inv, money(*inv.Status.Total)); got != want {
		t.Errorf("the HTML's code reads\n%q\nwant\n%q", got, want)
	}
	if !strings.Contains(string(html), "Scan with your banking app to pay") {
		t.Error("the HTML's code has no caption")
	}
}

func TestThePDFShowsAnEPCQRCodeOfWhatRemainsThatADecoderReadsBack(t *testing.T) {
	inv := epcInvoice(10_00)
	doc, err := PDF(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	img, side := pdfQRImage(t, doc)
	if side < 20/25.4*72 {
		t.Errorf("the PDF's code is %.1f points wide, less than 2 cm", side)
	}
	got := decode(t, img)
	if want := wantEPC(inv, money(*inv.Status.Total-10_00)); got != want {
		t.Errorf("the PDF's code reads\n%q\nwant\n%q", got, want)
	}
}

func TestAFacturXKeepsTheEPCQRCode(t *testing.T) {
	inv := epcInvoice(0)
	doc, err := FacturX(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	img, _ := pdfQRImage(t, doc)
	if got, want := decode(t, img), wantEPC(inv, money(*inv.Status.Total)); got != want {
		t.Errorf("the Factur-X's code reads\n%q\nwant\n%q", got, want)
	}
}

func TestNoEPCQRCodeIsShownWhereNoTransferIsAskedInEuros(t *testing.T) {
	cases := []struct {
		name   string
		change func(*billingv1.Invoice)
	}{
		{"nothing remains to pay", func(inv *billingv1.Invoice) {
			inv.Status.Balance = &billingv1.InvoiceBalance{AmountPaid: *inv.Status.Total, PaymentStatus: billingv1.InvoicePaymentPaid}
		}},
		{"the invoice is in another currency", func(inv *billingv1.Invoice) { inv.Spec.Currency = "CHF" }},
		{"the profile named no account", func(inv *billingv1.Invoice) { inv.Status.PaymentAccount = nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv := epcInvoice(0)
			c.change(inv)
			html, err := HTML(inv, Options{})
			if err != nil {
				t.Fatal(err)
			}
			doc, err := PDF(inv, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(html), "epc-qr") {
				t.Error("the HTML shows a code")
			}
			if rects := pdfRects(t, doc); len(rects) > 0 {
				t.Errorf("the PDF draws %d filled rectangles", len(rects))
			}
		})
	}
}

func TestWithoutAReferenceTheCodeCarriesTheInvoiceNumberAsText(t *testing.T) {
	inv := epcInvoice(0)
	inv.Status.PaymentReference = ""
	html, err := HTML(inv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := inv.Status.PaymentAccount
	want := strings.Join([]string{"BCD", "002", "1", "SCT", a.BIC, a.AccountName, a.IBAN, "EUR" + money(*inv.Status.Total), "", "", inv.Status.Number}, "\n")
	if got := decode(t, svgImage(t, string(html))); got != want {
		t.Errorf("the code reads\n%q\nwant\n%q", got, want)
	}
}

// money writes cents as the EPC amount does.
func money(cents int64) string {
	return strconv.FormatInt(cents/100, 10) + "." + strconv.FormatInt(cents%100/10, 10) + strconv.FormatInt(cents%10, 10)
}

var svgPath = regexp.MustCompile(`<svg[^>]*class="epc-qr" viewBox="0 0 (\d+) \d+"[^>]*>.*?<path fill="#000" d="([^"]*)"`)
var svgRun = regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-\d+z`)

// svgImage draws the HTML's EPC code, 4 pixels a module.
func svgImage(t *testing.T, html string) image.Image {
	t.Helper()
	m := svgPath.FindStringSubmatch(html)
	if m == nil {
		t.Fatal("the HTML has no EPC QR code")
	}
	side, _ := strconv.Atoi(m[1])
	const scale = 4
	img := whiteImage(side * scale)
	for _, r := range svgRun.FindAllStringSubmatch(m[2], -1) {
		x, _ := strconv.Atoi(r[1])
		y, _ := strconv.Atoi(r[2])
		n, _ := strconv.Atoi(r[3])
		fill(img, x*scale, y*scale, n*scale, scale)
	}
	return img
}

// pdfRects are the rectangles the first page of a PDF draws, with their
// corners ordered.
func pdfRects(t *testing.T, doc []byte) []pdf.Rect {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		t.Fatal(err)
	}
	var rects []pdf.Rect
	for _, rc := range r.Page(1).Content().Rect {
		rects = append(rects, pdf.Rect{
			Min: pdf.Point{X: math.Min(rc.Min.X, rc.Max.X), Y: math.Min(rc.Min.Y, rc.Max.Y)},
			Max: pdf.Point{X: math.Max(rc.Min.X, rc.Max.X), Y: math.Max(rc.Min.Y, rc.Max.Y)},
		})
	}
	return rects
}

// pdfQRImage draws the rectangles of a PDF's first page, its QR code, at
// 8 pixels a point with a white quiet zone, and says how wide the code is.
func pdfQRImage(t *testing.T, doc []byte) (image.Image, float64) {
	t.Helper()
	rects := pdfRects(t, doc)
	if len(rects) == 0 {
		t.Fatal("the PDF draws no QR code")
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, r := range rects {
		minX, minY = math.Min(minX, r.Min.X), math.Min(minY, r.Min.Y)
		maxX, maxY = math.Max(maxX, r.Max.X), math.Max(maxY, r.Max.Y)
	}
	const scale, border = 8.0, 40
	side := maxX - minX
	img := whiteImage(int(side*scale) + 2*border)
	for _, r := range rects {
		// PDF y grows upwards; the image's downwards.
		x0, y0 := int(math.Round((r.Min.X-minX)*scale)), int(math.Round((maxY-r.Max.Y)*scale))
		x1, y1 := int(math.Round((r.Max.X-minX)*scale)), int(math.Round((maxY-r.Min.Y)*scale))
		fill(img, x0+border, y0+border, x1-x0, y1-y0)
	}
	return img, side
}

func whiteImage(side int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, side, side))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	return img
}

func fill(img *image.Gray, x, y, w, h int) {
	for yy := y; yy < y+h; yy++ {
		for xx := x; xx < x+w; xx++ {
			img.SetGray(xx, yy, color.Gray{})
		}
	}
}

// decode reads a QR code out of img with ZXing's decoder.
func decode(t *testing.T, img image.Image) string {
	t.Helper()
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gozxingqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		t.Fatalf("no QR code can be read: %v", err)
	}
	return res.GetText()
}
