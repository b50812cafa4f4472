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

package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"strconv"
	"time"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// DefaultTimeout bounds one attempt: connecting, the dialogue and the data.
const DefaultTimeout = 30 * time.Second

// Server is where and how a message is submitted.
type Server struct {
	// Host and Port are the SMTP server's.
	Host string
	Port int32
	// TLS is starttls, implicit or none.
	TLS billingv1.SMTPTLSMode
	// Username and Password, when Username is set, authenticate with AUTH
	// PLAIN. They never appear in an error.
	Username, Password string
	// RootCAs verifies the server's certificate; nil uses the system's.
	RootCAs *x509.CertPool
	// Timeout bounds the attempt; 0 is DefaultTimeout.
	Timeout time.Duration
	// HelloName is the name the manager gives in EHLO; empty is "localhost".
	HelloName string
}

// ErrNoStartTLS is a server that does not offer STARTTLS when tls is
// starttls: the manager never falls back to plain text.
var ErrNoStartTLS = errors.New("the server does not offer STARTTLS")

// ErrPlainTextNotLoopback is tls none to a host that is not loopback: the
// CRD refuses it, and Send refuses it again rather than send credentials
// and invoices in plain text across a network.
var ErrPlainTextNotLoopback = errors.New("tls none is allowed for a loopback host only")

// loopback reports whether host is localhost or a loopback IP address.
func loopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// Send hands msg to the server in one SMTP dialogue, within the server's
// timeout or ctx, whichever ends first. The error names the step that
// failed and what the server or the network said.
func Send(ctx context.Context, s Server, msg *Message) error {
	if s.TLS == billingv1.SMTPTLSNone && !loopback(s.Host) {
		return ErrPlainTextNotLoopback
	}
	data, err := msg.Bytes()
	if err != nil {
		return fmt.Errorf("writing the message: %w", err)
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := dial(ctx, s)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", net.JoinHostPort(s.Host, strconv.Itoa(int(s.Port))), err)
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	c, err := smtp.NewClient(conn, s.Host)
	if err != nil {
		_ = conn.Close()
		return fmt.Errorf("greeting: %w", err)
	}
	defer func() { _ = c.Close() }()
	return dialogue(c, s, msg.From, msg.Recipients(), data)
}

// dial connects, in TLS from the first byte when tls is implicit.
func dial(ctx context.Context, s Server) (net.Conn, error) {
	addr := net.JoinHostPort(s.Host, strconv.Itoa(int(s.Port)))
	if s.TLS == billingv1.SMTPTLSImplicit {
		d := &tls.Dialer{Config: tlsConfig(s)}
		return d.DialContext(ctx, "tcp", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

// tlsConfig verifies the server's certificate for its host.
func tlsConfig(s Server) *tls.Config {
	return &tls.Config{ServerName: s.Host, RootCAs: s.RootCAs, MinVersion: tls.VersionTLS12}
}

// dialogue is EHLO, STARTTLS, AUTH, MAIL, RCPT, DATA and QUIT.
func dialogue(c *smtp.Client, s Server, from string, to []string, data []byte) error {
	hello := s.HelloName
	if hello == "" {
		hello = "localhost"
	}
	if err := c.Hello(hello); err != nil {
		return fmt.Errorf("EHLO: %w", err)
	}
	if s.TLS == "" || s.TLS == billingv1.SMTPTLSStartTLS {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return ErrNoStartTLS
		}
		if err := c.StartTLS(tlsConfig(s)); err != nil {
			return fmt.Errorf("STARTTLS: %w", err)
		}
	}
	if s.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", s.Username, s.Password, s.Host)); err != nil {
			return fmt.Errorf("AUTH: %w", err)
		}
	}
	if err := c.Mail(from); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt); err != nil {
			return fmt.Errorf("RCPT TO %s: %w", rcpt, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	// The message is accepted once DATA ends with 250; a failed QUIT
	// changes nothing.
	_ = c.Quit()
	return nil
}
