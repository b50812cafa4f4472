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

package watchdecode

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

func testScheme(t testing.TB) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(billingv1.AddToScheme(s))
	return s
}

// jsonSerializers returns the standard JSON serializer and its stream
// serializer, and Codecs' two.
func jsonSerializers(t testing.TB, s *runtime.Scheme) (standard, standardStream, fast, fastStream runtime.Decoder) {
	t.Helper()
	find := func(infos []runtime.SerializerInfo) runtime.SerializerInfo {
		for _, info := range infos {
			if info.MediaType == runtime.ContentTypeJSON {
				return info
			}
		}
		t.Fatal("no JSON serializer")
		return runtime.SerializerInfo{}
	}
	std := find(serializer.NewCodecFactory(s).WithoutConversion().SupportedMediaTypes())
	mine := find(Codecs(s).SupportedMediaTypes())
	return std.Serializer, std.StreamSerializer.Serializer, mine.Serializer, mine.StreamSerializer.Serializer
}

// invoiceJSON is an invoice as the API server sends it, managed fields and
// all.
const invoiceJSON = `{"apiVersion":"billing.invoicing.dev/v1","kind":"Invoice","metadata":{"creationTimestamp":` +
	`"2026-11-23T11:01:47Z","generation":1,"labels":{"billing.invoicing.dev/created-bucket":"178389970"},` +
	`"managedFields":[{"apiVersion":"billing.invoicing.dev/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":` +
	`{".":{},"f:currency":{},"f:customerRef":{".":{},"f:name":{}},"f:items":{}}},"manager":"invoicing-adapter",` +
	`"operation":"Update","time":"2026-11-23T11:01:47Z"}],"name":"inv-01kaw8c0ffee0123456789abcd","namespace":` +
	`"bench-0","resourceVersion":"4242","uid":"0b7f6f1e-4c1a-4b7e-9d7e-2f1d3c4b5a69"},"spec":{"currency":"EUR",` +
	`"customerRef":{"name":"acme"},"items":[{"amount":15000,"description":"Consulting \"A\" \u00e9","quantity":3},` +
	`{"amount":42000,"description":"Travel","quantity":1}]},"status":{"phase":"Issued","number":"INV-000042"}}`

func TestDecodeIsTheStandardDecode(t *testing.T) {
	s := testScheme(t)
	standard, _, fast, _ := jsonSerializers(t, s)
	for _, tc := range []struct {
		name string
		data string
	}{
		{"an invoice decodes as the standard serializer decodes it", invoiceJSON},
		{"an object with white space around its members decodes the same",
			" {\n \"kind\" : \"Customer\" ,\t\"apiVersion\":\"billing.invoicing.dev/v1\", \"metadata\": {\"name\": \"acme\"} }\n"},
		{"a Status, as a watch event's error carries it, decodes the same",
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old","reason":"Expired","code":410}`},
		{"an empty object is refused the same (no kind)", `{}`},
		{"an object without apiVersion is refused the same", `{"kind":"Invoice"}`},
		{"an object of an unknown kind is refused the same", `{"apiVersion":"billing.invoicing.dev/v1","kind":"Nope"}`},
		{"a kind spelled in another case is read the standard way", `{"apiVersion":"billing.invoicing.dev/v1","KIND":"Invoice"}`},
		{"a kind with an escape is read the standard way", `{"apiVersion":"billing.invoicing.dev/v1","kind":"Inv\u006fice"}`},
		{"a key with an escape is read the standard way", `{"apiVersion":"billing.invoicing.dev/v1","\u006bind":"Invoice"}`},
		{"a kind that is not a string is refused the same", `{"apiVersion":"billing.invoicing.dev/v1","kind":7}`},
		{"a later duplicate kind wins the same", `{"apiVersion":"v1","kind":"Status","kind":"Namespace","metadata":{"name":"x"}}`},
		{"invalid JSON inside the object is refused the same", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":x}}`},
		{"text after the object is refused the same", invoiceJSON + `{}`},
		{"a truncated object is refused the same", invoiceJSON[:len(invoiceJSON)-3]},
		{"an array is refused the same", `[1,2]`},
		{"a number type mismatch is refused the same",
			`{"apiVersion":"billing.invoicing.dev/v1","kind":"Invoice","spec":{"items":[{"quantity":"3"}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantGVK, wantErr := standard.Decode([]byte(tc.data), nil, nil)
			got, gotGVK, gotErr := fast.Decode([]byte(tc.data), nil, nil)
			if (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("error %v, the standard serializer's %v", gotErr, wantErr)
			}
			if !equality.Semantic.DeepEqual(got, want) {
				t.Errorf("decoded\n%#v\nthe standard serializer\n%#v", got, want)
			}
			if (wantGVK == nil) != (gotGVK == nil) || (wantGVK != nil && *wantGVK != *gotGVK) {
				t.Errorf("kind %v, the standard serializer's %v", gotGVK, wantGVK)
			}
		})
	}
}

func TestDecodeEventIsTheStandardDecode(t *testing.T) {
	s := testScheme(t)
	_, standard, _, fast := jsonSerializers(t, s)
	for _, tc := range []struct {
		name string
		data string
	}{
		{"an added invoice decodes as the standard serializer decodes it", `{"type":"ADDED","object":` + invoiceJSON + `}`},
		{"members in the other order decode the same", `{"object":` + invoiceJSON + `, "type" : "MODIFIED"}`},
		{"a bookmark decodes the same",
			`{"type":"BOOKMARK","object":{"kind":"Invoice","apiVersion":"billing.invoicing.dev/v1","metadata":{"resourceVersion":"9"}}}`},
		{"a null object decodes the same", `{"type":"ERROR","object":null}`},
		{"an event without an object decodes the same", `{"type":"ADDED"}`},
		{"an unknown member is read the standard way", `{"type":"ADDED","object":{},"extra":1}`},
		{"a type with an escape is read the standard way", `{"type":"ADD\u0045D","object":{}}`},
		{"a type that is not a string is refused the same", `{"type":1,"object":{}}`},
		{"an object that is not an object is refused the same", `{"type":"ADDED","object":"x"}`},
		{"a truncated event is refused the same", `{"type":"ADDED","object":{"a":"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want, got metav1.WatchEvent
			wantObj, _, wantErr := standard.Decode([]byte(tc.data), nil, &want)
			gotObj, _, gotErr := fast.Decode([]byte(tc.data), nil, &got)
			if (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("error %v, the standard serializer's %v", gotErr, wantErr)
			}
			if wantErr != nil {
				return
			}
			if wantObj != runtime.Object(&want) || gotObj != runtime.Object(&got) {
				t.Fatal("the event was not decoded into the target")
			}
			if got.Type != want.Type || !bytes.Equal(got.Object.Raw, want.Object.Raw) {
				t.Errorf("decoded %q %s, the standard serializer %q %s", got.Type, got.Object.Raw, want.Type, want.Object.Raw)
			}
		})
	}
}

func TestDecodeEventCopiesTheObject(t *testing.T) {
	_, _, _, fast := jsonSerializers(t, testScheme(t))
	data := []byte(`{"type":"ADDED","object":{"kind":"Namespace","apiVersion":"v1"}}`)
	var ev metav1.WatchEvent
	if _, _, err := fast.Decode(data, nil, &ev); err != nil {
		t.Fatal(err)
	}
	copy(data, strings.Repeat("x", len(data))) // a stream reuses its buffer
	if string(ev.Object.Raw) != `{"kind":"Namespace","apiVersion":"v1"}` {
		t.Errorf("the event's object changed with the buffer: %s", ev.Object.Raw)
	}
}

// endless repeats one watch event forever, as a watch stream.
type endless struct {
	event []byte
	off   int
}

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.event[e.off:])
	e.off = (e.off + n) % len(e.event)
	return n, nil
}

// BenchmarkDecodeWatchEvent reads watch events of an invoice from a stream,
// framing, envelope and object, as client-go's watch decoder does: run
// with -bench DecodeWatchEvent and compare the sub-benchmarks.
func BenchmarkDecodeWatchEvent(b *testing.B) {
	s := testScheme(b)
	standard, standardStream, fast, fastStream := jsonSerializers(b, s)
	event := []byte(`{"type":"MODIFIED","object":` + invoiceJSON + "}\n")
	for _, bc := range []struct {
		name           string
		framer         runtime.Framer
		stream, object runtime.Decoder
	}{
		{"standard", json.Framer, standardStream, standard},
		{"watchdecode", framer{}, fastStream, fast},
	} {
		b.Run(bc.name, func(b *testing.B) {
			frames := streaming.NewDecoder(bc.framer.NewFrameReader(io.NopCloser(&endless{event: event})), bc.stream)
			b.ReportAllocs()
			for b.Loop() {
				var ev metav1.WatchEvent
				if _, _, err := frames.Decode(nil, &ev); err != nil {
					b.Fatal(err)
				}
				if _, err := runtime.Decode(bc.object, ev.Object.Raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
