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
	"context"
	"errors"
	"testing"

	"github.com/go-logr/logr/funcr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
)

// logged is what a funcr logger at verbosity v wrote, line by line.
type logged struct{ lines []string }

func (l *logged) logger(v int) context.Context {
	return ctrl.LoggerInto(context.Background(), funcr.New(func(_, args string) {
		l.lines = append(l.lines, args)
	}, funcr.Options{Verbosity: v}))
}

func TestARetriedConflictIsLoggedAtVerbosityOneOnly(t *testing.T) {
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "invoices"}, "a", errors.New("stale"))
	priority := 3
	tests := []struct {
		name      string
		verbosity int
		wantLines int
	}{
		{name: "at the default verbosity a conflict writes nothing", verbosity: 0, wantLines: 0},
		{name: "at verbosity one a conflict writes one line", verbosity: 1, wantLines: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l logged
			res, err := requeueConflict(l.logger(tt.verbosity), ctrl.Result{Priority: &priority}, conflict)
			if err != nil {
				t.Fatalf("a conflict must come back as a requeue, got the error %v", err)
			}
			if !res.Requeue || res.RequeueAfter != 0 { //nolint:staticcheck // the rate-limited requeue an error gets
				t.Errorf("result %+v, want a rate-limited requeue (Requeue, no RequeueAfter)", res)
			}
			if res.Priority != &priority {
				t.Errorf("the reconciler's priority was lost: %v", res.Priority)
			}
			if len(l.lines) != tt.wantLines {
				t.Errorf("logged %q, want %d lines", l.lines, tt.wantLines)
			}
		})
	}
}
