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

import (
	"context"
	"fmt"

	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/manager/banking"
	"github.com/invoicing-dev/invoicing/internal/manager/delivery"
	"github.com/invoicing-dev/invoicing/internal/manager/index"
	"github.com/invoicing-dev/invoicing/internal/manager/ledger"
	"github.com/invoicing-dev/invoicing/internal/manager/mailing"
	"github.com/invoicing-dev/invoicing/internal/manager/numbering"
	"github.com/invoicing-dev/invoicing/internal/manager/reconciler"
	"github.com/invoicing-dev/invoicing/internal/manager/schedules"
	"github.com/invoicing-dev/invoicing/internal/manager/sealing"
	"github.com/invoicing-dev/invoicing/internal/manager/trim"
	"github.com/invoicing-dev/invoicing/internal/manager/webhooks"
)

// The status ownership queue (trim.DropStatusOwnership) patches the
// metadata of invoices, credit notes and payments.
// +kubebuilder:rbac:groups=billing.invoicing.dev,resources=invoices;creditnotes;payments,verbs=patch

// Options configure the controllers that Setup registers.
type Options struct {
	// MaxConcurrentReconciles is how many objects of each kind are
	// reconciled at once; 0 keeps the manager's default. One object is never
	// reconciled twice at the same time.
	MaxConcurrentReconciles int

	// Clock tells the controllers the time: when an invoice is issued, when
	// a condition changed, whether an idempotency key has expired. Nil means
	// the real clock; tests pass a fake one.
	Clock clock.PassiveClock

	// Webhooks configure the delivery to WebhookEndpoints: which URLs are
	// allowed, timeouts and the answer's size cap.
	Webhooks delivery.SenderOptions

	// WebhookWorkers is how many endpoints receive deliveries at once; 0
	// means DefaultWebhookWorkers.
	WebhookWorkers int

	// WebhookBatch is how many events one reconcile sends before it
	// records progress; 0 means webhooks.DefaultWebhookBatch.
	WebhookBatch int

	// KeepStatusManagedFields keeps the API server's record of the manager
	// owning the status fields of invoices, credit notes and payments. By
	// default it is dropped right after each status patch
	// (trim.DropStatusOwnership): it is a third of an issued invoice's size.
	KeepStatusManagedFields bool

	// ManagedFieldsDropRate is how many objects a second have their
	// status's field ownership dropped; 0 means
	// trim.DefaultManagedFieldsDropRate.
	ManagedFieldsDropRate float64

	// SealPayloadBytes is the encoded payload a LedgerSeal aims at; 0
	// means seal.MaxPayloadBytes. Tests make it small to see several seals.
	SealPayloadBytes int

	// Mail is how the Email reconciler reaches SMTP servers.
	Mail mailing.MailOptions
}

// DefaultWebhookWorkers is how many endpoints receive deliveries at once by
// default: a dead endpoint holds a worker for one attempt's timeout at
// most, so a few dead endpoints never hold up the others.
const DefaultWebhookWorkers = 16

// Setup registers the field indexes, the invoice and credit note number
// allocators and the Invoice, CreditNote, Payment, Customer,
// BillingProfile, IdempotencyKey, PeriodClose and WebhookEndpoint controllers with mgr, each with its own event recorder. It is the one
// wiring of the controllers: the manager binary and every test
// suite that runs them call it.
func Setup(ctx context.Context, mgr ctrl.Manager, opts Options) error {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if err := index.Setup(ctx, mgr.GetFieldIndexer()); err != nil {
		return fmt.Errorf("registering field indexes: %w", err)
	}
	numbers, err := addAllocator(mgr, opts.Clock, "invoice number", billingv1.InvoiceSequenceName,
		func(r client.Reader) numbering.InvoiceLookup { return numbering.InvoiceReader(r, sequenceOf) })
	if err != nil {
		return err
	}
	// Credit notes have a gapless series of their own per workspace.
	creditNumbers, err := addAllocator(mgr, opts.Clock, "credit note number", billingv1.CreditNoteSequenceName,
		numbering.CreditNoteReader)
	if err != nil {
		return err
	}
	// Invoices, credit notes and payments share each workspace's event
	// sequence: one sequence per fact (docs/events.md).
	eventNumbers, err := addAllocator(mgr, opts.Clock, "event sequence", billingv1.EventSequenceName,
		numbering.EventReader)
	if err != nil {
		return err
	}
	// The reconcilers that write the statuses of invoices, credit notes and
	// payments drop the status's field ownership after each status patch.
	ledgerClient := mgr.GetClient()
	if !opts.KeepStatusManagedFields {
		if ledgerClient, err = trim.DropStatusOwnership(mgr, ledgerClient, opts.ManagedFieldsDropRate); err != nil {
			return err
		}
	}
	// What the workspaces' seals hold, decoded once per seal, for every
	// controller that must know a sealed record.
	sealed := &sealing.SealedRecords{Reader: mgr.GetClient(), APIReader: mgr.GetAPIReader()}
	// One live reader of profiles for both kinds that issue: a record
	// whose profile the cache has not seen yet (reconciler.IssuingProfile).
	profiles := &reconciler.LiveProfiles{Reader: mgr.GetAPIReader()}
	ledgerParts := ledger.Parts{Client: ledgerClient, APIReader: mgr.GetAPIReader(), Clock: opts.Clock, Events: eventNumbers,
		Sealed: sealed}
	for _, c := range []struct {
		kind       string
		reconciler interface {
			SetupWithManager(mgr ctrl.Manager, concurrency int) error
		}
	}{
		{"Invoice", &ledger.InvoiceReconciler{
			Client:   ledgerClient,
			Recorder: mgr.GetEventRecorder("invoice-controller"),
			Clock:    opts.Clock,
			Numbers:  numbers,
			Events:   eventNumbers,
			Sealed:   sealed,
			Profiles: profiles,
		}},
		{"CreditNote", &ledger.CreditNoteReconciler{Parts: ledgerParts, Numbers: creditNumbers, Profiles: profiles}},
		{"Payment", &ledger.PaymentReconciler{Parts: ledgerParts}},
		{"CreditApplication", &ledger.CreditApplicationReconciler{Parts: ledgerParts}},
		{"Refund", &ledger.RefundReconciler{Parts: ledgerParts}},
		{"WriteOff", &ledger.WriteOffReconciler{Parts: ledgerParts}},
		{"Customer", &CustomerReconciler{
			Client:    mgr.GetClient(),
			APIReader: mgr.GetAPIReader(),
			Recorder:  mgr.GetEventRecorder("customer-controller"),
			Clock:     opts.Clock,
			Sealed:    sealed,
		}},
		{"BillingProfile", &BillingProfileReconciler{
			Client: mgr.GetClient(),
			Clock:  opts.Clock,
		}},
		{"Email", &mailing.EmailReconciler{
			Client:    mgr.GetClient(),
			APIReader: mgr.GetAPIReader(),
			Recorder:  mgr.GetEventRecorder("email-controller"),
			Clock:     opts.Clock,
			Events:    eventNumbers,
			Sealed:    sealed,
			Mail:      opts.Mail,
		}},
		{"Reminder", &mailing.ReminderReconciler{Client: mgr.GetClient(), Clock: opts.Clock}},
		{"IdempotencyKey", &IdempotencyKeyReconciler{
			Client: mgr.GetClient(),
			Clock:  opts.Clock,
		}},
		{"InvoiceSchedule", &schedules.InvoiceScheduleReconciler{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(),
			Clock: opts.Clock, Events: eventNumbers}},
		{"BankTransaction", &banking.BankTransactionReconciler{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(),
			Clock: opts.Clock, Events: eventNumbers}},
		{"PeriodClose", &sealing.PeriodCloseReconciler{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Clock: opts.Clock,
			Events: eventNumbers}},
	} {
		if err := c.reconciler.SetupWithManager(mgr, opts.MaxConcurrentReconciles); err != nil {
			return fmt.Errorf("setting up the %s controller: %w", c.kind, err)
		}
	}
	workers := opts.WebhookWorkers
	if workers <= 0 {
		workers = DefaultWebhookWorkers
	}
	endpoints := &webhooks.WebhookEndpointReconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Recorder:  mgr.GetEventRecorder("webhookendpoint-controller"),
		Clock:     opts.Clock,
		Sender:    delivery.NewSender(opts.Webhooks),
		Batch:     opts.WebhookBatch,
		Sealed:    sealed,
	}
	if err := endpoints.SetupWithManager(mgr, workers); err != nil {
		return fmt.Errorf("setting up the WebhookEndpoint controller: %w", err)
	}
	return setupSealing(mgr, opts, eventNumbers, sealed, []sealing.JournalTrimmer{numbers, creditNumbers, eventNumbers})
}

// setupSealing registers the sealing controller with a client of its own
// for its writes: its user agent names it, and the "sealing" FlowSchema
// (config/apf) puts the writes it makes (seals, and deleting the sealed
// originals) at a low priority level, so issuing keeps its pace while a
// month is sealed.
func setupSealing(mgr ctrl.Manager, opts Options, events reconciler.EventNumberer, sealed *sealing.SealedRecords,
	journals []sealing.JournalTrimmer) error {
	cfg := rest.CopyConfig(mgr.GetConfig())
	cfg.UserAgent = "invoicing-manager/sealing"
	writer, err := client.New(cfg, client.Options{Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper()})
	if err != nil {
		return fmt.Errorf("creating the sealing client: %w", err)
	}
	sealer := &sealing.SealReconciler{
		Client:       mgr.GetClient(),
		Writer:       writer,
		APIReader:    mgr.GetAPIReader(),
		Clock:        opts.Clock,
		Events:       events,
		Sealed:       sealed,
		PayloadBytes: opts.SealPayloadBytes,
		Journals:     journals,
	}
	if err := sealer.SetupWithManager(mgr, opts.MaxConcurrentReconciles); err != nil {
		return fmt.Errorf("setting up the sealing controller: %w", err)
	}
	return nil
}

// addAllocator creates the allocator of the series named sequence, which
// reads what the numbered objects carry with lookup (through the cache,
// and live), and adds it to mgr: it trims every workspace's journal on the
// leader. what names the series in errors.
func addAllocator(mgr ctrl.Manager, clk clock.PassiveClock, what, sequence string,
	lookup func(client.Reader) numbering.InvoiceLookup) (*numbering.Allocator, error) {
	allocator, err := numbering.New(numbering.Options{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Cached:    lookup(mgr.GetClient()),
		Live:      lookup(mgr.GetAPIReader()),
		Now:       clk.Now,
		Sequence:  sequence,
	})
	if err != nil {
		return nil, fmt.Errorf("creating the %s allocator: %w", what, err)
	}
	if err := mgr.Add(allocator); err != nil {
		return nil, fmt.Errorf("adding the %s allocator: %w", what, err)
	}
	return allocator, nil
}

// sequenceOf is the sequence written on an invoice's status, 0 while none is.
func sequenceOf(inv *billingv1.Invoice) int64 {
	if inv.Status.Sequence == nil {
		return 0
	}
	return *inv.Status.Sequence
}
