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

// Package netutil gives tests loopback addresses to listen on: the one
// free-port helper of the module's tests and test programs.
package netutil

import (
	"context"
	"net"
)

// FreeAddr returns a loopback address (127.0.0.1:port) with a port that was
// free a moment ago, for a process the test starts to listen on, or for a
// client to find nothing listening.
func FreeAddr(ctx context.Context) (string, error) {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		return "", err
	}
	return addr, nil
}

// MustFreeAddr is FreeAddr that fails t on an error; t is a testing.TB or
// Ginkgo's GinkgoT().
func MustFreeAddr(t interface {
	Helper()
	Fatalf(format string, args ...any)
}) string {
	t.Helper()
	addr, err := FreeAddr(context.Background())
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	return addr
}
