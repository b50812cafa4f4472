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

package mail

import (
	"bytes"
	netmail "net/mail"
	"testing"
	"time"
)

func TestTheFromHeaderCarriesTheIssuersNameAsDisplayName(t *testing.T) {
	for _, tc := range []struct {
		name, fromName, header, parsedName string
	}{
		{"without a name the header is the address alone", "", "billing@example.com", ""},
		{"a plain name is written before the address", "Example Invoicing", `"Example Invoicing" <billing@example.com>`,
			"Example Invoicing"},
		{"a name with a comma and quotes is quoted and escaped", `Smith, "Jones" & Co`,
			`"Smith, \"Jones\" & Co" <billing@example.com>`, `Smith, "Jones" & Co`},
		{"a name with umlauts is encoded", `Müller, "Bau" & Co`,
			"=?utf-8?b?TcO8bGxlciwgIkJhdSIgJiBDbw==?= <billing@example.com>", `Müller, "Bau" & Co`},
		{"a name in another script is encoded", "ООО Ромашка",
			"=?utf-8?q?=D0=9E=D0=9E=D0=9E_=D0=A0=D0=BE=D0=BC=D0=B0=D1=88=D0=BA=D0=B0?= <billing@example.com>",
			"ООО Ромашка"},
		{"a line break in the name cannot add a header", "Evil\r\nBcc: x@example.com",
			"=?utf-8?b?RXZpbA0KQmNjOiB4QGV4YW1wbGUuY29t?= <billing@example.com>", "Evil\r\nBcc: x@example.com"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &Message{From: "billing@example.com", FromName: tc.fromName, To: []string{"ada@example.com"},
				Date: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), MessageID: "<1@example.com>"}
			data, err := m.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			msg, err := netmail.ReadMessage(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if got := msg.Header.Get("From"); got != tc.header {
				t.Errorf("From: %q, want %q", got, tc.header)
			}
			addr, err := msg.Header.AddressList("From")
			if err != nil || len(addr) != 1 {
				t.Fatalf("the From header does not parse: %v", err)
			}
			if addr[0].Name != tc.parsedName || addr[0].Address != "billing@example.com" {
				t.Errorf("From parses as %q <%s>", addr[0].Name, addr[0].Address)
			}
		})
	}
}
