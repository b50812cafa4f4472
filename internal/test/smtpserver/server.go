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

// Package smtpserver is the test suites' one SMTP server: a real listener on
// loopback (github.com/emersion/go-smtp) that records every message it
// receives, speaks STARTTLS or implicit TLS with a certificate of
// internal/test/testca, checks AUTH PLAIN credentials, and can be told to
// refuse, stall or hang up, as a real provider sometimes does.
package smtpserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"sync"

	"github.com/emersion/go-smtp"

	"github.com/invoicing-dev/invoicing/internal/test/testca"
)

// TLSMode is how a client reaches the server: the values of the
// BillingProfile's spec.email.smtp.tls.
type TLSMode string

const (
	// NoTLS is plain SMTP, what a sender allows on loopback only.
	NoTLS TLSMode = "none"
	// StartTLS offers STARTTLS on a plain connection (port 587's way);
	// AUTH is offered only once TLS is on.
	StartTLS TLSMode = "starttls"
	// ImplicitTLS speaks TLS from the first byte (port 465's way).
	ImplicitTLS TLSMode = "implicit"
)

// Server records the messages it receives. Its methods are safe for
// concurrent use.
type Server struct {
	// Addr is where to connect: 127.0.0.1:port. Host and Port are its parts.
	Addr string
	Host string
	Port int32
	// TLS is the mode the server was started in.
	TLS TLSMode

	smtp     *smtp.Server
	listener net.Listener
	served   chan struct{} // closed when Serve has returned
	username string
	password string

	mu       sync.Mutex
	received []Message
	faults   map[Stage]pending
	struck   map[Stage]int
	stalled  map[net.Conn]struct{} // connections held by a stall at AtConnect
	closed   bool
}

// config is what the options set before the server starts.
type config struct {
	mode     TLSMode
	ca       *testca.CA
	username string
	password string
	faults   map[Stage]pending
}

// Option configures a Server.
type Option func(*config)

// WithStartTLS offers STARTTLS with a certificate for 127.0.0.1 issued by ca.
func WithStartTLS(ca *testca.CA) Option {
	return func(c *config) { c.mode, c.ca = StartTLS, ca }
}

// WithImplicitTLS makes the server speak TLS from the first byte, with a
// certificate for 127.0.0.1 issued by ca.
func WithImplicitTLS(ca *testca.CA) Option {
	return func(c *config) { c.mode, c.ca = ImplicitTLS, ca }
}

// WithAuth requires AUTH PLAIN with this username and password before MAIL.
// Without TLS the server offers AUTH on plain connections too (a loopback
// test server); with StartTLS only after STARTTLS, as providers do.
func WithAuth(username, password string) Option {
	return func(c *config) { c.username, c.password = username, password }
}

// FailingFirst makes the first n conversations that reach f's stage fail
// with f (see Server.FailNext).
func FailingFirst(n int, f Fault) Option {
	return func(c *config) { c.faults[f.At] = pending{fault: f, left: n} }
}

// Start starts a server on a free loopback port.
func Start(opts ...Option) (*Server, error) {
	c := config{mode: NoTLS, faults: map[Stage]pending{}}
	for _, o := range opts {
		o(&c)
	}
	for _, p := range c.faults {
		if err := p.fault.check(); err != nil {
			return nil, err
		}
	}
	s := &Server{
		Host: "127.0.0.1", TLS: c.mode, username: c.username, password: c.password,
		served: make(chan struct{}), faults: c.faults, struck: map[Stage]int{}, stalled: map[net.Conn]struct{}{},
	}
	s.smtp = smtp.NewServer(backend{s})
	s.smtp.Domain = "smtpserver.test"
	s.smtp.AllowInsecureAuth = c.mode == NoTLS
	// Failures the tests cause on purpose (hang-ups, stalls) are not news.
	s.smtp.ErrorLog = log.New(io.Discard, "", 0)

	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	var listener net.Listener = &faultListener{Listener: l, server: s}
	if c.mode != NoTLS {
		if c.ca == nil {
			_ = l.Close()
			return nil, errors.New("smtpserver: a TLS mode needs a CA")
		}
		cfg, err := serverTLS(c.ca)
		if err != nil {
			_ = l.Close()
			return nil, err
		}
		if c.mode == StartTLS {
			s.smtp.TLSConfig = cfg // go-smtp offers STARTTLS when it has one
		} else {
			listener = tls.NewListener(listener, cfg)
		}
	}
	addr := l.Addr().(*net.TCPAddr)
	s.Addr, s.Port, s.listener = addr.String(), int32(addr.Port), listener //nolint:gosec // a TCP port fits
	go func() {
		defer close(s.served)
		_ = s.smtp.Serve(listener)
	}()
	return s, nil
}

// serverTLS loads a fresh certificate for 127.0.0.1 issued by ca.
func serverTLS(ca *testca.CA) (*tls.Config, error) {
	dir, err := os.MkdirTemp("", "smtpserver-tls-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	if err := ca.Issue(dir); err != nil {
		return nil, fmt.Errorf("smtpserver: issuing a certificate: %w", err)
	}
	cert, err := tls.LoadX509KeyPair(filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"))
	if err != nil {
		return nil, err
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// Close stops the server: its listener, every connection (stalled ones
// too), and waits until it has stopped accepting.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	for c := range s.stalled {
		_ = c.Close()
	}
	s.mu.Unlock()
	_ = s.smtp.Close()
	// Serve may not have registered the listener with go-smtp yet: close
	// it here too, so that Serve returns either way.
	_ = s.listener.Close()
	<-s.served
}

// Messages returns the messages the server accepted (answered 250 after
// DATA), in arrival order, repeats included.
func (s *Server) Messages() []Message {
	var accepted []Message
	for _, m := range s.Received() {
		if m.Accepted {
			accepted = append(accepted, m)
		}
	}
	return accepted
}

// Received returns every message whose content the server read, in arrival
// order: also those refused after DATA, or left unanswered by a stall or a
// hang-up at AtData, which a sender cannot tell from lost ones.
func (s *Server) Received() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.received...)
}

// Reset forgets the messages received so far and the faults still pending.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.received = nil
	s.faults = map[Stage]pending{}
	s.struck = map[Stage]int{}
}

// record keeps a message.
func (s *Server) record(m Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.received = append(s.received, m)
}

// faultListener applies the faults of AtConnect before the SMTP server
// sees a connection.
type faultListener struct {
	net.Listener
	server *Server
}

// Accept returns the next connection that no fault at AtConnect takes.
func (l *faultListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		f, ok := l.server.take(AtConnect)
		switch {
		case !ok:
			return c, nil
		case f.kind == hangup:
			_ = c.Close()
		case f.kind == stall:
			if l.server.hold(c) {
				go func() {
					drain(c)
					l.server.release(c)
				}()
			}
		}
	}
}

// hold remembers a stalled connection so that Close ends it; it closes the
// connection at once when the server is already closed.
func (s *Server) hold(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = c.Close()
		return false
	}
	s.stalled[c] = struct{}{}
	return true
}

// release forgets and closes a stalled connection.
func (s *Server) release(c net.Conn) {
	s.mu.Lock()
	delete(s.stalled, c)
	s.mu.Unlock()
	_ = c.Close()
}
