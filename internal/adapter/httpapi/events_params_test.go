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

package httpapi

import (
	"net/url"
	"testing"
)

func TestEventTypesAreOneOrMoreKnownTypesSpelledOneWay(t *testing.T) {
	cases := []struct {
		name      string
		query     string
		want      int
		canonical string
		bad       bool
	}{
		{name: "no type keeps every event", query: "", want: 0},
		{name: "one type", query: "type=invoice.paid", want: 1, canonical: "invoice.paid"},
		{name: "several types are sorted and counted once", query: "type=payment.recorded,invoice.paid,payment.recorded",
			want: 2, canonical: "invoice.paid,payment.recorded"},
		{name: "the events of closed books are types too", query: "type=ledger.sealed,period.closed",
			want: 2, canonical: "ledger.sealed,period.closed"},
		{name: "the events of money on account are types too",
			query: "type=refund.recorded,invoice.marked_uncollectible,credit.applied", want: 3,
			canonical: "credit.applied,invoice.marked_uncollectible,refund.recorded"},
		{name: "a reminder is a type too", query: "type=invoice.reminder_sent,invoice.paid", want: 2,
			canonical: "invoice.paid,invoice.reminder_sent"},
		{name: "an unknown type is refused", query: "type=invoice.created", bad: true},
		{name: "an empty type is refused", query: "type=", bad: true},
		{name: "a trailing comma is refused", query: "type=invoice.paid,", bad: true},
		{name: "types are case-sensitive", query: "type=Invoice.Paid", bad: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			wanted, canonical, e := eventTypesParam(q)
			if tc.bad {
				if e == nil || e.Param != queryType {
					t.Fatalf("error = %v, want a 400 on type", e)
				}
				return
			}
			if e != nil || len(wanted) != tc.want || canonical != tc.canonical {
				t.Fatalf("= %v, %q, %v; want %d types spelled %q", wanted, canonical, e, tc.want, tc.canonical)
			}
		})
	}
}

func TestEventsStartAfterTheCursorOrAfter(t *testing.T) {
	cases := []struct {
		name        string
		query       string
		cursorAfter string
		want        int64
		param       string // of the 400, if any
	}{
		{name: "from the first event by default", want: 0},
		{name: "after a sequence", query: "after=41", want: 41},
		{name: "after the cursor's sequence", query: "cursor=x", cursorAfter: "7", want: 7},
		{name: "not both", query: "after=1&cursor=x", cursorAfter: "7", param: queryAfter},
		{name: "not a negative sequence", query: "after=-1", param: queryAfter},
		{name: "not a sequence above 2^53-1", query: "after=9007199254740992", param: queryAfter},
		{name: "not a cursor of another list", query: "cursor=x", cursorAfter: "inv-a", param: queryCursor},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			got, e := eventsStart(q, tc.cursorAfter)
			switch {
			case tc.param != "" && (e == nil || e.Param != tc.param):
				t.Fatalf("error = %v, want a 400 on %s", e, tc.param)
			case tc.param == "" && (e != nil || got != tc.want):
				t.Fatalf("= %d, %v; want %d", got, e, tc.want)
			}
		})
	}
}
