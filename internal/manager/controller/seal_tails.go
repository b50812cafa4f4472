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

package controller

import "sync"

// moveTails runs the tail of each move of one reconcile (deleting the
// seal's labelled originals, then recording ledger.sealed) in the
// background, one seal after the other, while the next seal is read,
// written, verified and labelled: the API server deletes a collection's
// items one at a time, and that need not hold up the next seal. At most
// one tail runs behind the reconcile: start waits for the one before.
//
// A crash leaves what any interrupted move leaves (labelled originals,
// a seal without its event), which finishMoves finishes.
type moveTails struct {
	mu   sync.Mutex
	err  error
	done chan struct{} // closed when the last tail started is done; nil: none
}

// start waits for the tail started before (and returns its error, if it
// failed, without starting tail), then runs tail in the background.
func (t *moveTails) start(tail func() error) error {
	if err := t.wait(); err != nil {
		return err
	}
	done := make(chan struct{})
	t.done = done
	go func() {
		defer close(done)
		if err := tail(); err != nil {
			t.mu.Lock()
			t.err = err
			t.mu.Unlock()
		}
	}()
	return nil
}

// wait waits for the tails started and returns the error of the one that
// failed, if one did.
func (t *moveTails) wait() error {
	if t.done != nil {
		<-t.done
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}
