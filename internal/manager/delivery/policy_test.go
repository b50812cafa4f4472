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
	"net/netip"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
)

func TestPolicyRefusesURLsBeforeResolvingThem(t *testing.T) {
	strict := delivery.Policy{}
	dev := delivery.Policy{AllowInsecureLoopback: true}
	cases := []struct {
		name   string
		policy delivery.Policy
		url    string
		ok     bool
	}{
		{"an https URL with a name is allowed", strict, "https://hooks.example.com/invoices", true},
		{"an https URL to a private address is allowed", strict, "https://10.1.2.3:8443/hook", true},
		{"plain http is refused", strict, "http://hooks.example.com/", false},
		{"plain http to loopback is refused without the flag", strict, "http://127.0.0.1:9000/", false},
		{"plain http to loopback is allowed with the flag", dev, "http://127.0.0.1:9000/", true},
		{"plain http to localhost is allowed with the flag", dev, "http://localhost:9000/", true},
		{"plain http to IPv6 loopback is allowed with the flag", dev, "http://[::1]:9000/", true},
		{"plain http elsewhere is refused even with the flag", dev, "http://hooks.example.com/", false},
		{"the metadata address is refused", strict, "https://169.254.169.254/latest/meta-data/", false},
		{"the metadata address is refused with the flag too", dev, "http://169.254.169.254/", false},
		{"AWS's IPv6 metadata address is refused", strict, "https://[fd00:ec2::254]/", false},
		{"Alibaba's metadata address is refused", strict, "https://100.100.100.200/", false},
		{"an IPv4-mapped metadata address is refused", strict, "https://[::ffff:169.254.169.254]/", false},
		{"https to loopback is refused without the flag", strict, "https://127.0.0.1/", false},
		{"credentials in the URL are refused", strict, "https://user:pass@hooks.example.com/", false},
		{"another scheme is refused", strict, "ftp://hooks.example.com/", false},
		{"a URL without host is refused", strict, "https:///path", false},
		{"the unspecified address is refused", strict, "https://0.0.0.0/", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.policy.CheckURL(tc.url)
			if (err == nil) != tc.ok {
				t.Fatalf("CheckURL(%q) = %v, want allowed %v", tc.url, err, tc.ok)
			}
			if err != nil && !delivery.IsNotAllowed(err) {
				t.Fatalf("CheckURL(%q) = %v, not a NotAllowed error", tc.url, err)
			}
		})
	}
}

func TestPolicyRefusesResolvedAddresses(t *testing.T) {
	cases := []struct {
		addr string
		ok   bool
	}{
		{"203.0.113.7", true},
		{"192.168.1.10", true},
		{"2001:db8::1", true},
		{"169.254.169.254", false},
		{"169.254.10.1", false},
		{"fe80::1", false},
		{"168.63.129.16", false},
		{"127.0.0.1", false},
		{"::1", false},
		{"224.0.0.1", false},
		{"255.255.255.255", false},
	}
	for _, tc := range cases {
		t.Run(tc.addr, func(t *testing.T) {
			err := delivery.Policy{}.CheckAddr(netip.MustParseAddr(tc.addr))
			if (err == nil) != tc.ok {
				t.Fatalf("CheckAddr(%s) = %v, want allowed %v", tc.addr, err, tc.ok)
			}
		})
	}
}
