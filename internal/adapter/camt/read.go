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
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Read reads a camt.053 document of a version in Versions. It returns an
// *InvalidError when the document is not well-formed XML in UTF-8, has a
// DOCTYPE, is not a camt.053 Document of a version it reads, is not valid
// against that version's official schema, or has an amount it cannot
// take (a currency ISO 4217 does not assign, more fraction digits than
// the currency has, a batched transaction without an amount) or a date
// outside years 1 to 9999. Any other error is this package's fault.
func Read(doc []byte) (*Statement, error) {
	v, root, err := check(doc)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(doc)
	r := &reader{}
	st := &Statement{Version: v, SHA256: hex.EncodeToString(sum[:])}
	msg := root.child("BkToCstmrStmt")
	st.MessageID = msg.value("GrpHdr", "MsgId")
	for i, stmt := range msg.all("Stmt") {
		st.Accounts = append(st.Accounts, r.account(stmt, fmt.Sprintf("/Document/BkToCstmrStmt/Stmt[%d]", i+1)))
	}
	if len(r.errs) > 0 {
		return nil, &InvalidError{Reasons: r.errs}
	}
	return st, nil
}

// check parses doc and validates it against the schema of its version:
// what an XSD validator would say of it, but that it also refuses a
// DOCTYPE. It returns the version and the root element of a valid
// document, else an *InvalidError (or, when a schema does not load, this
// package's error).
func check(doc []byte) (Version, *node, error) {
	root, err := parseTree(doc)
	if err != nil {
		return "", nil, invalid("/", err.Error())
	}
	path := "/" + root.name.Local
	v, ok := versionOf(root.name.Space)
	switch {
	case root.name.Local != "Document":
		return "", nil, invalid(path, fmt.Sprintf("the root element is %s, not a camt.053 Document", root.name.Local))
	case !ok && root.name.Space == "":
		return "", nil, invalid(path, "no namespace; a camt.053 Document is in "+versionList())
	case !ok:
		return "", nil, invalid(path, fmt.Sprintf("namespace %q is not a camt.053 version read here (%s)", root.name.Space, versionList()))
	}
	s, err := schemas[v]()
	if err != nil {
		return "", nil, err
	}
	if reasons := s.validate(root); len(reasons) > 0 {
		return "", nil, &InvalidError{Reasons: reasons}
	}
	return v, root, nil
}

// versionList names the namespaces of Versions.
func versionList() string {
	names := make([]string, len(Versions))
	for i, v := range Versions {
		names[i] = v.Namespace()
	}
	return strings.Join(names, " or ")
}
