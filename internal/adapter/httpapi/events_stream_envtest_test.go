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
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
	"github.com/invoicing-dev/invoicing/internal/test/builder"
	"github.com/invoicing-dev/invoicing/internal/test/v1client"
)

// readStreamEvents reads one event of s per type in typs, checks each
// against the contract, that its frame ends with its id, and that the ids
// are the sequences from first on; it returns the events.
func readStreamEvents(s *v1client.EventStream, first int64, typs ...string) []eventJSON {
	GinkgoHelper()
	out := make([]eventJSON, len(typs))
	for i, typ := range typs {
		e, err := s.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Fields).To(Equal([]string{"event", "data", "id"}), "the id line must come last, after the data")
		Expect(e.Type).To(Equal(typ))
		Expect(apiContract.checkStreamEvent(e.Data)).To(Succeed())
		Expect(json.Unmarshal(e.Data, &out[i])).To(Succeed())
		want := first + int64(i)
		Expect(e.ID).To(Equal(strconv.FormatInt(want, 10)), "events out of order")
		Expect(out[i].Sequence).To(Equal(want))
		Expect(out[i].Type).To(Equal(typ))
	}
	return out
}

var _ = Describe("The live stream of the events (GET /v1/events, Accept: text/event-stream)", func() {
	var ns, customerID, reader string
	// issue creates an invoice and returns its name once it is issued.
	issue := func() (string, int64) {
		GinkgoHelper()
		name := billing.NewID("inv-")
		Expect(k8s.Create(ctx, builder.Invoice(ns, name, inEUR(customerID)...))).To(Succeed())
		inv := &billingv1.Invoice{}
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, inv)).To(Succeed())
			g.Expect(inv.Status.Total).NotTo(BeNil())
			g.Expect(inv.Status.Sequence).NotTo(BeNil())
		}).Should(Succeed())
		return name, *inv.Status.Total
	}
	BeforeEach(func() {
		ns = newWorkspace()
		customerID = createCustomer(v1client.Workspace(ns)).ID
		reader = eventsReader(ns)
	})

	It("sends the events in order, then each new one, and resumes after Last-Event-ID on another adapter once the first shut down", func() {
		first, total := issue()
		issue()
		url, stop := startStoppableAdapter(adapterCfg, Options{RateLimit: -1, ShutdownTimeout: 30 * time.Second})
		client := apiClient(url).With(v1client.Token(reader), v1client.Workspace(ns))
		stream, resp, err := client.StreamEvents(ctx, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("Cache-Control")).To(Equal("no-store"))
		readStreamEvents(stream, 1, "invoice.issued", "invoice.issued")

		By("sending the events of a payment made while the stream is open: the payment, then the paid invoice")
		Expect(k8s.Create(ctx, builder.Payment(ns, first+"-p1", first, total))).To(Succeed())
		events := readStreamEvents(stream, 3, "payment.recorded", "invoice.paid")
		Expect(events[0].Data.Object.InvoiceID).To(Equal(first))
		Expect(events[1].Data.Object.ID).To(Equal(first))

		By("ending the stream cleanly when the adapter shuts down, without waiting for it")
		started := time.Now()
		stop()
		Expect(time.Since(started)).To(BeNumerically("<", 10*time.Second), "the shutdown waited for the stream")
		_, err = stream.Next()
		Expect(err).To(MatchError(io.EOF))

		By("resuming after Last-Event-ID 3 on another adapter, with what happened meanwhile")
		issue()
		other := apiClient(mainURL).With(v1client.Token(reader), v1client.Workspace(ns))
		resumed, _, err := other.StreamEvents(ctx, "", v1client.Header("Last-Event-ID", "3"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(resumed.Close)
		readStreamEvents(resumed, 4, "invoice.paid", "invoice.issued")

		By("keeping only the types asked for, after after")
		filtered, _, err := other.StreamEvents(ctx, "?type=invoice.issued&after=1")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(filtered.Close)
		for _, want := range []int64{2, 5} {
			e, err := filtered.Next()
			Expect(err).NotTo(HaveOccurred())
			Expect(e.Type).To(Equal("invoice.issued"))
			Expect(e.ID).To(Equal(strconv.FormatInt(want, 10)))
		}
	})

	It("counts its streams with the feed's toward the caller's bound, and refuses a bad Last-Event-ID or type with 400", func() {
		url := startAdapter(adapterCfg, Options{RateLimit: -1, MaxStreamsPerCaller: 1})
		client := apiClient(url).With(v1client.Token(reader), v1client.Workspace(ns))
		first, _, err := client.StreamEvents(ctx, "")
		Expect(err).NotTo(HaveOccurred())
		_, resp, err := client.StreamEvents(ctx, "")
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusTooManyRequests))
		Expect(resp.Err().Code).To(Equal(CodeRateLimited))
		Expect(first.Close()).To(Succeed())

		for _, id := range []string{"x", "-1"} {
			_, resp, err = client.StreamEvents(ctx, "", v1client.Header("Last-Event-ID", id))
			Expect(err).To(HaveOccurred())
			Expect(resp.Status).To(Equal(http.StatusBadRequest))
			Expect(resp.Err().Param).To(Equal("Last-Event-ID"))
		}
		_, resp, err = client.StreamEvents(ctx, "?type=invoice.bogus")
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusBadRequest))
		Expect(resp.Err().Param).To(Equal("type"))

		By("refusing a caller without list on events")
		_, resp, err = apiClient(url).With(v1client.Token(nobodyToken), v1client.Workspace(ns)).StreamEvents(ctx, "")
		Expect(err).To(HaveOccurred())
		Expect(resp.Status).To(Equal(http.StatusForbidden))
	})

	It("keeps an idle stream open with heartbeat comments", func() {
		url := startAdapter(adapterCfg, Options{RateLimit: -1, StreamHeartbeat: 50 * time.Millisecond})
		client := apiClient(url).With(v1client.Token(reader), v1client.Workspace(ns))
		stream, _, err := client.StreamEvents(ctx, "")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(stream.Close)
		time.Sleep(500 * time.Millisecond)
		issue()
		readStreamEvents(stream, 1, "invoice.issued")
		Expect(stream.Comments).To(BeNumerically(">=", 3), "heartbeats before the event")
	})
})
