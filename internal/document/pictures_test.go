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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/invoicing-dev/invoicing/internal/test/samples"
	"github.com/invoicing-dev/invoicing/internal/test/testenv"
)

// This file holds the pictures of docs/ to config/samples: each is a
// sample invoice issued as the controller issues it, and docs/invoice-images.sum
// records what each was drawn from.

// picture is one invoice picture of docs/ (docs/<name>-pdf.png and
// docs/<name>-html.png).
type picture struct {
	name string
	// sample is the invoice's file under config/samples, and number and
	// sequence what it is issued with: its number in the walk-through.
	sample   string
	number   string
	sequence int64
	// locale is the language it is drawn in: und for its customer's, as
	// GET /v1/invoices/{id}/document answers it.
	locale language.Tag
}

// pictures are the invoice pictures of README.md and docs/, in the order
// `make invoice-images` lists them.
var pictures = []picture{
	{"invoice", "billing_v1_invoice.yaml", "DEMO-000001", 1, language.Und},
	{"invoice-tax", "locale/billing_v1_invoice.yaml", "DEMO-000004", 4, language.English},
	{"invoice-de", "locale/billing_v1_invoice.yaml", "DEMO-000004", 4, language.Und},
	{"invoice-reverse-charge", "reverse-charge/billing_v1_invoice.yaml", "DEMO-000005", 5, language.English},
	{"invoice-fr", "reverse-charge/billing_v1_invoice.yaml", "DEMO-000005", 5, language.Und},
}

// picturesSum is the file that records, per picture, the SHA-256 of what
// it was drawn from.
const picturesSum = "invoice-images.sum"

// drawn is the invoice a picture shows and the options it is rendered
// with, issued on a fixed day.
func (p picture) drawn(t *testing.T) (samples.Sample, Options) {
	t.Helper()
	s, err := samples.Issued(p.sample, p.number, p.sequence, time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Footer: s.Profile.Spec.Footer, Locale: p.locale}
	if p.locale == language.Und {
		opts.Locale = s.Locale()
	}
	return s, opts
}

// sum is the SHA-256 of the invoice and the options a picture is drawn
// from, as a line of docs/invoice-images.sum.
func (p picture) sum(t *testing.T) string {
	t.Helper()
	s, opts := p.drawn(t)
	data, err := json.Marshal(s.Invoice)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(fmt.Appendf(data, "\n%s\n%s", opts.Locale, opts.Footer))
	return hex.EncodeToString(h[:]) + "  " + p.name + "\n"
}

// picturesSumFile is docs/invoice-images.sum as the pictures of today's
// samples would have it.
func picturesSumFile(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, p := range pictures {
		b.WriteString(p.sum(t))
	}
	return b.String()
}

// TestWriteTheSampleDocuments writes the pictures' invoices as HTML and
// PDF, and their invoice-images.sum, to the directory DOCUMENT_SAMPLES_DIR
// names (skipped without it); `make invoice-images` draws them as the
// pictures in docs/ and copies the sum beside them.
func TestWriteTheSampleDocuments(t *testing.T) {
	dir := os.Getenv("DOCUMENT_SAMPLES_DIR")
	if dir == "" {
		t.Skip("DOCUMENT_SAMPLES_DIR is not set")
	}
	for _, p := range pictures {
		s, opts := p.drawn(t)
		html, err := HTML(s.Invoice, opts)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := PDF(s.Invoice, opts)
		if err != nil {
			t.Fatal(err)
		}
		writeOut(t, dir, p.name+".html", html)
		writeOut(t, dir, p.name+".pdf", doc)
	}
	writeOut(t, dir, picturesSum, []byte(picturesSumFile(t)))
}

// The pictures of README.md and docs/ are of config/samples as they are: a
// change of a sample (or of what a picture is drawn from) fails here until
// `make invoice-images` draws the pictures again.
func TestThePicturesInTheDocsAreOfTheSamplesAsTheyAre(t *testing.T) {
	path := filepath.Join(testenv.ModuleRoot(), "docs", picturesSum)
	recorded, err := os.ReadFile(path) //nolint:gosec // the repository's docs
	if err != nil {
		t.Fatal(err)
	}
	if want := picturesSumFile(t); string(recorded) != want {
		t.Errorf("docs/%s records pictures drawn from other invoices than config/samples holds now: "+
			"run make invoice-images and look at the pictures.\nrecorded:\n%swant:\n%s", picturesSum, recorded, want)
	}
}
