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

package seal

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// BrokenLink says which check of which seal failed.
type BrokenLink struct {
	// Seal is the seal's name.
	Seal string
	// Sequence is its spec.sequence.
	Sequence int64
	// Reason is what failed, in a sentence.
	Reason string
}

func (b *BrokenLink) Error() string {
	return fmt.Sprintf("seal %s (sequence %d): %s", b.Seal, b.Sequence, b.Reason)
}

// Verify checks one seal on its own and as the link after previousHash:
// its name is its sequence's, its payload decodes and hashes to
// payloadSHA256, its previousHash is previousHash, and its hash is the
// chain hash. It returns the uncompressed payload, or a *BrokenLink.
func Verify(s *billingv1.LedgerSeal, previousHash string) ([]byte, error) {
	broken := func(format string, args ...any) error {
		return &BrokenLink{Seal: s.Name, Sequence: s.Spec.Sequence, Reason: fmt.Sprintf(format, args...)}
	}
	if s.Name != Name(s.Spec.Sequence) {
		return nil, broken("its name is not %s", Name(s.Spec.Sequence))
	}
	raw, err := Uncompressed(&s.Spec)
	if err != nil {
		return nil, broken("%v", err)
	}
	sum := sha256.Sum256(raw)
	if got := hex.EncodeToString(sum[:]); got != s.Spec.PayloadSHA256 {
		return nil, broken("the payload hashes to %s, not to payloadSHA256 %s", got, s.Spec.PayloadSHA256)
	}
	if s.Spec.PreviousHash != previousHash {
		return nil, broken("previousHash is %s, the previous seal's hash is %s", s.Spec.PreviousHash, previousHash)
	}
	if want := ChainHash(s.Namespace, s.Spec.Sequence, s.Spec.PreviousHash, s.Spec.PayloadSHA256); s.Spec.Hash != want {
		return nil, broken("hash is %s, the chain hash is %s", s.Spec.Hash, want)
	}
	return raw, nil
}

// VerifyChain checks seals (one workspace's, in any order) as a chain
// 1, 2, 3, ... without a gap, calling each (if not nil) with every seal's
// payload in order. It returns the head's hash (ZeroHash for no seal), or
// the first *BrokenLink.
func VerifyChain(seals []*billingv1.LedgerSeal, each func(*billingv1.LedgerSeal, []byte) error) (string, error) {
	bySequence := make(map[int64]*billingv1.LedgerSeal, len(seals))
	for _, s := range seals {
		if other, dup := bySequence[s.Spec.Sequence]; dup {
			return "", &BrokenLink{Seal: s.Name, Sequence: s.Spec.Sequence,
				Reason: "seal " + other.Name + " has the same sequence"}
		}
		bySequence[s.Spec.Sequence] = s
	}
	head := billingv1.ZeroHash
	for seq := int64(1); seq <= int64(len(seals)); seq++ {
		s, ok := bySequence[seq]
		if !ok {
			return "", &BrokenLink{Seal: Name(seq), Sequence: seq, Reason: "it is missing: the chain has a gap"}
		}
		raw, err := Verify(s, head)
		if err != nil {
			return "", err
		}
		if each != nil {
			if err := each(s, raw); err != nil {
				return "", err
			}
		}
		head = s.Spec.Hash
	}
	return head, nil
}
