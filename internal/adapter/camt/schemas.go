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

package camt

import (
	"embed"
	"fmt"
	"sync"
)

// Version is a version of the camt.053 message this package reads.
type Version string

// The versions read: 02, the one of the 2009 message set that most
// European banks export, and 08, the one of the 2019 set (CBPR+ and the
// SEPA schemes since 2023).
const (
	V02 Version = "camt.053.001.02"
	V08 Version = "camt.053.001.08"
)

// Versions are the versions read, oldest first.
var Versions = []Version{V02, V08}

// Namespace is the XML namespace of v's documents.
func (v Version) Namespace() string { return "urn:iso:std:iso:20022:tech:xsd:" + string(v) }

// schemaFiles are the official XSDs, unmodified (schema/README.md).
//
//go:embed schema/*.xsd
var schemaFiles embed.FS

// schemas compiles each version's schema once, on first use.
var schemas = map[Version]func() (*schema, error){
	V02: sync.OnceValues(func() (*schema, error) { return compile(V02) }),
	V08: sync.OnceValues(func() (*schema, error) { return compile(V08) }),
}

// compile reads and compiles v's embedded schema.
func compile(v Version) (*schema, error) {
	data, err := schemaFiles.ReadFile("schema/" + string(v) + ".xsd")
	if err != nil {
		return nil, err
	}
	s, err := loadSchema(data)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", v, err)
	}
	if s.ns != v.Namespace() || s.root.name != "Document" {
		return nil, fmt.Errorf("schema %s: declares {%s}%s", v, s.ns, s.root.name)
	}
	return s, nil
}

// versionOf is the version whose namespace is ns.
func versionOf(ns string) (Version, bool) {
	for _, v := range Versions {
		if v.Namespace() == ns {
			return v, true
		}
	}
	return "", false
}
