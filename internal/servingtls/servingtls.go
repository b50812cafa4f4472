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

// Package servingtls serves HTTPS with a certificate read from files that
// cert-manager (or anyone) replaces while the process runs: controller-runtime's
// certwatcher reloads them, and every new connection gets the current one.
package servingtls

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"path/filepath"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/certwatcher"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// The file names in a directory holding a certificate, as in the Secret
// that cert-manager writes (and kubebuilder's webhook and metrics servers read).
const (
	CertName = "tls.crt"
	KeyName  = "tls.key"
)

// Watcher reads the certificate and key in dir (tls.crt, tls.key), failing
// when they are missing or do not match, and rereads them when they change
// once Start runs: fsnotify, and a poll every interval besides (zero keeps
// certwatcher's 10 s). Start it (a manager's Add does) before serving.
func Watcher(dir string, interval time.Duration) (*certwatcher.CertWatcher, error) {
	w, err := certwatcher.New(filepath.Join(dir, CertName), filepath.Join(dir, KeyName))
	if err != nil {
		return nil, fmt.Errorf("reading the serving certificate in %s: %w", dir, err)
	}
	if interval > 0 {
		w = w.WithWatchInterval(interval)
	}
	return w, nil
}

// UseCertificate sets a tls.Config (a metrics server's, through its
// TLSOpts) to present w's current certificate.
func UseCertificate(w *certwatcher.CertWatcher) func(*tls.Config) {
	return func(c *tls.Config) { c.GetCertificate = w.GetCertificate }
}

// Listen listens on addr. With certDir it accepts TLS connections only,
// presenting the certificate in certDir and picking up a new one within
// interval (zero: 10 s, or at once on a file event) while ctx lasts; with an
// empty certDir it accepts plain TCP, as on a developer's loopback.
func Listen(ctx context.Context, addr, certDir string, interval time.Duration) (net.Listener, error) {
	if certDir == "" {
		return (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	}
	w, err := Watcher(certDir, interval)
	if err != nil {
		return nil, err
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	go func() {
		if err := w.Start(ctx); err != nil {
			logf.FromContext(ctx).Error(err, "Unable to watch the serving certificate", "dir", certDir)
		}
	}()
	// TLS 1.2 and later, and HTTP/1.1 only: HTTP/2 stays off because of
	// the Stream Cancellation and Rapid Reset CVEs (GHSA-qppj-fm5r-hxr3,
	// GHSA-4374-p667-p6c8), as in the metrics servers.
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}
	UseCertificate(w)(cfg)
	return tls.NewListener(ln, cfg), nil
}
