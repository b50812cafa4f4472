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
	"github.com/prometheus/client_golang/prometheus"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
)

// eventsRecorded counts the events of the workspaces' event sequences
// (docs/events.md) this manager wrote on an object's status, by type: the
// six types are the API's constants, so the series stay six. A status
// patch that failed counts nothing; a sequence is counted when its object
// carries it, once.
var eventsRecorded = prometheus.NewCounterVec(prometheus.CounterOpts{
	Namespace: MetricsNamespace,
	Name:      "events_recorded_total",
	Help:      "Events of the workspaces' event sequences written on the status of the object they are about, by type.",
}, []string{"type"})

// ObserveEvents counts the events of after that before did not carry; it
// is called once the status patch that wrote after has succeeded.
func ObserveEvents(before, after []billingv1.RecordedEvent) {
	for _, e := range after {
		if billingv1.FindEvent(before, e.Type) == nil {
			eventsRecorded.WithLabelValues(string(e.Type)).Inc()
		}
	}
}
