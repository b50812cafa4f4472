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
	"crypto/subtle"
	"errors"
	"io"
	"net/mail"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// errHungUp ends a conversation the server hung up on.
var errHungUp = errors.New("smtpserver: hung up on purpose")

// backend makes a session per connection (and a new one after STARTTLS).
type backend struct{ server *Server }

// NewSession starts the session of a connection.
func (b backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{server: b.server, conn: c}, nil
}

// session is one SMTP conversation: the envelope of the message under way
// and who authenticated.
type session struct {
	server   *Server
	conn     *smtp.Conn
	username string // set by a successful AUTH
	from     string
	to       []string
}

var _ smtp.AuthSession = (*session)(nil)

// AuthMechanisms offers PLAIN when the server checks credentials.
func (s *session) AuthMechanisms() []string {
	if s.server.username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

// Auth checks PLAIN credentials against the server's, in constant time.
func (s *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain || s.server.username == "" {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		userOK := subtle.ConstantTimeCompare([]byte(username), []byte(s.server.username)) == 1
		passOK := subtle.ConstantTimeCompare([]byte(password), []byte(s.server.password)) == 1
		if !userOK || !passOK || (identity != "" && identity != username) {
			return smtp.ErrAuthFailed
		}
		s.username = username
		return nil
	}), nil
}

// Mail starts a message, once authenticated when the server requires it.
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.server.username != "" && s.username == "" {
		return smtp.ErrAuthRequired
	}
	if err := s.fault(AtMail); err != nil {
		return err
	}
	s.from = from
	return nil
}

// Rcpt adds a recipient.
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := s.fault(AtRcpt); err != nil {
		return err
	}
	s.to = append(s.to, to)
	return nil
}

// Data reads the message, records it, and plays a fault of AtData after
// reading, so that a refused, stalled or hung-up message is recorded too.
func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := s.conn.TLSConnectionState()
	m := Message{
		From: s.from, To: append([]string(nil), s.to...), Raw: raw,
		Username: s.username, TLS: isTLS, ReceivedAt: time.Now(),
	}
	if parsed, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		m.Header = parsed.Header
	}
	// Recorded before a stall, which returns only when the test is over.
	f, faulty := s.server.take(AtData)
	m.Accepted = !faulty
	s.server.record(m)
	if faulty {
		return s.play(f)
	}
	return nil
}

// Reset forgets the message under way.
func (s *session) Reset() { s.from, s.to = "", nil }

// Logout ends the session.
func (s *session) Logout() error { return nil }

// fault plays the fault due at stage, if any.
func (s *session) fault(stage Stage) error {
	if f, ok := s.server.take(stage); ok {
		return s.play(f)
	}
	return nil
}

// play plays f: a refusal is returned as the command's answer; a stall
// blocks until the client or the server closes the connection; a hang-up
// closes it. Either of the last two returns errHungUp, whose answer no one
// reads.
func (s *session) play(f Fault) error {
	switch f.kind {
	case refuse:
		return f.err()
	case stall:
		drain(s.conn.Conn())
	}
	_ = s.conn.Close()
	return errHungUp
}
