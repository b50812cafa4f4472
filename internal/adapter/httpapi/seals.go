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
	"errors"
	"fmt"
	"net/http"

	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/adapter/store"
	"github.com/invoicing-dev/invoicing/internal/apiobject"
	"github.com/invoicing-dev/invoicing/internal/recordkind"
	"github.com/invoicing-dev/invoicing/internal/seal"
)

// The workspace's hash chain over HTTP (docs/api.md#seals): its seals'
// metadata and hashes, each seal's payload as stored, and its
// verification.

// mediaGzip is the media type of a seal's payload.
const mediaGzip = "application/gzip"

// getSeal serves GET /v1/seals/{seal_id}: the seal without its payload.
func (a *Adapter) getSeal(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return getRecord(a, w, r, c, "a seal", "seal_id", apiobject.SealOf)
}

// getSealPayload serves GET /v1/seals/{seal_id}/payload: the gzip of the
// seal's records, the bytes whose base64 spec.payload holds, unchanged
// (so that anyone can gunzip them and compare their SHA-256 with
// payload_sha256).
func (a *Adapter) getSealPayload(w http.ResponseWriter, r *http.Request, c *call) *Error {
	s, e := pathRecord[billingv1.LedgerSeal](a, r, c, "a seal", "seal_id")
	if e != nil {
		return e
	}
	gz, err := seal.Gzip(&s.Spec)
	if err != nil {
		// The API server's validation admits only base64 of some length;
		// a payload that is not is a seal broken behind its back, which
		// /v1/seals/verify names.
		logFrom(r.Context()).Error(err, "Unable to decode a seal's payload", "seal", c.id)
		return internalError()
	}
	writeDocument(w, r, mediaGzip, s.Name+".jsonl.gz", gz)
	return nil
}

// listSeals serves GET /v1/seals: a page of the workspace's seals ordered
// by id, which is their sequence order (seal-NNNNNN).
func (a *Adapter) listSeals(w http.ResponseWriter, r *http.Request, c *call) *Error {
	return listPage(w, r, c, listing{resource: resourceLedgerSeals, what: "seals"}, a.store,
		apiobject.SealOf, nil)
}

// verifySeals serves GET /v1/seals/verify. It reads every seal of the
// workspace afresh from the API server, recomputes every payload's
// SHA-256 and every link's hash (seal.VerifyChain), and checks that no
// record is held by two seals; then that every record the workspace
// serves agrees with the seals: a record a seal holds is served as that
// seal's (its sealed-in label names it), never as a live object beside
// it, and no record claims a seal that does not hold it. It answers the
// chain's head, or the first broken link or finding. It is authorized as
// a list of seals.
func (a *Adapter) verifySeals(w http.ResponseWriter, r *http.Request, c *call) *Error {
	seals, err := a.store.Seals(r.Context(), c.ns)
	if err != nil {
		return apiError(r.Context(), err, "Unable to read the seals")
	}
	held := sealedRecords{}
	head, err := seal.VerifyChain(seals, held.add)
	if err == nil {
		err = a.checkServedRecords(r, c.ns, held)
	}
	var broken *seal.BrokenLink
	switch {
	case errors.As(err, &broken):
		writeJSON(w, r, http.StatusOK, apiobject.SealVerification{Seals: len(seals), Broken: &apiobject.BrokenLink{
			Seal: broken.Seal, Sequence: broken.Sequence, Reason: broken.Reason}})
	case err != nil:
		return apiError(r.Context(), err, "Unable to read the workspace's records")
	default:
		writeJSON(w, r, http.StatusOK, apiobject.SealVerification{Verified: true, Seals: len(seals), Head: &head})
	}
	return nil
}

// sealedRecord is the seal that holds a record.
type sealedRecord struct {
	seal     string
	sequence int64
}

// sealedRecords are the records of a workspace's seals, by kind and name.
type sealedRecords map[string]sealedRecord

func recordKey(kind, name string) string { return kind + "/" + name }

// add records the records of seal s, whose payload is raw (verified): a
// record already held by an earlier seal breaks s.
func (h sealedRecords) add(s *billingv1.LedgerSeal, raw []byte) error {
	records, err := seal.Records(raw)
	if err != nil {
		return &seal.BrokenLink{Seal: s.Name, Sequence: s.Spec.Sequence, Reason: err.Error()}
	}
	for _, rec := range records {
		key := recordKey(rec.Kind, rec.Object.GetName())
		if other, dup := h[key]; dup {
			return &seal.BrokenLink{Seal: s.Name, Sequence: s.Spec.Sequence,
				Reason: fmt.Sprintf("%s %s is also in seal %s", rec.Kind, rec.Object.GetName(), other.seal)}
		}
		h[key] = sealedRecord{seal: s.Name, sequence: s.Spec.Sequence}
	}
	return nil
}

// check is a finding about one served record, obj of kind, or nil.
func (h sealedRecords) check(kind string, obj client.Object) *seal.BrokenLink {
	label := obj.GetLabels()[billingv1.LabelSealedIn]
	holder, sealed := h[recordKey(kind, obj.GetName())]
	switch {
	case sealed && label != holder.seal:
		return &seal.BrokenLink{Seal: holder.seal, Sequence: holder.sequence, Reason: fmt.Sprintf(
			"%s %s is served as a live record, not as the one sealed in %s", kind, obj.GetName(), holder.seal)}
	case !sealed && label != "":
		seq, _ := seal.SequenceOf(label)
		return &seal.BrokenLink{Seal: label, Sequence: seq, Reason: fmt.Sprintf(
			"%s %s is marked sealed in %s, which does not hold it", kind, obj.GetName(), label)}
	default:
		return nil
	}
}

// checkServedRecords walks every invoice, credit note and payment the
// workspace serves and returns the first finding (a *seal.BrokenLink),
// nil when there is none.
func (a *Adapter) checkServedRecords(r *http.Request, ns string, held sealedRecords) error {
	for _, k := range recordkind.Where(func(k *recordkind.Kind) bool { return k.Sealed != nil }) {
		if err := a.walkRecords(r, ns, k, held); err != nil {
			return err
		}
	}
	return nil
}

// walkRecords pages through every record of kind k in workspace ns.
func (a *Adapter) walkRecords(r *http.Request, ns string, k *recordkind.Kind, held sealedRecords) error {
	after := ""
	for {
		objs, more, err := a.store.Page(r.Context(), k, store.Selection{Namespace: ns}, after, listLimitMax)
		if err != nil {
			return err
		}
		for _, o := range objs {
			if finding := held.check(k.Name, o); finding != nil {
				return finding
			}
		}
		if !more || len(objs) == 0 {
			return nil
		}
		after = objs[len(objs)-1].GetName()
	}
}
