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

package mailing

import (
	"errors"
	"strings"
	"testing"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/einvoice"
	"github.com/invoicing-dev/invoicing/internal/manager/mail"
)

// fakeDocument is an issued document whose e-invoice and Factur-X fail
// with the errors given.
func fakeDocument(einvoiceErr, facturxErr error) issuedDocument {
	return issuedDocument{
		filename: func(ext string) string { return "INV-000001." + ext },
		pdf:      func() ([]byte, error) { return []byte("pdf"), nil },
		einvoice: func(einvoice.Profile) ([]byte, error) { return []byte("xml"), einvoiceErr },
		facturx:  func() ([]byte, error) { return []byte("facturx"), facturxErr },
	}
}

func TestAMessageAttachesWhatTheProfileAsksAndSaysWhatItLeftOut(t *testing.T) {
	lacks := &einvoice.UnavailableError{Profile: einvoice.EN16931, Missing: []string{"the customer's country"}}
	broken := errors.New("disk full")
	cases := []struct {
		name     string
		profile  billingv1.EInvoiceAttachment
		doc      issuedDocument
		want     []string // filename=data of each attachment
		wantNote string
		wantErr  bool
	}{
		{"without a profile, the PDF alone", "", fakeDocument(nil, nil), []string{"INV-000001.pdf=pdf"}, "", false},
		{"a profile's e-invoice beside the PDF", "en16931", fakeDocument(nil, nil),
			[]string{"INV-000001.pdf=pdf", "INV-000001.xml=xml"}, "", false},
		{"an e-invoice that cannot be written is left out, and said", "en16931", fakeDocument(lacks, nil),
			[]string{"INV-000001.pdf=pdf"}, "No e-invoice attached: ", false},
		{"a Factur-X instead of the PDF", billingv1.EInvoiceAttachmentFacturX, fakeDocument(nil, nil),
			[]string{"INV-000001.pdf=facturx"}, "", false},
		{"a Factur-X that cannot be written is the plain PDF, and said", billingv1.EInvoiceAttachmentFacturX,
			fakeDocument(nil, lacks), []string{"INV-000001.pdf=pdf"}, "Sent as a plain PDF, not a Factur-X: ", false},
		{"a Factur-X that fails otherwise is an error", billingv1.EInvoiceAttachmentFacturX,
			fakeDocument(nil, broken), nil, "", true},
		{"an e-invoice that fails otherwise is an error", "peppol", fakeDocument(broken, nil),
			[]string{"INV-000001.pdf=pdf"}, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := &mail.Message{}
			note, err := attach(msg, tc.doc, tc.profile)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want one: %v", err, tc.wantErr)
			}
			var got []string
			for _, a := range msg.Attachments {
				got = append(got, a.Filename+"="+string(a.Data))
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("attachments %v, want %v", got, tc.want)
			}
			if !strings.HasPrefix(note, tc.wantNote) || (tc.wantNote == "") != (note == "") {
				t.Errorf("note %q, want one beginning %q", note, tc.wantNote)
			}
			if tc.wantNote != "" && !strings.Contains(note, "the customer's country") {
				t.Errorf("note %q does not say what is lacking", note)
			}
		})
	}
}
