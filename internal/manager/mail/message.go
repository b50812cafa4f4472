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

// Package mail is how the manager writes and sends e-mail: a message with
// attachments as MIME, handed to an SMTP server over the standard library's
// net/smtp. net/smtp is frozen but complete for a client that submits mail:
// STARTTLS, AUTH PLAIN and the SMTP dialogue; the package adds what it
// lacks, a deadline on the whole dialogue and implicit TLS, by dialling the
// connection itself. A third-party client would add a dependency for
// nothing the manager uses.
package mail

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"net/textproto"
	"strings"
	"time"
)

// Attachment is a file attached to a message.
type Attachment struct {
	// Filename is the name the recipient sees, for example "INV-000042.pdf".
	Filename string
	// ContentType is its media type, for example "application/pdf".
	ContentType string
	// Data is its content.
	Data []byte
}

// Message is one e-mail.
type Message struct {
	// From is the sender's address; ReplyTo, when set, where answers go.
	From, ReplyTo string
	// FromName is the sender's name, the From header's display name (the
	// issuer's name); "" for the address alone.
	FromName string
	// To are the recipients named in the To header; BCC receive a copy
	// without being named.
	To, BCC []string
	// Subject is the subject line, in any script.
	Subject string
	// MessageID is the Message-ID header, angle brackets included.
	MessageID string
	// Date is the Date header.
	Date time.Time
	// Text is the body, plain text.
	Text string
	// Attachments are the files after the body.
	Attachments []Attachment
}

// Recipients are the envelope's recipients: To and BCC.
func (m *Message) Recipients() []string {
	return append(append([]string(nil), m.To...), m.BCC...)
}

// Bytes writes the message as RFC 5322 with MIME: a multipart/mixed of
// the text and the attachments, lines ending in CRLF, base64 for
// everything that is not ASCII.
func (m *Message) Bytes() ([]byte, error) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", m.fromHeader())
	header("To", strings.Join(m.To, ", "))
	if m.ReplyTo != "" {
		header("Reply-To", m.ReplyTo)
	}
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", m.Date.Format(time.RFC1123Z))
	header("Message-ID", m.MessageID)
	header("MIME-Version", "1.0")
	header("Content-Type", `multipart/mixed; boundary="`+w.Boundary()+`"`)
	b.WriteString("\r\n")
	if err := part(w, textproto.MIMEHeader{
		"Content-Type":              {"text/plain; charset=utf-8"},
		"Content-Transfer-Encoding": {"base64"},
	}, []byte(crlf(m.Text))); err != nil {
		return nil, err
	}
	for _, a := range m.Attachments {
		if err := part(w, textproto.MIMEHeader{
			"Content-Type":              {mime.FormatMediaType(a.ContentType, map[string]string{"name": a.Filename})},
			"Content-Disposition":       {mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename})},
			"Content-Transfer-Encoding": {"base64"},
		}, a.Data); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// fromHeader is the From header: the address, with FromName as its
// display name, quoted or RFC 2047-encoded as net/mail formats it
// ("\"Example Invoicing GmbH\" <billing@example.com>",
// "=?utf-8?q?M=C3=BCller_GmbH?= <billing@example.com>").
func (m *Message) fromHeader() string {
	if m.FromName == "" {
		return m.From
	}
	return (&netmail.Address{Name: m.FromName, Address: m.From}).String()
}

// part writes one MIME part with data in base64, 76 characters a line.
func part(w *multipart.Writer, h textproto.MIMEHeader, data []byte) error {
	p, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		if _, err := fmt.Fprintf(p, "%s\r\n", enc[:76]); err != nil {
			return err
		}
		enc = enc[76:]
	}
	_, err = fmt.Fprintf(p, "%s\r\n", enc)
	return err
}

// crlf ends every line of s in CRLF.
func crlf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}
