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
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// Policy says which URLs and addresses may receive deliveries. Addresses
// are checked twice: the URL's host when it is an IP literal, and every
// address a connection is about to be made to, after DNS resolution, so a
// name that resolves (or is rebound) to a refused address is refused too.
type Policy struct {
	// AllowInsecureLoopback allows plain http to loopback addresses, and any
	// URL whose host resolves to a loopback address, for local development
	// (the manager's --webhook-allow-insecure-loopback, which make run sets).
	// Without it only https is sent, and never to loopback: in a pod that is
	// the manager itself.
	AllowInsecureLoopback bool
}

// metadataAddrs are the cloud instance-metadata services outside the
// link-local range, which is refused as a whole (169.254.169.254, the
// address most clouds use, is link-local).
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("fd00:ec2::254"),   // AWS, over IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
	netip.MustParseAddr("168.63.129.16"),   // Azure wire server
}

// CheckURL parses raw and checks what can be known before resolving it: the
// scheme, the absence of credentials and, for an IP literal, the address.
func (p Policy) CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, notAllowed("%q is not a URL", raw)
	}
	if u.User != nil {
		return nil, notAllowed("the URL carries credentials; the receiver authenticates deliveries by their signature")
	}
	host := u.Hostname()
	if host == "" {
		return nil, notAllowed("the URL has no host")
	}
	addr, literal := parseHost(host)
	switch u.Scheme {
	case "https":
	case "http":
		if !p.AllowInsecureLoopback {
			return nil, notAllowed("only https URLs receive webhooks")
		}
		if host != "localhost" && (!literal || !addr.IsLoopback()) {
			return nil, notAllowed("plain http is allowed only to loopback addresses")
		}
	default:
		return nil, notAllowed("only https URLs receive webhooks, not %s", u.Scheme)
	}
	if literal {
		if err := p.CheckAddr(addr); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// CheckAddr refuses the addresses no delivery may reach: link-local (which
// holds the usual metadata address 169.254.169.254), the other cloud
// metadata services, unspecified, multicast and broadcast addresses, and
// loopback unless AllowInsecureLoopback. Private ranges are allowed: a
// receiver in the cluster or the company network is a normal setup.
func (p Policy) CheckAddr(addr netip.Addr) error {
	addr = addr.Unmap()
	switch {
	case !addr.IsValid():
		return notAllowed("no address")
	case addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast():
		return notAllowed("%s is link-local, where cloud metadata services answer", addr)
	case addr.IsUnspecified() || addr.IsMulticast() || addr == netip.MustParseAddr("255.255.255.255"):
		return notAllowed("%s is not a unicast address", addr)
	case addr.IsLoopback() && !p.AllowInsecureLoopback:
		return notAllowed("%s is a loopback address", addr)
	}
	for _, m := range metadataAddrs {
		if addr == m {
			return notAllowed("%s is a cloud metadata service", addr)
		}
	}
	return nil
}

// parseHost returns the host's address when it is an IP literal.
func parseHost(host string) (netip.Addr, bool) {
	addr, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return addr, err == nil
}

func notAllowed(format string, args ...any) *Error {
	return &Error{Reason: ReasonNotAllowed, Message: fmt.Sprintf(format, args...)}
}

// IsNotAllowed reports whether err is a refused URL or address.
func IsNotAllowed(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Reason == ReasonNotAllowed
}
