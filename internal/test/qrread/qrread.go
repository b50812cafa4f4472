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

// Package qrread reads the EPC QR code back out of what a document draws,
// with ZXing's decoder: the inline SVG of an HTML document, the filled
// rectangles of a PDF's first page.
package qrread

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"regexp"
	"strconv"

	"github.com/ledongthuc/pdf"
	"github.com/makiuchi-d/gozxing"
	gozxingqr "github.com/makiuchi-d/gozxing/qrcode"
)

var (
	svgPath = regexp.MustCompile(`<svg[^>]*class="epc-qr" viewBox="0 0 (\d+) \d+"[^>]*>.*?<path fill="#000" d="([^"]*)"`)
	svgRun  = regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-\d+z`)
)

// ErrNoCode is the error for a document that draws no QR code.
var ErrNoCode = errors.New("the document draws no QR code")

// HTML is the text of the EPC QR code an HTML document shows.
func HTML(doc []byte) (string, error) {
	m := svgPath.FindSubmatch(doc)
	if m == nil {
		return "", ErrNoCode
	}
	side, _ := strconv.Atoi(string(m[1]))
	const scale = 4
	img := whiteImage(side * scale)
	for _, r := range svgRun.FindAllSubmatch(m[2], -1) {
		x, _ := strconv.Atoi(string(r[1]))
		y, _ := strconv.Atoi(string(r[2]))
		n, _ := strconv.Atoi(string(r[3]))
		fill(img, x*scale, y*scale, n*scale, scale)
	}
	return decode(img)
}

// PDF is the text of the QR code a PDF's first page draws, and how wide
// the code is, in points.
func PDF(doc []byte) (string, float64, error) {
	rects, err := Rects(doc)
	if err != nil {
		return "", 0, err
	}
	if len(rects) == 0 {
		return "", 0, ErrNoCode
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
	text, err := decode(img)
	return text, side, err
}

// Rects are the rectangles a PDF's first page draws, corners ordered.
func Rects(doc []byte) ([]pdf.Rect, error) {
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		return nil, fmt.Errorf("reading the PDF: %w", err)
	}
	var rects []pdf.Rect
	for _, rc := range r.Page(1).Content().Rect {
		rects = append(rects, pdf.Rect{
			Min: pdf.Point{X: math.Min(rc.Min.X, rc.Max.X), Y: math.Min(rc.Min.Y, rc.Max.Y)},
			Max: pdf.Point{X: math.Max(rc.Min.X, rc.Max.X), Y: math.Max(rc.Min.Y, rc.Max.Y)},
		})
	}
	return rects, nil
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

// decode reads a QR code out of img.
func decode(img image.Image) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", err
	}
	res, err := gozxingqr.NewQRCodeReader().Decode(bmp,
		map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		return "", fmt.Errorf("no QR code can be read: %w", err)
	}
	return res.GetText(), nil
}
