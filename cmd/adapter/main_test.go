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
	"flag"
	"io"
	"slices"
	"testing"

	"github.com/invoicing-dev/invoicing/internal/adapter/httpapi"
)

func TestParsingTheAdapterFlags(t *testing.T) {
	parse := func(args ...string) (options, error) {
		fs := flag.NewFlagSet("adapter", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		return parseFlags(fs, args)
	}

	t.Run("without flags the API's options are its defaults", func(t *testing.T) {
		o, err := parse()
		if err != nil {
			t.Fatal(err)
		}
		d := httpapi.DefaultOptions()
		if o.api.RequestTimeout != d.RequestTimeout || o.api.RateLimit != d.RateLimit || o.api.NoReadOthersWrites ||
			o.listenAddr != ":8080" || o.metricsAddr != "0" || !o.secureMetrics {
			t.Errorf("parsed %+v, want the defaults", o)
		}
	})
	t.Run("token audiences are split on commas, blanks dropped", func(t *testing.T) {
		o, err := parse("--token-audiences= billing.invoicing.dev,,other ")
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"billing.invoicing.dev", "other"}; !slices.Equal(o.api.TokenAudiences, want) {
			t.Errorf("audiences %q, want %q", o.api.TokenAudiences, want)
		}
	})
	t.Run("read-others-writes=false turns the read barrier off", func(t *testing.T) {
		o, err := parse("--read-others-writes=false")
		if err != nil {
			t.Fatal(err)
		}
		if !o.api.NoReadOthersWrites {
			t.Error("the read barrier is still on")
		}
	})
	t.Run("a value that is not a boolean is an error", func(t *testing.T) {
		if _, err := parse("--read-others-writes=maybe"); err == nil {
			t.Error("parsed without an error")
		}
	})
}
