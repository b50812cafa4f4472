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

package reconciler

import (
	"errors"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
)

// Errors of SetupWithManager for a reconciler that is missing a part.
var (
	ErrNoRecorder = errors.New("the reconciler needs a Recorder")
	ErrNoClock    = errors.New("the reconciler needs a Clock")
	ErrNoEvents   = errors.New("the reconciler needs Events")
	// ErrNoAPIReader is the error for a reconciler that needs an
	// APIReader and has none.
	ErrNoAPIReader = errors.New("the reconciler needs an APIReader")
)

// NewController starts the builder of the controller named name, which
// reconciles obj's kind (watched with opts), up to concurrency objects at
// once (0: the manager's default).
func NewController(mgr ctrl.Manager, name string, concurrency int, obj client.Object,
	opts ...builder.ForOption) *builder.Builder {
	return ctrl.NewControllerManagedBy(mgr).Named(name).
		WithOptions(crcontroller.Options{MaxConcurrentReconciles: concurrency}).
		For(obj, opts...)
}

// Part is one thing a reconciler needs before it is registered: missing
// when it was not given, err saying so.
type Part struct {
	missing bool
	err     error
}

// Need is a Part: missing when it was not given, err saying so.
func Need(missing bool, err error) Part {
	return Part{missing: missing, err: err}
}

// FirstMissing returns the error of the first part that is missing, or
// nil: the check every SetupWithManager makes of its parts.
func FirstMissing(parts ...Part) error {
	for _, p := range parts {
		if p.missing {
			return p.err
		}
	}
	return nil
}
