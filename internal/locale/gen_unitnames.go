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

// gen_unitnames writes unitnames.json, the names of the units of measure
// a line may count in, for each language with a catalog, from CLDR's
// units (the npm package cldr-units-full, Unicode License V3): for each
// code of UN/ECE Recommendation 20 that CLDR has a unit for, the long
// unit patterns of each plural form ("{0} hour", "{0} hours"), in the
// nominative. Run it from this directory with the path of the unpacked
// package:
//
//	npm pack cldr-units-full@48.2.0 && tar xzf cldr-units-full-48.2.0.tgz
//	go run gen_unitnames.go -src package
package main

import (
	"encoding/json"
	"flag"
	"log"
	"os"
	"path/filepath"
	"strings"
)

// languages are those of catalogs/.
var languages = []string{"de", "en", "es", "fr", "it", "nl", "pl", "pt"}

// units are the codes of UN/ECE Recommendation 20 that have a CLDR unit,
// with that unit's id.
var units = map[string]string{
	"HUR": "duration-hour", "DAY": "duration-day", "WEE": "duration-week", "MON": "duration-month",
	"ANN": "duration-year", "MIN": "duration-minute", "SEC": "duration-second",
	"KGM": "mass-kilogram", "GRM": "mass-gram", "TNE": "mass-tonne", "MGM": "mass-milligram",
	"LBR": "mass-pound", "ONZ": "mass-ounce",
	"MTR": "length-meter", "KMT": "length-kilometer", "CMT": "length-centimeter", "MMT": "length-millimeter",
	"INH": "length-inch", "FOT": "length-foot", "YRD": "length-yard", "SMI": "length-mile",
	"LTR": "volume-liter", "MLT": "volume-milliliter", "CLT": "volume-centiliter", "MTQ": "volume-cubic-meter",
	"GLL": "volume-gallon",
	"MTK": "area-square-meter", "KMK": "area-square-kilometer", "HAR": "area-hectare", "FTK": "area-square-foot",
	"KWH": "energy-kilowatt-hour", "WTT": "power-watt", "KWT": "power-kilowatt", "MAW": "power-megawatt",
	"AD": "digital-byte", "2P": "digital-kilobyte", "4L": "digital-megabyte", "E34": "digital-gigabyte",
	"E35": "digital-terabyte",
}

// unitsFile is the part of CLDR's main/<language>/units.json read here.
type unitsFile struct {
	Main map[string]struct {
		Units struct {
			Long map[string]map[string]string `json:"long"`
		} `json:"units"`
	} `json:"main"`
}

// main reads -src and writes -out.
func main() {
	src := flag.String("src", "", "the directory of the unpacked cldr-units-full package")
	out := flag.String("out", "unitnames.json", "the file to write")
	flag.Parse()
	names := map[string]map[string]map[string]string{}
	for _, lang := range languages {
		data, err := os.ReadFile(filepath.Join(*src, "main", lang, "units.json"))
		if err != nil {
			log.Fatal(err)
		}
		var f unitsFile
		if err := json.Unmarshal(data, &f); err != nil {
			log.Fatalf("%s: %v", lang, err)
		}
		long := f.Main[lang].Units.Long
		names[lang] = map[string]map[string]string{}
		for code, id := range units {
			forms := map[string]string{}
			for key, pattern := range long[id] {
				if form, ok := strings.CutPrefix(key, "unitPattern-count-"); ok {
					forms[form] = pattern
				}
			}
			if forms["other"] == "" {
				log.Fatalf("%s: CLDR has no unit %s", lang, id)
			}
			names[lang][code] = forms
		}
	}
	data, err := json.MarshalIndent(names, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}
