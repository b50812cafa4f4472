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

package smtpserver

import (
	"bytes"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/smtp"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/test/testca"
)

// The test sends with the standard library's net/smtp, a client the server
// knows nothing of.

const (
	sender    = "billing@demo.example"
	recipient = "billing@acme.example"
	hidden    = "archive@demo.example" // a Bcc: in the envelope only
)

var (
	pdf = []byte("%PDF-1.7\n\x00\x01\x02 binary bytes \xff\xfe\n%%EOF\n")
	xml = []byte("<?xml version=\"1.0\"?><Invoice>DEMO-000001 · 680.50</Invoice>\n")
)

// start starts a server that the test closes.
func start(t *testing.T, opts ...Option) *Server {
	t.Helper()
	s, err := Start(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// newCA makes a CA for the TLS modes.
func newCA(t *testing.T) *testca.CA {
	t.Helper()
	ca, err := testca.New("smtpserver-test")
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

// dial connects as a sender configured with mode would: implicit TLS, or
// plain with STARTTLS when mode says so. Every read and write must finish
// within timeout.
func dial(t *testing.T, s *Server, mode TLSMode, ca *testca.CA, timeout time.Duration) (*smtp.Client, error) {
	t.Helper()
	tlsConfig := &tls.Config{ServerName: s.Host, MinVersion: tls.VersionTLS12}
	if ca != nil {
		tlsConfig.RootCAs = ca.Pool()
	}
	conn, err := net.DialTimeout("tcp", s.Addr, timeout)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if mode == ImplicitTLS {
		conn = tls.Client(conn, tlsConfig)
	}
	c, err := smtp.NewClient(conn, s.Host)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	t.Cleanup(func() { _ = c.Close() })
	if mode == StartTLS {
		if err := c.StartTLS(tlsConfig); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// send sends one message from sender over c.
func send(c *smtp.Client, to []string, msg []byte) error {
	if err := c.Mail(sender); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	return w.Close()
}

// invoiceMail is an invoice's message as a sender would write it: a text
// body in quoted-printable, the PDF and the XML attached in base64, an
// encoded subject and an RFC 2231 file name.
func invoiceMail(t *testing.T, messageID string) []byte {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	text, _ := mw.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {"text/plain; charset=utf-8"},
		"Content-Transfer-Encoding": {"quoted-printable"},
	})
	qp := quotedprintable.NewWriter(text)
	_, _ = qp.Write([]byte("Invoice DEMO-000001 for 680.50 USD is due on 10 December 2026. Thank you – Example GmbH\n"))
	_ = qp.Close()
	for _, a := range []struct {
		header textproto.MIMEHeader
		data   []byte
	}{
		{textproto.MIMEHeader{
			"Content-Type":        {"application/pdf"},
			"Content-Disposition": {mime.FormatMediaType("attachment", map[string]string{"filename": "DEMO-000001.pdf"})},
		}, pdf},
		{textproto.MIMEHeader{
			"Content-Type":        {"application/xml"},
			"Content-Disposition": {mime.FormatMediaType("attachment", map[string]string{"filename": "Rechnung-DEMO-000001-ü.xml"})},
		}, xml},
	} {
		a.header.Set("Content-Transfer-Encoding", "base64")
		w, _ := mw.CreatePart(a.header)
		_, _ = w.Write(wrapBase64(a.data))
	}
	_ = mw.Close()
	header := fmt.Sprintf("From: Example GmbH <%s>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: %s\r\n"+
		"Date: %s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=%s\r\n\r\n",
		sender, recipient, mime.QEncoding.Encode("utf-8", "Invoice DEMO-000001 – 680.50 USD"), messageID,
		time.Now().Format(time.RFC1123Z), mw.Boundary())
	return append([]byte(header), body.Bytes()...)
}

// wrapBase64 encodes data in lines of 76 characters, as mail does.
func wrapBase64(data []byte) []byte {
	var b bytes.Buffer
	enc := []byte(base64.StdEncoding.EncodeToString(data))
	for len(enc) > 76 {
		b.Write(enc[:76])
		b.WriteString("\r\n")
		enc = enc[76:]
	}
	b.Write(enc)
	b.WriteString("\r\n")
	return b.Bytes()
}

// plainMail is a short message without MIME parts.
func plainMail(subject string) []byte {
	return []byte("From: " + sender + "\r\nTo: " + recipient + "\r\nSubject: " + subject +
		"\r\nMessage-ID: <" + strings.ReplaceAll(subject, " ", "-") + "@demo.example>\r\n\r\nHello.\r\n")
}

// smtpCode is the reply code of an SMTP error, 0 for another error.
func smtpCode(err error) int {
	var tpErr *textproto.Error
	if errors.As(err, &tpErr) {
		return tpErr.Code
	}
	return 0
}

func TestItRecordsTheEnvelopeAndParsesTheMIMEPartsBack(t *testing.T) {
	s := start(t)
	c, err := dial(t, s, NoTLS, nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := send(c, []string{recipient, hidden}, invoiceMail(t, "<inv-1@demo.example>")); err != nil {
		t.Fatal(err)
	}

	got := s.Messages()
	if len(got) != 1 {
		t.Fatalf("messages: %d, want 1", len(got))
	}
	m := got[0]
	if m.From != sender || strings.Join(m.To, ",") != recipient+","+hidden {
		t.Errorf("envelope: from %q to %q", m.From, m.To)
	}
	if m.TLS || m.Username != "" || !m.Accepted {
		t.Errorf("tls %v, username %q, accepted %v; want plain, anonymous, accepted", m.TLS, m.Username, m.Accepted)
	}
	if subject, err := m.Subject(); err != nil || subject != "Invoice DEMO-000001 – 680.50 USD" {
		t.Errorf("subject %q (%v)", subject, err)
	}
	if m.MessageID() != "<inv-1@demo.example>" {
		t.Errorf("Message-ID %q", m.MessageID())
	}
	if strings.Contains(string(m.Raw), hidden) {
		t.Error("the Bcc recipient is in the message; it belongs to the envelope only")
	}
	text, err := m.Text()
	if err != nil || !strings.Contains(text, "due on 10 December 2026. Thank you – Example GmbH") {
		t.Errorf("text %q (%v)", text, err)
	}
	attachments, err := m.Attachments()
	if err != nil {
		t.Fatal(err)
	}
	if len(attachments) != 2 {
		t.Fatalf("attachments: %d, want 2", len(attachments))
	}
	for i, want := range []struct {
		mediaType, filename string
		body                []byte
	}{
		{"application/pdf", "DEMO-000001.pdf", pdf},
		{"application/xml", "Rechnung-DEMO-000001-ü.xml", xml},
	} {
		a := attachments[i]
		if a.MediaType != want.mediaType || a.Filename != want.filename || a.Disposition != "attachment" {
			t.Errorf("attachment %d: %s %q %s", i, a.MediaType, a.Filename, a.Disposition)
		}
		if !bytes.Equal(a.Body, want.body) {
			t.Errorf("attachment %d: body %q, want %q", i, a.Body, want.body)
		}
	}
}

func TestStartTLSOffersAuthOnlyOverTLSAndChecksThePassword(t *testing.T) {
	ca := newCA(t)
	s := start(t, WithStartTLS(ca), WithAuth("apikey", "s3cret"))

	c, err := dial(t, s, NoTLS, nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		t.Error("STARTTLS is not offered")
	}
	if ok, _ := c.Extension("AUTH"); ok {
		t.Error("AUTH is offered before STARTTLS")
	}
	if err := c.Mail(sender); smtpCode(err)/100 != 5 {
		t.Errorf("MAIL without AUTH: %v, want a 5xx", err)
	}

	c, err = dial(t, s, StartTLS, ca, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if ok, mechs := c.Extension("AUTH"); !ok || mechs != "PLAIN" {
		t.Errorf("AUTH after STARTTLS: %v %q, want PLAIN", ok, mechs)
	}
	if err := c.Auth(smtp.PlainAuth("", "apikey", "wrong", s.Host)); smtpCode(err) != 535 {
		t.Errorf("a wrong password: %v, want 535", err)
	}
	// net/smtp quits after a failed AUTH.
	c, err = dial(t, s, StartTLS, ca, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Auth(smtp.PlainAuth("", "apikey", "s3cret", s.Host)); err != nil {
		t.Fatal(err)
	}
	if err := send(c, []string{recipient}, plainMail("over STARTTLS")); err != nil {
		t.Fatal(err)
	}
	m := s.Messages()
	if len(m) != 1 || !m[0].TLS || m[0].Username != "apikey" {
		t.Fatalf("messages %+v, want one over TLS as apikey", m)
	}
}

func TestImplicitTLSSpeaksTLSFromTheFirstByte(t *testing.T) {
	ca := newCA(t)
	s := start(t, WithImplicitTLS(ca), WithAuth("user", "pass"))

	// A plain client reads no greeting it understands.
	if _, err := dial(t, s, NoTLS, nil, 300*time.Millisecond); err == nil {
		t.Error("a plain client got through an implicit TLS server")
	}
	// A client that trusts another CA fails the handshake.
	if _, err := dial(t, s, ImplicitTLS, newCA(t), 10*time.Second); err == nil {
		t.Error("a client trusting another CA got through")
	}

	c, err := dial(t, s, ImplicitTLS, ca, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		t.Error("STARTTLS is offered inside TLS")
	}
	if err := c.Auth(smtp.PlainAuth("", "user", "pass", s.Host)); err != nil {
		t.Fatal(err)
	}
	if err := send(c, []string{recipient}, plainMail("over implicit TLS")); err != nil {
		t.Fatal(err)
	}
	if m := s.Messages(); len(m) != 1 || !m[0].TLS || m[0].Username != "user" {
		t.Fatalf("messages %+v, want one over TLS as user", m)
	}
}

func TestItRefusesAtEachStageAsOftenAsTold(t *testing.T) {
	for _, tc := range []struct {
		at   Stage
		code int
	}{{AtMail, 421}, {AtRcpt, 450}, {AtRcpt, 550}, {AtData, 451}, {AtData, 554}} {
		t.Run(fmt.Sprintf("%s %d", tc.at, tc.code), func(t *testing.T) {
			s := start(t, FailingFirst(2, Refuse(tc.at, tc.code)))
			c, err := dial(t, s, NoTLS, nil, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				if err := send(c, []string{recipient}, plainMail("refused")); smtpCode(err) != tc.code {
					t.Fatalf("attempt %d: %v, want %d", i+1, err, tc.code)
				}
				if err := c.Reset(); err != nil {
					t.Fatal(err)
				}
			}
			if err := send(c, []string{recipient}, plainMail("accepted")); err != nil {
				t.Fatalf("third attempt: %v", err)
			}
			if got := s.Struck(tc.at); got != 2 {
				t.Errorf("struck %d times, want 2", got)
			}
			if got := len(s.Messages()); got != 1 {
				t.Errorf("accepted %d messages, want 1", got)
			}
			// A message refused after DATA was read: recorded, not accepted.
			wantReceived := 1
			if tc.at == AtData {
				wantReceived = 3
			}
			if got := len(s.Received()); got != wantReceived {
				t.Errorf("received %d messages, want %d", got, wantReceived)
			}
		})
	}
}

func TestAStallAnswersNothingUntilTheClientGivesUp(t *testing.T) {
	for _, at := range []Stage{AtConnect, AtMail, AtRcpt, AtData} {
		t.Run(string(at), func(t *testing.T) {
			s := start(t)
			s.FailNext(1, Stall(at))
			const timeout = 300 * time.Millisecond
			began := time.Now()
			c, err := dial(t, s, NoTLS, nil, timeout)
			if err == nil {
				err = send(c, []string{recipient}, plainMail("stalled"))
			}
			var netErr net.Error
			if !errors.As(err, &netErr) || !netErr.Timeout() {
				t.Fatalf("%v, want the client's timeout", err)
			}
			if waited := time.Since(began); waited < timeout {
				t.Errorf("the client gave up after %s, before its timeout", waited)
			}
			if s.Struck(at) != 1 || len(s.Messages()) != 0 {
				t.Errorf("struck %d, accepted %d; want 1 and 0", s.Struck(at), len(s.Messages()))
			}
			if at == AtData && len(s.Received()) != 1 {
				t.Errorf("received %d, want the stalled message", len(s.Received()))
			}

			// The stall was one: the next conversation goes through.
			c, err = dial(t, s, NoTLS, nil, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if err := send(c, []string{recipient}, plainMail("after the stall")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestAHangupClosesTheConnectionWithoutAnAnswer(t *testing.T) {
	for _, at := range []Stage{AtConnect, AtMail, AtRcpt, AtData} {
		t.Run(string(at), func(t *testing.T) {
			s := start(t, FailingFirst(1, Hangup(at)))
			c, err := dial(t, s, NoTLS, nil, 10*time.Second)
			if err == nil {
				err = send(c, []string{recipient}, plainMail("hung up"))
			}
			if err == nil || smtpCode(err) != 0 {
				t.Fatalf("%v, want a broken connection", err)
			}
			var netErr net.Error
			if errors.As(err, &netErr) && netErr.Timeout() {
				t.Fatalf("%v: a timeout, want the connection closed at once", err)
			}
			if at == AtData {
				// The message arrived; the sender cannot know it.
				if r := s.Received(); len(r) != 1 || r[0].Accepted {
					t.Errorf("received %+v, want one message, not accepted", r)
				}
			}
			c, err = dial(t, s, NoTLS, nil, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if err := send(c, []string{recipient}, plainMail("after the hang-up")); err != nil {
				t.Fatal(err)
			}
			if len(s.Messages()) != 1 {
				t.Errorf("accepted %d, want 1", len(s.Messages()))
			}
		})
	}
}

func TestCloseEndsAStalledConnection(t *testing.T) {
	s, err := Start(FailingFirst(1, Stall(AtConnect)))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	read := make(chan error, 1)
	go func() {
		_, err := conn.Read(make([]byte, 1))
		read <- err
	}()
	// The stall holds the connection once the server has accepted it.
	deadline := time.Now().Add(10 * time.Second)
	for s.Struck(AtConnect) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	s.Close()
	err = <-read
	var netErr net.Error
	if err == nil || (errors.As(err, &netErr) && netErr.Timeout()) {
		t.Fatalf("read %v, want the connection closed by Close", err)
	}
}

func TestFaultsItCannotPlayAreErrors(t *testing.T) {
	if _, err := Start(FailingFirst(1, Refuse(AtConnect, 554))); err == nil {
		t.Error("a refusal at connect was accepted")
	}
	if _, err := Start(FailingFirst(1, Refuse(AtMail, 250))); err == nil {
		t.Error("a refusal with 250 was accepted")
	}
	if _, err := Start(WithStartTLS(nil)); err == nil {
		t.Error("STARTTLS without a CA was accepted")
	}
	s := start(t)
	defer func() {
		if recover() == nil {
			t.Error("FailNext took a fault at an unknown stage")
		}
	}()
	s.FailNext(1, Hangup("QUIT"))
}
