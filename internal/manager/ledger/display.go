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

package ledger

import (
	billingv1 "github.com/invoicing-dev/invoicing/api/v1"
	"github.com/invoicing-dev/invoicing/internal/billing"
)

// The status.display of the ledger's kinds: their money for people, as
// `kubectl get` shows it, written with billing.Money like a customer's
// credit summary. Each kind's status function sets it with the amounts it
// derives from.

// invoiceDisplay is inv's money for people: its total once computed, what
// is left to pay once it has a balance; nil when it has neither.
func invoiceDisplay(inv *billingv1.Invoice) *billingv1.InvoiceDisplay {
	currency := billing.InvoiceCurrency(inv)
	display := billingv1.InvoiceDisplay{}
	if total := inv.Status.Total; total != nil {
		display.Total = billing.Money(currency, *total)
	}
	if balance := inv.Status.Balance; balance != nil {
		display.AmountRemaining = billing.Money(currency, balance.AmountRemaining)
	}
	if display == (billingv1.InvoiceDisplay{}) {
		return nil
	}
	return &display
}

// creditNoteDisplay is a credit note's total, in currency, for people; nil
// while it has none.
func creditNoteDisplay(currency string, total *int64) *billingv1.CreditNoteDisplay {
	if total == nil {
		return nil
	}
	return &billingv1.CreditNoteDisplay{Total: billing.Money(currency, *total)}
}

// amountDisplay is the amount of a payment, credit application, refund or
// write-off, in currency, for people.
func amountDisplay(currency string, amount int64) *billingv1.AmountDisplay {
	return &billingv1.AmountDisplay{Amount: billing.Money(currency, amount)}
}

// keptAmount is display when a record has one, else amount in currency;
// nil without a currency or an amount.
func keptAmount(display *billingv1.AmountDisplay, currency string, amount *int64) *billingv1.AmountDisplay {
	if display != nil || currency == "" || amount == nil {
		return display
	}
	return amountDisplay(currency, *amount)
}
