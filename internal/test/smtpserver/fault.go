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
	"fmt"
	"io"
	"net"
	"time"

	"github.com/emersion/go-smtp"
)

// Stage is the point of an SMTP conversation where a fault strikes.
type Stage string

const (
	// AtConnect is a new connection, before the server's greeting (before
	// the TLS handshake with ImplicitTLS).
	AtConnect Stage = "connect"
	// AtMail is the MAIL FROM command.
	AtMail Stage = "MAIL"
	// AtRcpt is each RCPT TO command.
	AtRcpt Stage = "RCPT"
	// AtData is the end of a message's content, after DATA: the server has
	// read the whole message and owes its answer.
	AtData Stage = "DATA"
)

// faultKind is what a fault does.
type faultKind int

const (
	refuse faultKind = iota + 1
	stall
	hangup
)

// Fault is a failure the server plays at a stage.
type Fault struct {
	// At is where it strikes.
	At   Stage
	kind faultKind
	code int
}

// Refuse answers the command of stage at (AtMail, AtRcpt or AtData) with
// code: 4xx is a temporary failure a sender retries (421, 450, 451, 452),
// 5xx a permanent one (550, 552, 554).
func Refuse(at Stage, code int) Fault { return Fault{At: at, kind: refuse, code: code} }

// Stall accepts the connection (AtConnect) or the command and answers
// nothing until the client gives up and closes the connection, or the
// server is closed: what a sender's timeout is for.
func Stall(at Stage) Fault { return Fault{At: at, kind: stall} }

// Hangup closes the connection without an answer. At AtData the message
// was read in full first: the sender cannot know whether it arrived.
func Hangup(at Stage) Fault { return Fault{At: at, kind: hangup} }

// String names the fault, for test failure messages.
func (f Fault) String() string {
	switch f.kind {
	case refuse:
		return fmt.Sprintf("refuse %d at %s", f.code, f.At)
	case stall:
		return fmt.Sprintf("stall at %s", f.At)
	case hangup:
		return fmt.Sprintf("hang up at %s", f.At)
	}
	return "no fault"
}

// check reports a fault the server cannot play.
func (f Fault) check() error {
	switch {
	case f.At != AtConnect && f.At != AtMail && f.At != AtRcpt && f.At != AtData:
		return fmt.Errorf("smtpserver: unknown stage %q", f.At)
	case f.kind == 0:
		return fmt.Errorf("smtpserver: a fault at %s made without Refuse, Stall or Hangup", f.At)
	case f.kind == refuse && f.At == AtConnect:
		return fmt.Errorf("smtpserver: %s: refusing a connection is not supported; stall or hang up", f)
	case f.kind == refuse && (f.code < 400 || f.code > 599):
		return fmt.Errorf("smtpserver: %s: a refusal is a 4xx or 5xx code", f)
	}
	return nil
}

// err is the SMTP answer of a refusal.
func (f Fault) err() *smtp.SMTPError {
	return &smtp.SMTPError{
		Code:         f.code,
		EnhancedCode: smtp.EnhancedCode{f.code / 100, 0, 0},
		Message:      "refused by the test server (" + f.String() + ")",
	}
}

// pending is a fault and how many more times it strikes.
type pending struct {
	fault Fault
	left  int
}

// FailNext makes the next n conversations that reach f.At fail with f (for
// AtRcpt: the next n RCPT commands). It replaces what was pending at that
// stage; n = 0 clears it. It panics on a fault the server cannot play (a
// refusal at AtConnect, a code that is not 4xx or 5xx).
func (s *Server) FailNext(n int, f Fault) {
	if err := f.check(); err != nil {
		panic(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[f.At] = pending{fault: f, left: n}
}

// Struck returns how many times a fault struck at stage.
func (s *Server) Struck(stage Stage) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.struck[stage]
}

// take returns the fault due at stage, if any, and counts it.
func (s *Server) take(stage Stage) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.faults[stage]
	if p.left <= 0 {
		return Fault{}, false
	}
	p.left--
	s.faults[stage] = p
	s.struck[stage]++
	return p.fault, true
}

// drain reads and drops what the client sends until it closes the
// connection or the server does: a stall. A read deadline set for the
// conversation is lifted, so that only the client decides.
func drain(c net.Conn) {
	_ = c.SetReadDeadline(time.Time{})
	_, _ = io.Copy(io.Discard, c)
}
