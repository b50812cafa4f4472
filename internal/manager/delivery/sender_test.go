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

package delivery_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

var (
	secret = []byte("whsec-sender-test")
	body   = []byte(`{"id":"evt-demo-1","type":"invoice.issued"}`)
	dev    = delivery.Policy{AllowInsecureLoopback: true}
)

// send makes one attempt with a Sender of opts against url.
func send(t *testing.T, opts delivery.SenderOptions, url string) error {
	t.Helper()
	return delivery.NewSender(opts).Send(context.Background(), url, secret, body, time.Now())
}

func reasonOf(err error) delivery.Reason {
	var e *delivery.Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

func TestSenderPostsASignedEventThatTheReceiverVerifies(t *testing.T) {
	var verified atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ := io.ReadAll(r.Body)
		if r.Method == http.MethodPost && r.Header.Get("Content-Type") == "application/json" &&
			string(got) == string(body) && verify(r.Header.Get(delivery.SignatureHeader), got, secret, time.Now()) == nil {
			verified.Store(true)
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()

	if err := send(t, delivery.SenderOptions{Policy: dev}, srv.URL+"/hook"); err != nil {
		t.Fatalf("Send() = %v, want nil", err)
	}
	if !verified.Load() {
		t.Fatal("the receiver did not get a POST of the body with a valid signature")
	}
}

func TestSenderReportsAnAnswerOtherThan2xxWithItsBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "database down\n\x00 try later", http.StatusServiceUnavailable)
	}))
	defer srv.Close()

	err := send(t, delivery.SenderOptions{Policy: dev}, srv.URL)
	var e *delivery.Error
	if !errors.As(err, &e) || e.Reason != delivery.ReasonStatus || e.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("Send() = %#v, want a Status error with 503", err)
	}
	if !strings.Contains(e.Error(), `"database down try later"`) {
		t.Fatalf("the error %q does not quote the answer on one printable line", e.Error())
	}
}

func TestSenderFollowsNoRedirect(t *testing.T) {
	var elsewhere atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer target.Close()
	srv := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusTemporaryRedirect))
	defer srv.Close()

	err := send(t, delivery.SenderOptions{Policy: dev}, srv.URL)
	if reasonOf(err) != delivery.ReasonStatus {
		t.Fatalf("Send() = %v, want a Status error for the redirect", err)
	}
	if elsewhere.Load() != 0 {
		t.Fatal("the redirect was followed")
	}
}

func TestSenderRefusesANameThatResolvesToARefusedAddress(t *testing.T) {
	var reached atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Add(1) }))
	defer srv.Close()
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	tlsConfig := &tls.Config{RootCAs: roots, ServerName: "example.com"}

	// localhost passes the URL check (it is a name) and resolves to
	// loopback, which only the development flag allows.
	err := send(t, delivery.SenderOptions{TLS: tlsConfig}, url)
	if !delivery.IsNotAllowed(err) {
		t.Fatalf("Send() = %v, want NotAllowed after resolving localhost", err)
	}
	if reached.Load() != 0 {
		t.Fatal("the refused address was reached")
	}
	if err := send(t, delivery.SenderOptions{Policy: dev, TLS: tlsConfig}, url); err != nil {
		t.Fatalf("with the development flag, Send() = %v, want nil", err)
	}
}

func TestSenderGivesUpOnASlowReceiverAtTheTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)

	start := time.Now()
	err := send(t, delivery.SenderOptions{Policy: dev, Timeout: 200 * time.Millisecond}, srv.URL)
	if reasonOf(err) != delivery.ReasonTransport {
		t.Fatalf("Send() = %v, want a Transport error", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Fatalf("Send() waited %v for a 200ms timeout", waited)
	}
}

func TestSenderAcceptsA2xxWithAnEndlessBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 4096))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()

	if err := send(t, delivery.SenderOptions{Policy: dev, MaxResponseBytes: 1 << 16}, srv.URL); err != nil {
		t.Fatalf("Send() = %v, want nil after reading up to the cap", err)
	}
}
