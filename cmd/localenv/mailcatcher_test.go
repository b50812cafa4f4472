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
	"strings"
	"testing"
)

func TestTheMailCatcherListensOnLoopbackOnly(t *testing.T) {
	for _, tc := range []struct {
		smtp, web string
		ok        bool
	}{
		{"127.0.0.1:1025", "127.0.0.1:8025", true},
		{"[::1]:1025", "localhost:8025", true},
		{"0.0.0.0:1025", "127.0.0.1:8025", false},
		{"127.0.0.1:1025", ":8025", false},
		{"192.0.2.10:1025", "127.0.0.1:8025", false},
		{"127.0.0.1", "127.0.0.1:8025", false},
	} {
		err := mailCatcher{binary: "mailpit", smtpAddr: tc.smtp, webAddr: tc.web}.check()
		if (err == nil) != tc.ok {
			t.Errorf("smtp %s, web %s: %v, want ok=%v", tc.smtp, tc.web, err, tc.ok)
		}
	}
	if err := (mailCatcher{smtpAddr: "0.0.0.0:25"}).check(); err != nil {
		t.Errorf("without --mailpit nothing is checked: %v", err)
	}
}

func TestTheBannerTellsWhereTheDemoProfileSends(t *testing.T) {
	if b := (mailCatcher{}).banner("config/samples"); b != "" {
		t.Errorf("banner without a mail catcher: %q", b)
	}
	m := mailCatcher{binary: "mailpit", smtpAddr: "127.0.0.1:2525", webAddr: "127.0.0.1:8125"}
	b := strings.Join(strings.Fields(m.banner(".local2/samples")), " ")
	for _, want := range []string{"http://127.0.0.1:8125/", "SMTP on 127.0.0.1:2525",
		"the demo billing profile (kubectl apply -k .local2/samples) sends there"} {
		if !strings.Contains(b, want) {
			t.Errorf("banner %q lacks %q", b, want)
		}
	}
}
