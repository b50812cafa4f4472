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

package locale

import (
	"strings"

	"github.com/go-playground/locales"
	lbg "github.com/go-playground/locales/bg"
	lca "github.com/go-playground/locales/ca"
	lcs "github.com/go-playground/locales/cs"
	lda "github.com/go-playground/locales/da"
	lde "github.com/go-playground/locales/de"
	ldeAT "github.com/go-playground/locales/de_AT"
	ldeBE "github.com/go-playground/locales/de_BE"
	ldeCH "github.com/go-playground/locales/de_CH"
	ldeLI "github.com/go-playground/locales/de_LI"
	ldeLU "github.com/go-playground/locales/de_LU"
	lel "github.com/go-playground/locales/el"
	len "github.com/go-playground/locales/en"
	len001 "github.com/go-playground/locales/en_001"
	len150 "github.com/go-playground/locales/en_150"
	lenAU "github.com/go-playground/locales/en_AU"
	lenCA "github.com/go-playground/locales/en_CA"
	lenGB "github.com/go-playground/locales/en_GB"
	lenIE "github.com/go-playground/locales/en_IE"
	lenIN "github.com/go-playground/locales/en_IN"
	lenNZ "github.com/go-playground/locales/en_NZ"
	lenSG "github.com/go-playground/locales/en_SG"
	lenZA "github.com/go-playground/locales/en_ZA"
	les "github.com/go-playground/locales/es"
	les419 "github.com/go-playground/locales/es_419"
	lesAR "github.com/go-playground/locales/es_AR"
	lesCL "github.com/go-playground/locales/es_CL"
	lesCO "github.com/go-playground/locales/es_CO"
	lesMX "github.com/go-playground/locales/es_MX"
	lesUS "github.com/go-playground/locales/es_US"
	let "github.com/go-playground/locales/et"
	lfi "github.com/go-playground/locales/fi"
	lfr "github.com/go-playground/locales/fr"
	lfrBE "github.com/go-playground/locales/fr_BE"
	lfrCA "github.com/go-playground/locales/fr_CA"
	lfrCH "github.com/go-playground/locales/fr_CH"
	lfrLU "github.com/go-playground/locales/fr_LU"
	lga "github.com/go-playground/locales/ga"
	lhr "github.com/go-playground/locales/hr"
	lhu "github.com/go-playground/locales/hu"
	lis "github.com/go-playground/locales/is"
	lit "github.com/go-playground/locales/it"
	litCH "github.com/go-playground/locales/it_CH"
	lja "github.com/go-playground/locales/ja"
	lko "github.com/go-playground/locales/ko"
	llt "github.com/go-playground/locales/lt"
	llv "github.com/go-playground/locales/lv"
	lmt "github.com/go-playground/locales/mt"
	lnb "github.com/go-playground/locales/nb"
	lnl "github.com/go-playground/locales/nl"
	lnlBE "github.com/go-playground/locales/nl_BE"
	lnn "github.com/go-playground/locales/nn"
	lpl "github.com/go-playground/locales/pl"
	lpt "github.com/go-playground/locales/pt"
	lptPT "github.com/go-playground/locales/pt_PT"
	lro "github.com/go-playground/locales/ro"
	lru "github.com/go-playground/locales/ru"
	lsk "github.com/go-playground/locales/sk"
	lsl "github.com/go-playground/locales/sl"
	lsr "github.com/go-playground/locales/sr"
	lsrLatn "github.com/go-playground/locales/sr_Latn"
	lsv "github.com/go-playground/locales/sv"
	lsvFI "github.com/go-playground/locales/sv_FI"
	ltr "github.com/go-playground/locales/tr"
	luk "github.com/go-playground/locales/uk"
	lzh "github.com/go-playground/locales/zh"
	lzhHant "github.com/go-playground/locales/zh_Hant"
	"golang.org/x/text/language"
)

// This file chooses the CLDR date and number formats of a tag: those of
// github.com/go-playground/locales (generated from CLDR), of the tag
// itself when its package is compiled in, else of its nearest parent that
// is (de-LI is de-LI, de-IT is de, en-AU is en-AU, en-MT is en-001).
// Only the packages below are compiled in, to keep the binaries small:
// every language Parse accepts, and the regions whose formats differ
// from their language's in the countries we invoice most.

// translators are the compiled-in formats, by CLDR locale id.
var translators = map[string]func() locales.Translator{
	"bg":      lbg.New,
	"ca":      lca.New,
	"cs":      lcs.New,
	"da":      lda.New,
	"de":      lde.New,
	"el":      lel.New,
	"en":      len.New,
	"es":      les.New,
	"et":      let.New,
	"fi":      lfi.New,
	"fr":      lfr.New,
	"ga":      lga.New,
	"hr":      lhr.New,
	"hu":      lhu.New,
	"is":      lis.New,
	"it":      lit.New,
	"ja":      lja.New,
	"ko":      lko.New,
	"lt":      llt.New,
	"lv":      llv.New,
	"mt":      lmt.New,
	"nb":      lnb.New,
	"nl":      lnl.New,
	"nn":      lnn.New,
	"pl":      lpl.New,
	"pt":      lpt.New,
	"ro":      lro.New,
	"ru":      lru.New,
	"sk":      lsk.New,
	"sl":      lsl.New,
	"sr":      lsr.New,
	"sr_Latn": lsrLatn.New,
	"sv":      lsv.New,
	"tr":      ltr.New,
	"uk":      luk.New,
	"zh":      lzh.New,
	"zh_Hant": lzhHant.New,
	"en_001":  len001.New,
	"en_150":  len150.New,
	"en_AU":   lenAU.New,
	"en_CA":   lenCA.New,
	"en_GB":   lenGB.New,
	"en_IE":   lenIE.New,
	"en_IN":   lenIN.New,
	"en_NZ":   lenNZ.New,
	"en_SG":   lenSG.New,
	"en_ZA":   lenZA.New,
	"de_AT":   ldeAT.New,
	"de_BE":   ldeBE.New,
	"de_CH":   ldeCH.New,
	"de_LI":   ldeLI.New,
	"de_LU":   ldeLU.New,
	"fr_BE":   lfrBE.New,
	"fr_CA":   lfrCA.New,
	"fr_CH":   lfrCH.New,
	"fr_LU":   lfrLU.New,
	"es_419":  les419.New,
	"es_AR":   lesAR.New,
	"es_CL":   lesCL.New,
	"es_CO":   lesCO.New,
	"es_MX":   lesMX.New,
	"es_US":   lesUS.New,
	"it_CH":   litCH.New,
	"nl_BE":   lnlBE.New,
	"pt_PT":   lptPT.New,
	"sv_FI":   lsvFI.New,
}

// supported are the languages Parse accepts: those of translators.
var supported = func() map[string]bool {
	m := map[string]bool{}
	for id := range translators {
		base, _, _ := strings.Cut(id, "_")
		m[base] = true
	}
	return m
}()

// translatorFor is the formats of t: those of the first of t's CLDR ids
// and parents that is compiled in, else English's.
func translatorFor(t language.Tag) locales.Translator {
	for _, id := range candidates(t) {
		if f, ok := translators[id]; ok {
			return f()
		}
	}
	return translators["en"]()
}

// candidates are the CLDR ids to try for t, most specific first: its
// language, script and region, its language and region, its language and
// script, then its parents in CLDR (language.Tag.Parent), then its
// language alone.
func candidates(t language.Tag) []string {
	base, script, region := t.Raw()
	b, s, r := base.String(), script.String(), region.String()
	var out []string
	if script != (language.Script{}) && region != (language.Region{}) {
		out = append(out, b+"_"+s+"_"+r)
	}
	if region != (language.Region{}) {
		out = append(out, b+"_"+r)
	}
	if script != (language.Script{}) {
		out = append(out, b+"_"+s)
	}
	for p := t; !p.IsRoot(); p = p.Parent() {
		out = append(out, strings.ReplaceAll(p.String(), "-", "_"))
	}
	return append(out, b)
}
