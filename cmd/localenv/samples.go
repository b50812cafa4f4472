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
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
)

// sampleSMTPAddr is where the demo workspace's billing profile
// (config/samples/billing_v1_billingprofile.yaml, spec.email.smtp) sends.
const sampleSMTPAddr = "127.0.0.1:1025"

// samplesOverlay is the kustomization localenv writes when the mail
// catcher listens elsewhere: the samples, with the demo billing profile's
// SMTP server replaced by the catcher's host and port.
const samplesOverlay = `# Written by make run (cmd/localenv) at every start: the samples of
# %[1]s, with the demo billing profile sending its mail to the mail
# catcher on %[2]s (MAIL_SMTP_ADDR). Apply it instead of %[1]s.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- %[3]s
patches:
- target:
    group: billing.invoicing.dev
    kind: BillingProfile
    name: default
  patch: |-
    - op: replace
      path: /spec/email/smtp/host
      value: %[4]s
    - op: replace
      path: /spec/email/smtp/port
      value: %[5]d
`

// demoSamples returns the kustomization to apply for the demo workspace,
// whose billing profile sends to the mail catcher m: samples itself when
// the catcher listens where the samples' profile sends (or there is no
// catcher), else an overlay of samples written to stateDir/samples that
// sends to m.smtpAddr.
func demoSamples(stateDir, samples string, m mailCatcher) (string, error) {
	if !m.enabled() || m.smtpAddr == sampleSMTPAddr {
		return samples, nil
	}
	host, portText, err := net.SplitHostPort(m.smtpAddr)
	if err != nil {
		return "", fmt.Errorf("--mail-smtp-addr %q: %w", m.smtpAddr, err)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil || port == 0 {
		return "", fmt.Errorf("--mail-smtp-addr %q: the port is not 1 to 65535", m.smtpAddr)
	}
	dir := filepath.Join(stateDir, "samples")
	// kustomize takes a base outside the kustomization's directory by a
	// relative path.
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	absSamples, err := filepath.Abs(samples)
	if err != nil {
		return "", err
	}
	base, err := filepath.Rel(absDir, absSamples)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	overlay := fmt.Sprintf(samplesOverlay, samples, m.smtpAddr, filepath.ToSlash(base), strconv.Quote(host), port)
	return dir, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(overlay), 0o600)
}
