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

package sealing

import "sync"

// tailsAtOnce is how many seals' originals are deleted at once behind a
// reconcile. The API server deletes a collection's items one after the
// other (its --delete-collection-workers is 1 by default), each waiting
// for etcd, so deletes of several seals overlap; each takes a seat of the
// sealing priority level (about 10, config/apf) per kind, which leaves
// seats for the next seal's reads and labels.
const tailsAtOnce = 3

// moveTails runs the tail of each move of one reconcile in the
// background: deleting the seal's labelled originals, then recording its
// ledger.sealed. The next seal is read, written, verified and labelled
// meanwhile. Up to tailsAtOnce tails delete at once, and start waits for a
// free one; the events are recorded in the order the tails started (seal
// order), each after the one before, and none after a tail failed.
//
// A crash leaves what any interrupted move leaves (labelled originals,
// seals without their events), which finishMoves finishes in seal order.
type moveTails struct {
	mu    sync.Mutex
	err   error
	slots chan struct{} // one token per tail running; nil: none started
	// last is closed when the last tail started is done, which is after
	// every tail before it (each waits for the one before); nil: none.
	last chan struct{}
}

// start waits for a free slot and returns the error of a tail that
// failed, if one did, without starting this one; otherwise it runs del in
// the background and then, once the tail started before is done and none
// failed, record.
func (t *moveTails) start(del, record func() error) error {
	if t.slots == nil {
		t.slots = make(chan struct{}, tailsAtOnce)
	}
	t.slots <- struct{}{}
	if err := t.failed(); err != nil {
		<-t.slots
		return err
	}
	before, done := t.last, make(chan struct{})
	t.last = done
	go func() {
		defer close(done)
		defer func() { <-t.slots }()
		err := del()
		if before != nil {
			<-before
		}
		if err == nil && t.failed() == nil {
			err = record()
		}
		if err != nil {
			t.fail(err)
		}
	}()
	return nil
}

// wait waits for the tails started and returns the first error a tail
// met, if one did.
func (t *moveTails) wait() error {
	if t.last != nil {
		<-t.last
	}
	return t.failed()
}

func (t *moveTails) failed() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

func (t *moveTails) fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil {
		t.err = err
	}
}
