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

package httpapi

import (
	"context"
	"io"
	"net"
	"sync"
)

// tcpProxy forwards connections to an upstream address until told to hang:
// then it drops the connections it forwards and accepts new ones without
// ever answering, like an API server that stopped responding.
type tcpProxy struct {
	ln       net.Listener
	upstream string
	mu       sync.Mutex
	hanging  bool
	conns    []net.Conn
}

func newTCPProxy(upstream string) (*tcpProxy, error) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &tcpProxy{ln: ln, upstream: upstream}
	go p.serve()
	return p, nil
}

func (p *tcpProxy) addr() string { return p.ln.Addr().String() }

func (p *tcpProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.conns = append(p.conns, c)
		hanging := p.hanging
		p.mu.Unlock()
		if hanging {
			continue // hold the connection open, never answer
		}
		go p.forward(c)
	}
}

func (p *tcpProxy) forward(c net.Conn) {
	up, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", p.upstream)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, up)
	p.mu.Unlock()
	go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
	_, _ = io.Copy(c, up)
	_ = c.Close()
}

// hang drops every forwarded connection; from now on connections are
// accepted and never answered.
func (p *tcpProxy) hang() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hanging = true
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

func (p *tcpProxy) close() {
	_ = p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
}
