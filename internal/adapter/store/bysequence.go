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

package store

import "sync"

// bySequence keeps, per workspace, a value of V for each sequence as the
// informers deliver them, the highest sequence seen, and a channel that
// is closed when a value is added: the invoice sequences' index
// (sequences.go) and the event sequences' (events.go).
type bySequence[V comparable] struct {
	mu         sync.RWMutex
	workspaces map[string]*workspaceSequences[V]
}

type workspaceSequences[V comparable] struct {
	values map[int64]V
	max    int64
	// changed is closed, and replaced, when a value is added.
	changed chan struct{}
}

func newBySequence[V comparable]() bySequence[V] {
	return bySequence[V]{workspaces: map[string]*workspaceSequences[V]{}}
}

// workspace returns the index of ns, making it. Called with mu held.
func (x *bySequence[V]) workspace(ns string) *workspaceSequences[V] {
	ws, ok := x.workspaces[ns]
	if !ok {
		ws = &workspaceSequences[V]{values: map[int64]V{}, changed: make(chan struct{})}
		x.workspaces[ns] = ws
	}
	return ws
}

// set makes v the value of sequence, and reports whether that changed
// it. Called with mu held.
func (ws *workspaceSequences[V]) set(sequence int64, v V) bool {
	if ws.values[sequence] == v {
		return false
	}
	ws.values[sequence] = v
	ws.max = max(ws.max, sequence)
	return true
}

// added wakes those waiting on changed. Called with mu held.
func (ws *workspaceSequences[V]) added() {
	close(ws.changed)
	ws.changed = make(chan struct{})
}

// changed returns a channel that is closed when the next value of ns is
// added.
func (x *bySequence[V]) changed(ns string) <-chan struct{} {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.workspace(ns).changed
}

// run returns the values of ns at first and the sequences that follow it,
// at most n, stopping before the first one not seen, and the highest
// sequence seen in ns.
func (x *bySequence[V]) run(ns string, first int64, n int) (run []V, highest int64) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ws, ok := x.workspaces[ns]
	if !ok {
		return nil, 0
	}
	for s := first; len(run) < n; s++ {
		v, ok := ws.values[s]
		if !ok {
			break
		}
		run = append(run, v)
	}
	return run, ws.max
}
