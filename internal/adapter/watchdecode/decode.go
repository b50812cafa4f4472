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

// Package watchdecode decodes the JSON of the adapter's informers with fewer
// passes over each object. client-go's JSON serializer reads every object
// three or four times: once with encoding/json only to find its apiVersion
// and kind, once to check it is valid JSON, once to decode it; and a watch
// event carries its object inside an envelope that is read the same way
// first. Decode reads the apiVersion and kind, and a watch event's
// envelope, with a plain scan of the top level, and leaves everything else
// to the standard serializer's own decoding, so that the objects it returns
// are the ones the standard serializer returns.
package watchdecode

import (
	"bytes"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"
)

// decoder is client-go's JSON serializer with two fast paths in Decode: an
// object of a kind the scheme knows, decoded without a target (the object
// of a watch event), and a watch event's envelope. Everything else,
// encoding included, is the standard serializer's.
type decoder struct {
	runtime.Serializer
	scheme *runtime.Scheme
}

// Decode decodes data as the standard JSON serializer does.
func (d decoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (
	runtime.Object, *schema.GroupVersionKind, error) {
	if defaults == nil {
		switch t := into.(type) {
		case nil:
			if obj, gvk, ok := d.decodeTyped(data); ok {
				return obj, gvk, nil
			}
		case *metav1.WatchEvent:
			if gvk, ok := d.decodeEvent(data, t); ok {
				return t, gvk, nil
			}
		}
	}
	return d.Serializer.Decode(data, defaults, into)
}

// decodeTyped decodes an object of a typed kind of the scheme, found from
// its apiVersion and kind, as the standard serializer does after it has
// found them. ok is false when the fast path does not apply, or the data
// is refused: the standard serializer then decodes it again, so that an
// error is its own.
func (d decoder) decodeTyped(data []byte) (obj runtime.Object, gvk *schema.GroupVersionKind, ok bool) {
	kind, ok := kindOf(data)
	if !ok || kind.Kind == "" || kind.Version == "" {
		return nil, nil, false
	}
	obj, err := d.scheme.New(kind)
	if err != nil {
		return nil, nil, false
	}
	if _, unstructured := obj.(runtime.Unstructured); unstructured {
		return nil, nil, false
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, obj); err != nil {
		// Refused: let the standard serializer refuse it in its words.
		return nil, nil, false
	}
	return obj, &kind, true
}

// decodeEvent reads a watch event's envelope, {"type": "...", "object":
// {...}}, into ev: the object's bytes are copied, not decoded, as
// runtime.RawExtension does. ok is false for any other shape.
func (d decoder) decodeEvent(data []byte, ev *metav1.WatchEvent) (*schema.GroupVersionKind, bool) {
	kinds, _, err := d.scheme.ObjectKinds(ev)
	if err != nil {
		return nil, false
	}
	var typ string
	var object []byte
	var hasType bool
	ok := members(data, func(key, value []byte) bool {
		switch string(key) {
		case "type":
			typ, hasType = plainString(value)
			return hasType
		case "object":
			if value[0] != '{' && !bytes.Equal(value, []byte("null")) {
				return false
			}
			object = value
			return true
		}
		return false
	})
	if !ok {
		return nil, false
	}
	if hasType {
		ev.Type = typ
	}
	if object != nil && !bytes.Equal(object, []byte("null")) {
		ev.Object.Raw = append(ev.Object.Raw[:0], object...)
	}
	gvk := kinds[0]
	return &gvk, true
}

// kindOf reads the apiVersion and kind of the object data as
// json.SimpleMetaFactory does. ok is false when it cannot tell for sure
// that the standard reading would find the same: a value that is not a
// plain string, or a key that encoding/json, which matches names without
// regard to case, might take for either.
func kindOf(data []byte) (gvk schema.GroupVersionKind, ok bool) {
	var apiVersion, kind string
	ok = members(data, func(key, value []byte) bool {
		var ok bool
		switch {
		case string(key) == "apiVersion":
			apiVersion, ok = plainString(value)
			return ok
		case string(key) == "kind":
			kind, ok = plainString(value)
			return ok
		case !isASCII(key), bytes.EqualFold(key, []byte("apiVersion")), bytes.EqualFold(key, []byte("kind")):
			return false
		}
		return true
	})
	if !ok {
		return schema.GroupVersionKind{}, false
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return schema.GroupVersionKind{}, false
	}
	return gv.WithKind(kind), true
}
