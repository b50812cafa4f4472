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

package seal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/jsonscan"
)

// A scanner of the JSON objects of sealed records' lines: it finds the
// members of an object and the extent of each value without decoding what
// it skips. encoding/json, even into a struct of a few fields, checks the
// whole line and then walks it again to skip what the struct does not
// name, some 14 µs a record; a restart reads a million. The values the
// indexes read (a few strings, numbers and small objects) are decoded by
// encoding/json from their own bytes. Keys are matched exactly, as
// seal.Line (encoding/json) writes them.

var errBadJSON = errors.New("a sealed record's line is not a JSON object")

// members calls each with the key and the value's bytes of every member
// of the JSON object data holds (surrounded by white space at most), in
// order; a key with escapes is unquoted first.
func members(data []byte, each func(key, value []byte) error) error {
	i := jsonscan.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return errBadJSON
	}
	i = jsonscan.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil
	}
	for {
		end, err := valueEnd(data, i)
		if err != nil || data[i] != '"' {
			return errBadJSON
		}
		key, err := memberKey(data[i:end])
		if err != nil {
			return err
		}
		i = jsonscan.SkipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return errBadJSON
		}
		i = jsonscan.SkipSpace(data, i+1)
		if end, err = valueEnd(data, i); err != nil {
			return err
		}
		if err := each(key, data[i:end]); err != nil {
			return err
		}
		i = jsonscan.SkipSpace(data, end)
		if i >= len(data) {
			return errBadJSON
		}
		switch data[i] {
		case ',':
			i = jsonscan.SkipSpace(data, i+1)
		case '}':
			return nil
		default:
			return errBadJSON
		}
	}
}

// memberKey is a quoted key's text, unquoted when it holds an escape.
func memberKey(quoted []byte) ([]byte, error) {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return quoted[1 : len(quoted)-1], nil
	}
	var key string
	if err := json.Unmarshal(quoted, &key); err != nil {
		return nil, fmt.Errorf("a sealed record's key: %w", err)
	}
	return []byte(key), nil
}

// valueEnd returns the end of the JSON value that starts at data[i]: a
// string, an object or array (with everything nested in it), or a
// literal (a number, true, false, null).
func valueEnd(data []byte, i int) (int, error) {
	end := jsonscan.ValueEnd(data, i)
	if end < 0 {
		return 0, errBadJSON
	}
	return end, nil
}

// scanString sets *s to the JSON string value, straight from its bytes
// when it holds no escape; null leaves *s as it is, as encoding/json does.
func scanString[S ~string](value []byte, s *S) error {
	if len(value) >= 2 && value[0] == '"' && bytes.IndexByte(value, '\\') < 0 {
		*s = S(value[1 : len(value)-1])
		return nil
	}
	return json.Unmarshal(value, s)
}

// isNull says whether a value is JSON's null.
func isNull(value []byte) bool { return string(value) == "null" }

// elements calls each with the bytes of every element of the JSON array
// data holds; null holds none.
func elements(data []byte, each func(value []byte) error) error {
	i := jsonscan.SkipSpace(data, 0)
	if isNull(bytes.TrimSpace(data)) {
		return nil
	}
	if i >= len(data) || data[i] != '[' {
		return errBadJSON
	}
	i = jsonscan.SkipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return nil
	}
	for {
		end, err := valueEnd(data, i)
		if err != nil {
			return err
		}
		if err := each(data[i:end]); err != nil {
			return err
		}
		i = jsonscan.SkipSpace(data, end)
		if i >= len(data) {
			return errBadJSON
		}
		switch data[i] {
		case ',':
			i = jsonscan.SkipSpace(data, i+1)
		case ']':
			return nil
		default:
			return errBadJSON
		}
	}
}

// scanInt sets *n to the JSON number value, parsed straight from its
// bytes when it is an integer as encoding/json writes one.
func scanInt(value []byte, n *int64) error {
	if v, err := strconv.ParseInt(string(value), 10, 64); err == nil {
		*n = v
		return nil
	}
	return json.Unmarshal(value, n)
}

// scanIntPointer is scanInt into a new int64, and nil for null.
func scanIntPointer(value []byte, n **int64) error {
	if isNull(value) {
		*n = nil
		return nil
	}
	v := new(int64)
	if err := scanInt(value, v); err != nil {
		return err
	}
	*n = v
	return nil
}

// scanName reads the name of a reference ({"name": ...}).
func scanName(value []byte, name *string) error {
	if isNull(value) {
		return nil
	}
	return members(value, func(key, value []byte) error {
		if string(key) == "name" {
			return scanString(value, name)
		}
		return nil
	})
}

// scanLabels reads an object of strings into a map, nil for null.
func scanLabels(value []byte, labels *map[string]string) error {
	if isNull(value) {
		return nil
	}
	m := map[string]string{}
	err := members(value, func(key, value []byte) error {
		var v string
		if err := scanString(value, &v); err != nil {
			return err
		}
		m[string(key)] = v
		return nil
	})
	if err != nil {
		return err
	}
	*labels = m
	return nil
}

// scan reads each event's type and sequence.
func (events *indexedEvents) scan(value []byte) error {
	var out indexedEvents
	if isNull(value) {
		return nil
	}
	err := elements(value, func(value []byte) error {
		var e indexedEvent
		err := members(value, func(key, value []byte) error {
			switch string(key) {
			case "type":
				return scanString(value, &e.Type)
			case "sequence":
				return scanInt(value, &e.Sequence)
			}
			return nil
		})
		out = append(out, e)
		return err
	})
	if err != nil {
		return err
	}
	if out == nil {
		out = indexedEvents{}
	}
	*events = out
	return nil
}

// scanBalance reads what an invoice's sets read of its balance: its
// payment status and whether it is overdue; nil for null.
func scanBalance(value []byte, balance **billingv1.InvoiceBalance) error {
	if isNull(value) {
		*balance = nil
		return nil
	}
	b := &billingv1.InvoiceBalance{}
	err := members(value, func(key, value []byte) error {
		switch string(key) {
		case "paymentStatus":
			return scanString(value, &b.PaymentStatus)
		case "overdue":
			return json.Unmarshal(value, &b.Overdue)
		}
		return nil
	})
	if err != nil {
		return err
	}
	*balance = b
	return nil
}

// scan reads the metadata the indexes read from its object.
func (m *indexedMeta) scan(value []byte) error {
	return members(value, func(key, value []byte) error {
		switch string(key) {
		case "name":
			return scanString(value, &m.Name)
		case "namespace":
			return scanString(value, &m.Namespace)
		case "uid":
			return scanString(value, &m.UID)
		case "labels":
			return scanLabels(value, &m.Labels)
		}
		return nil
	})
}

// scan reads an invoice's indexed fields from its line.
func (f *invoiceFields) scan(line []byte) error {
	return members(line, func(key, value []byte) error {
		switch string(key) {
		case "metadata":
			return f.Metadata.scan(value)
		case "spec":
			return members(value, func(key, value []byte) error {
				if string(key) == "customerRef" {
					return scanName(value, &f.Spec.CustomerRef.Name)
				}
				return nil
			})
		case "status":
			return members(value, f.scanStatus)
		}
		return nil
	})
}

func (f *invoiceFields) scanStatus(key, value []byte) error {
	switch string(key) {
	case "phase":
		return scanString(value, &f.Status.Phase)
	case "total":
		return scanIntPointer(value, &f.Status.Total)
	case "sequence":
		return scanIntPointer(value, &f.Status.Sequence)
	case "balance":
		return scanBalance(value, &f.Status.Balance)
	case "events":
		return f.Status.Events.scan(value)
	}
	return nil
}

// scan reads a credit note's, payment's, credit application's, refund's,
// write-off's or e-mail's indexed fields from its line.
func (f *recordFields) scan(line []byte) error {
	return members(line, func(key, value []byte) error {
		switch string(key) {
		case "metadata":
			return f.Metadata.scan(value)
		case "spec":
			return members(value, f.scanSpec)
		case "status":
			return members(value, f.scanStatus)
		}
		return nil
	})
}

func (f *recordFields) scanSpec(key, value []byte) error {
	switch string(key) {
	case "invoiceRef":
		return scanName(value, &f.Spec.InvoiceRef.Name)
	case "customerRef":
		return scanName(value, &f.Spec.CustomerRef.Name)
	}
	return nil
}

func (f *recordFields) scanStatus(key, value []byte) error {
	switch string(key) {
	case "phase":
		return scanString(value, &f.Status.Phase)
	case "customerName":
		return scanString(value, &f.Status.CustomerName)
	case "events":
		return f.Status.Events.scan(value)
	}
	return nil
}
