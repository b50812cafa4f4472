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

package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"
)

// mailCatcherWait bounds the wait for Mailpit's SMTP port to accept.
const mailCatcherWait = 15 * time.Second

// mailCatcher is the Mailpit that make run starts: the demo workspace's
// billing profile (config/samples) sends its mail to smtpAddr, and its web
// view on webAddr shows every message received.
type mailCatcher struct {
	binary   string
	smtpAddr string
	webAddr  string
}

// enabled is whether make run asked for a mail catcher.
func (m mailCatcher) enabled() bool { return m.binary != "" }

// check refuses addresses off loopback: the catcher accepts any mail
// without credentials and shows it to whoever connects, and the manager
// sends without TLS (tls: none) to loopback hosts only.
func (m mailCatcher) check() error {
	if !m.enabled() {
		return nil
	}
	for _, a := range []struct{ flag, addr string }{{"--mail-smtp-addr", m.smtpAddr}, {"--mail-web-addr", m.webAddr}} {
		if err := onLoopback(a.flag, a.addr); err != nil {
			return err
		}
	}
	return nil
}

// args are Mailpit's arguments. Without --database it keeps the messages
// in a temporary database that it deletes when it stops; it asks no one
// for updates and looks up no sender's name, so it needs no network
// beyond loopback. It takes any SMTP credentials, also over plain SMTP,
// so a profile that names a credentials Secret works against it too.
func (m mailCatcher) args() []string {
	return []string{
		"--smtp", m.smtpAddr,
		"--listen", m.webAddr,
		"--smtp-auth-accept-any", "--smtp-auth-allow-insecure",
		"--disable-version-check", "--smtp-disable-rdns",
	}
}

// start runs Mailpit as one of the children, its start-up lines on
// stdout, and waits until it is ready.
func (m mailCatcher) start(ctx context.Context, procs *children) error {
	if !m.enabled() {
		return nil
	}
	if err := procs.start(os.Stdout, m.binary, m.args()...); err != nil {
		return fmt.Errorf("%w (make mailpit builds it)", err)
	}
	return m.waitReady(ctx)
}

// waitReady waits until the SMTP port accepts connections, so that the
// banner printed next is true.
func (m mailCatcher) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, mailCatcherWait)
	defer cancel()
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", m.smtpAddr)
		if err == nil {
			return conn.Close()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("mailpit's SMTP port %s: %w", m.smtpAddr, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// banner tells where the mail goes and where to read it; nothing without
// a mail catcher. samples is what demoSamples returned.
func (m mailCatcher) banner(samples string) string {
	if !m.enabled() {
		return ""
	}
	return fmt.Sprintf(`  Mail: Mailpit catches every message the manager sends (kept until Ctrl-C). Read it at
    http://%s/
  It takes SMTP on %s, without TLS and with any credentials; the demo billing profile
  (kubectl apply -k %s) sends there.

`, m.webAddr, m.smtpAddr, samples)
}
