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

package delivery

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
	"unicode"
)

// Defaults of SenderOptions.
const (
	DefaultTimeout          = 10 * time.Second
	DefaultMaxResponseBytes = 64 << 10
)

// userAgent names the sender to receivers.
const userAgent = "invoicing-webhooks/1"

// SenderOptions configure a Sender.
type SenderOptions struct {
	Policy Policy
	// Timeout bounds one attempt, from dialing to the end of the answer;
	// 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxResponseBytes is how much of an answer is read; the rest is
	// dropped with the connection. 0 means DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// TLS is the client TLS configuration; nil means the system's roots.
	TLS *tls.Config
}

// Sender makes delivery attempts. It is safe for concurrent use and keeps
// connections to receivers open between attempts.
type Sender struct {
	opts SenderOptions
	// secure sends https; plain sends http, to loopback only.
	secure, plain *http.Client
}

// NewSender returns a Sender.
func NewSender(opts SenderOptions) *Sender {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	return &Sender{
		opts:   opts,
		secure: client(opts, opts.Policy.CheckAddr),
		plain: client(opts, func(addr netip.Addr) error {
			if !addr.Unmap().IsLoopback() {
				return notAllowed("plain http is allowed only to loopback addresses, not %s", addr)
			}
			return opts.Policy.CheckAddr(addr)
		}),
	}
}

// client returns an HTTP client whose every connection goes to an address
// check allows. It uses no proxy (the check would see the proxy's address)
// and follows no redirect (a receiver could point anywhere).
func client(opts SenderOptions, check func(netip.Addr) error) *http.Client {
	dialer := &net.Dialer{
		Timeout:   opts.Timeout,
		KeepAlive: 30 * time.Second,
		// Control runs after DNS resolution, for each address tried.
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return notAllowed("cannot read the address %q", address)
			}
			return check(ap.Addr())
		},
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           dialer.DialContext,
			TLSClientConfig:       opts.TLS,
			ForceAttemptHTTP2:     true,
			TLSHandshakeTimeout:   opts.Timeout,
			ResponseHeaderTimeout: opts.Timeout,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// CheckURL says whether rawURL may receive deliveries, as far as can be
// known before resolving it (Policy.CheckURL); Send checks it again, and
// every address it resolves to.
func (s *Sender) CheckURL(rawURL string) error {
	_, err := s.opts.Policy.CheckURL(rawURL)
	return err
}

// Send POSTs body to rawURL, signed with secret at now, and returns nil when
// the receiver answered 2xx, or an *Error.
func (s *Sender) Send(ctx context.Context, rawURL string, secret, body []byte, now time.Time) error {
	u, err := s.opts.Policy.CheckURL(rawURL)
	if err != nil {
		return err
	}
	c := s.secure
	if u.Scheme == "http" {
		c = s.plain
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return notAllowed("cannot make a request to the URL: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set(SignatureHeader, Sign(secret, now, body))
	resp, err := c.Do(req)
	if err != nil {
		var refused *Error
		if errors.As(err, &refused) {
			return refused
		}
		return &Error{Reason: ReasonTransport, Message: "sending", Err: err}
	}
	defer func() { _ = resp.Body.Close() }()
	// The answer is read (up to the cap) so that the connection can be
	// reused; a 2xx is an acceptance even when its body is cut short.
	head := readCapped(resp.Body, s.opts.MaxResponseBytes)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &Error{Reason: ReasonStatus, StatusCode: resp.StatusCode,
			Message: fmt.Sprintf("the receiver answered %d %s", resp.StatusCode, snippet(head))}
	}
	return nil
}

// readCapped reads at most limit bytes of r and returns the first few
// hundred, for an error message.
func readCapped(r io.Reader, limit int64) []byte {
	var head bytes.Buffer
	_, _ = io.Copy(&capped{buf: &head, max: 256}, io.LimitReader(r, limit))
	return head.Bytes()
}

// capped keeps the first max bytes written to it.
type capped struct {
	buf *bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// snippet is a printable, one-line excerpt of an answer's body.
func snippet(body []byte) string {
	s := strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return ' '
	}, strings.ToValidUTF8(string(body), ""))
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(no body)"
	}
	return fmt.Sprintf("%q", s)
}
