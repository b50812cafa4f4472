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

package camt

import (
	"slices"
	"strings"
)

// A content model (a complex type's xs:sequence or xs:choice of elements,
// with their minOccurs and maxOccurs) is compiled into a nondeterministic
// automaton, Thompson's construction with the occurrences unrolled (the
// schemas' largest maxOccurs is 10). The ISO 20022 schemas obey XSD's
// Unique Particle Attribution, so a child element always matches at most
// one declaration and the automaton's set of states stays small.

// unbounded is maxOccurs="unbounded".
const unbounded = -1

// automaton is a content model compiled.
type automaton struct {
	states []state
	start  int
	final  int
}

// state is an automaton's state: its empty moves and its moves on a child
// element.
type state struct {
	eps   []int
	moves []move
}

// move is a transition on an element a declaration or a wildcard matches.
// It is required when it belongs to an occurrence the content model
// cannot skip: one of the first minOccurs of each particle around it.
type move struct {
	decl     *elementDecl
	any      *wildcard
	to       int
	required bool
}

// elementDecl is a local xs:element: its name in the schema's namespace,
// its type and its occurrences.
type elementDecl struct {
	name     string
	typ      *complexType
	min, max int
}

// wildcard is an xs:any of any namespace.
type wildcard struct {
	// process is processContents: "strict", "lax" or "skip".
	process string
}

func (a *automaton) newState() int {
	a.states = append(a.states, state{})
	return len(a.states) - 1
}

func (a *automaton) epsilon(from, to int) {
	a.states[from].eps = append(a.states[from].eps, to)
}

// closure adds to set every state reachable from it by empty moves. The
// sets of the ISO 20022 content models hold a few dozen states at most, so
// a linear search beats a map.
func (a *automaton) closure(set []int) []int {
	for i := 0; i < len(set); i++ {
		for _, t := range a.states[set[i]].eps {
			if !slices.Contains(set, t) {
				set = append(set, t)
			}
		}
	}
	return set
}

// begin is the set of states before any child.
func (a *automaton) begin() []int { return a.closure([]int{a.start}) }

// step moves set on a child element named local in namespace space (the
// schema's namespace is ns). It returns the next set and the move taken,
// or a nil move when no state of set accepts the element.
func (a *automaton) step(set []int, ns, space, local string) ([]int, *move) {
	var next []int
	var taken *move
	for _, s := range set {
		for i := range a.states[s].moves {
			m := &a.states[s].moves[i]
			if m.any != nil || (space == ns && m.decl.name == local) {
				if taken == nil {
					taken = m
				}
				if !slices.Contains(next, m.to) {
					next = append(next, m.to)
				}
			}
		}
	}
	if taken == nil {
		return nil, nil
	}
	return a.closure(next), taken
}

// accepts reports whether the children may end after set.
func (a *automaton) accepts(set []int) bool {
	for _, s := range set {
		if s == a.final {
			return true
		}
	}
	return false
}

// expected names the elements that may come after set, in schema order;
// with required, only those of required moves, or all when none is.
func (a *automaton) expected(set []int, required bool) string {
	var names []string
	seen := map[string]bool{}
	sorted := slices.Clone(set)
	slices.Sort(sorted)
	for _, s := range sorted {
		for _, m := range a.states[s].moves {
			if required && !m.required {
				continue
			}
			name := "any element"
			if m.decl != nil {
				name = m.decl.name
			}
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	if required && len(names) == 0 {
		return a.expected(set, false)
	}
	const most = 6
	if len(names) > most {
		return strings.Join(names[:most], ", ") + " or another"
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// single adds a move between two new states and returns them.
func (a *automaton) single(m move) (start, end int) {
	start, end = a.newState(), a.newState()
	m.to = end
	a.states[start].moves = append(a.states[start].moves, m)
	return start, end
}

// repeat adds min to max occurrences of the fragment once adds (max may be
// unbounded): min copies in a row, then either a loop on one more copy or
// max-min optional copies. once is told whether its copy is optional.
func (a *automaton) repeat(min, max int, once func(optional bool) (int, int, error)) (start, end int, err error) {
	start = a.newState()
	end = start
	for i := 0; i < min; i++ {
		s, e, err := once(false)
		if err != nil {
			return 0, 0, err
		}
		a.epsilon(end, s)
		end = e
	}
	if max == unbounded {
		s, e, err := once(true)
		if err != nil {
			return 0, 0, err
		}
		loop := a.newState()
		a.epsilon(end, loop)
		a.epsilon(loop, s)
		a.epsilon(e, loop)
		return start, loop, nil
	}
	final := a.newState()
	for i := min; i < max; i++ {
		s, e, err := once(true)
		if err != nil {
			return 0, 0, err
		}
		a.epsilon(end, s)
		a.epsilon(end, final)
		end = e
	}
	a.epsilon(end, final)
	return start, final, nil
}
