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

// Command webhookreceiver is the webhook receiver of the walk-through
// (docs/walkthrough.md#following-issued-invoices): an HTTP server, on
// loopback by default, that takes the deliveries of a WebhookEndpoint,
// checks each one's Invoicing-Signature with the endpoint's signing secret
// and prints one line for it:
//
//	go build -o .local/webhookreceiver ./cmd/webhookreceiver
//	.local/webhookreceiver -secret-file .local/webhook-secret
//	evt-demo-1 invoice.issued acme-2026-002 DEMO-000001 signature ok
//
// It answers 204 to a delivery whose signature holds and 401 to one whose
// signature does not (or is more than 5 minutes old), which the manager
// retries. It stores nothing: a real receiver stores the invoice before it
// answers 2xx (docs/webhooks.md).
package main

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

// maxBody bounds a delivery's body; an event with an invoice of 500 lines
// is far below it.
const maxBody = 4 << 20

// maxSkew is how far a signature's timestamp may be from the receiver's
// clock: older ones are replays.
const maxSkew = 5 * time.Minute

func main() {
	addr := flag.String("addr", "127.0.0.1:9090", "Address to listen on.")
	secretFile := flag.String("secret-file", "",
		"File holding the signing secret, byte for byte the value of the Secret the WebhookEndpoint names.")
	flag.Parse()
	secret, err := os.ReadFile(*secretFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "webhookreceiver: reading the signing secret (-secret-file): %v\n", err)
		os.Exit(2)
	}
	listener, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "webhookreceiver: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "webhookreceiver: listening on http://%s/hooks\n", listener.Addr())
	server := &http.Server{Handler: newReceiver(secret, os.Stdout, time.Now), ReadHeaderTimeout: 10 * time.Second}
	if err := server.Serve(listener); err != nil {
		fmt.Fprintf(os.Stderr, "webhookreceiver: %v\n", err)
		os.Exit(1)
	}
}

// receiver prints each delivery to out, one line each, in the order they
// arrive.
type receiver struct {
	secret []byte
	now    func() time.Time
	mu     sync.Mutex
	out    io.Writer
}

// newReceiver is the handler of deliveries signed with secret.
func newReceiver(secret []byte, out io.Writer, now func() time.Time) http.Handler {
	return &receiver{secret: secret, out: out, now: now}
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "deliveries are POSTed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxBody))
	if err != nil {
		http.Error(w, "unreadable body", http.StatusBadRequest)
		return
	}
	verdict, status := "signature ok", http.StatusNoContent
	if err := r.verify(req.Header.Get(delivery.SignatureHeader), body); err != nil {
		verdict, status = "rejected: "+err.Error(), http.StatusUnauthorized
	}
	r.mu.Lock()
	_, _ = fmt.Fprintln(r.out, describe(body), verdict)
	r.mu.Unlock()
	w.WriteHeader(status)
}

// verify checks header, "t=<unix seconds>,v1=<hex HMAC>", by signing body
// again for its timestamp, as the manager signed it.
func (r *receiver) verify(header string, body []byte) error {
	ts, _, _ := strings.Cut(strings.TrimPrefix(header, "t="), ",")
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("no timestamp")
	}
	at := time.Unix(unix, 0)
	if r.now().Sub(at).Abs() > maxSkew {
		return errors.New("stale timestamp")
	}
	if !hmac.Equal([]byte(header), []byte(delivery.Sign(r.secret, at, body))) {
		return errors.New("bad signature")
	}
	return nil
}

// describe is what the receiver prints of an event: its id, its type, and
// its object's id and number when it has them.
func describe(body []byte) string {
	var event struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		Data struct {
			Object struct {
				ID     string `json:"id"`
				Number string `json:"number"`
			} `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &event); err != nil {
		return "(not an event)"
	}
	fields := []string{event.ID, event.Type}
	for _, f := range []string{event.Data.Object.ID, event.Data.Object.Number} {
		if f != "" {
			fields = append(fields, f)
		}
	}
	return strings.Join(fields, " ")
}
