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

// What each part of an issued invoice costs: its JSON as the API server
// returns it (and keeps it in etcd and its watch cache), in bytes by part.

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// invoiceParts are bytes of JSON by part: "total", "metadata.managedFields"
// (and "managedFields.entries", their number), "metadata" without them,
// "spec", and "status.<field>" for each field of the status.
type invoiceParts map[string]int

// invoiceParts reads the first issued invoice of the first fill workspace.
func (b *bench) invoiceParts(ctx context.Context) (invoiceParts, error) {
	var list unstructured.UnstructuredList
	list.SetGroupVersionKind(billingv1.GroupVersion.WithKind("InvoiceList"))
	if err := b.admin.List(ctx, &list, client.InNamespace(b.fillWorkspaces()[0]), client.Limit(100)); err != nil {
		return nil, err
	}
	for _, item := range list.Items {
		if phase, _, _ := unstructured.NestedString(item.Object, "status", "phase"); phase == string(billingv1.InvoiceIssued) {
			return partsOf(item.Object)
		}
	}
	return nil, fmt.Errorf("no issued invoice among the first %d of %s", len(list.Items), b.fillWorkspaces()[0])
}

// partsOf splits an object's JSON into its parts' sizes.
func partsOf(obj map[string]any) (invoiceParts, error) {
	parts := invoiceParts{}
	size := func(v any) (int, error) {
		data, err := json.Marshal(v)
		return len(data), err
	}
	var err error
	if parts["total"], err = size(obj); err != nil {
		return nil, err
	}
	meta, _ := obj["metadata"].(map[string]any)
	rest := map[string]any{}
	for k, v := range meta {
		if k == "managedFields" {
			entries, _ := v.([]any)
			parts["managedFields.entries"] = len(entries)
			if parts["metadata.managedFields"], err = size(v); err != nil {
				return nil, err
			}
			continue
		}
		rest[k] = v
	}
	if parts["metadata"], err = size(rest); err != nil {
		return nil, err
	}
	if parts["spec"], err = size(obj["spec"]); err != nil {
		return nil, err
	}
	status, _ := obj["status"].(map[string]any)
	for k, v := range status {
		if parts["status."+k], err = size(v); err != nil {
			return nil, err
		}
	}
	return parts, nil
}
