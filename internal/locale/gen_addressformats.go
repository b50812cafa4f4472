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

//go:build ignore

// gen_addressformats writes addressformats.json, the address formats of
// every country, from Google's libaddressinput (Apache-2.0): the file
// common/src/main/java/com/google/i18n/addressinput/common/RegionDataConstants.java
// of github.com/google/libaddressinput, whose entries are
//
//	map.put("DE", "{\"name\":\"GERMANY\",\"fmt\":\"%N%n%O%n%A%n%Z %C\",...}");
//
// It keeps each country's fmt, lfmt (the format for an address written in
// Latin script) and upper (the fields printed in capitals). Run it from
// this directory with the path of a copy of that file:
//
//	go run gen_addressformats.go -src /path/to/RegionDataConstants.java
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"log"
	"os"
	"regexp"
	"strconv"
)

// entry is what addressformats.json keeps of a country.
type entry struct {
	Fmt   string `json:"fmt,omitempty"`
	Lfmt  string `json:"lfmt,omitempty"`
	Upper string `json:"upper,omitempty"`
}

var put = regexp.MustCompile(`^\s*map\.put\("([A-Z]{2})", (".*")\);\s*$`)

// main reads -src and writes -out.
func main() {
	src := flag.String("src", "", "the path of RegionDataConstants.java")
	out := flag.String("out", "addressformats.json", "the file to write")
	flag.Parse()
	f, err := os.Open(*src)
	if err != nil {
		log.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	formats := map[string]entry{}
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		m := put.FindStringSubmatch(s.Text())
		if m == nil {
			continue
		}
		// The Java string literal is a Go one too: quotes and unicode
		// escapes.
		text, err := strconv.Unquote(m[2])
		if err != nil {
			log.Fatalf("%s: %v", m[1], err)
		}
		var e entry
		if err := json.Unmarshal([]byte(text), &e); err != nil {
			log.Fatalf("%s: %v", m[1], err)
		}
		formats[m[1]] = e
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	if _, ok := formats["ZZ"]; !ok || len(formats) < 200 {
		log.Fatalf("read %d countries and no default ZZ: not the expected file", len(formats))
	}
	data, err := json.MarshalIndent(formats, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}
