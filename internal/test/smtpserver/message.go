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

package smtpserver

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
	"time"
)

// Message is one message as the server received it.
type Message struct {
	// From and To are the envelope (MAIL FROM, RCPT TO): To holds the Bcc
	// recipients too, which no header names.
	From string
	To   []string
	// Raw is the message as sent after DATA (dot-unstuffed); Header its
	// parsed header, nil if Raw has none that net/mail reads.
	Raw    []byte
	Header mail.Header
	// Username is who authenticated (AUTH PLAIN), empty without AUTH.
	Username string
	// TLS is whether the message came over TLS (implicit or STARTTLS).
	TLS bool
	// Accepted is whether the server answered 250: false when a fault at
	// AtData refused it, stalled or hung up.
	Accepted   bool
	ReceivedAt time.Time
}

// Part is a leaf of a message's MIME tree: a body or an attachment.
type Part struct {
	Header textproto.MIMEHeader
	// MediaType is the Content-Type without parameters, lower case
	// ("text/plain", "application/pdf"); Params its parameters (charset).
	MediaType string
	Params    map[string]string
	// Disposition is Content-Disposition without parameters ("inline",
	// "attachment"), empty when absent; Filename is its filename (else the
	// Content-Type's name), RFC 2231 and RFC 2047 encodings decoded.
	Disposition string
	Filename    string
	// Body is the content with its Content-Transfer-Encoding (base64,
	// quoted-printable) decoded; the charset is not converted.
	Body []byte
}

// Subject is the Subject header with RFC 2047 encoded words decoded.
func (m Message) Subject() (string, error) { return decodeHeader(m.Header.Get("Subject")) }

// MessageID is the Message-ID header, angle brackets included.
func (m Message) MessageID() string { return m.Header.Get("Message-Id") }

// Parts parses the message's MIME tree and returns its leaves in order,
// depth first; a message that is not multipart is one part.
func (m Message) Parts() ([]Part, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(m.Raw))
	if err != nil {
		return nil, err
	}
	return leaves(textproto.MIMEHeader(msg.Header), msg.Body)
}

// Attachments returns the parts that are attachments: those with
// Content-Disposition attachment or with a file name.
func (m Message) Attachments() ([]Part, error) {
	parts, err := m.Parts()
	if err != nil {
		return nil, err
	}
	var attachments []Part
	for _, p := range parts {
		if p.Disposition == "attachment" || p.Filename != "" {
			attachments = append(attachments, p)
		}
	}
	return attachments, nil
}

// Text returns the body of the first text/plain part that is not an
// attachment.
func (m Message) Text() (string, error) {
	parts, err := m.Parts()
	if err != nil {
		return "", err
	}
	for _, p := range parts {
		if p.MediaType == "text/plain" && p.Disposition != "attachment" && p.Filename == "" {
			return string(p.Body), nil
		}
	}
	return "", fmt.Errorf("smtpserver: the message has no text/plain body")
}

// leaves returns the leaf parts under a part with header h and body.
func leaves(h textproto.MIMEHeader, body io.Reader) ([]Part, error) {
	contentType := h.Get("Content-Type")
	if contentType == "" {
		contentType = "text/plain; charset=us-ascii" // RFC 2045's default
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, fmt.Errorf("smtpserver: Content-Type %q: %w", contentType, err)
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		var parts []Part
		r := multipart.NewReader(body, params["boundary"])
		for {
			// NextRawPart leaves quoted-printable to decode, as base64 is.
			p, err := r.NextRawPart()
			if errors.Is(err, io.EOF) {
				return parts, nil
			}
			if err != nil {
				return nil, err
			}
			children, err := leaves(p.Header, p)
			if err != nil {
				return nil, err
			}
			parts = append(parts, children...)
		}
	}
	content, err := decodeBody(h.Get("Content-Transfer-Encoding"), body)
	if err != nil {
		return nil, err
	}
	part := Part{Header: h, MediaType: mediaType, Params: params, Body: content}
	if d := h.Get("Content-Disposition"); d != "" {
		disposition, dparams, err := mime.ParseMediaType(d)
		if err != nil {
			return nil, fmt.Errorf("smtpserver: Content-Disposition %q: %w", d, err)
		}
		part.Disposition, part.Filename = disposition, dparams["filename"]
	}
	if part.Filename == "" {
		part.Filename = params["name"]
	}
	if part.Filename, err = decodeHeader(part.Filename); err != nil {
		return nil, err
	}
	return []Part{part}, nil
}

// decodeBody undoes a Content-Transfer-Encoding.
func decodeBody(encoding string, body io.Reader) ([]byte, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "base64":
		return io.ReadAll(base64.NewDecoder(base64.StdEncoding, body)) // it skips CR and LF
	case "quoted-printable":
		return io.ReadAll(quotedprintable.NewReader(body))
	case "", "7bit", "8bit", "binary":
		return io.ReadAll(body)
	default:
		return nil, fmt.Errorf("smtpserver: unknown Content-Transfer-Encoding %q", encoding)
	}
}

// decodeHeader decodes RFC 2047 encoded words.
func decodeHeader(s string) (string, error) {
	return new(mime.WordDecoder).DecodeHeader(s)
}
