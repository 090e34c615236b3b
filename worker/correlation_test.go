package worker

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// A provider that names a charge by PixGate's id (woovi's correlationID)
// names it in one of two forms: the hyphenated UUID charges were made
// under before, kept as their pix_id, and the 32 characters without
// hyphens of those made since. A notification of either finds its charge
// (by pix_id), and the provider's answer is matched to it (PixGate's id
// read from either form, cross-checked with the pix_id).
func TestChargeNotifiedUnderEitherFormOfPixGateID(t *testing.T) {
	for name, form := range map[string]func(uuid.UUID) string{
		"hyphenated, as before": func(id uuid.UUID) string { return id.String() },
		"32 characters":         func(id uuid.UUID) string { return strings.ReplaceAll(id.String(), "-", "") },
	} {
		t.Run(name, func(t *testing.T) {
			st := newFakeStore()
			c := newPendingCharge("")
			pixID := form(c.ID)
			c.PixID = &pixID
			st.charges[c.ID] = c
			st.events[1] = storage.ProviderEvent{ID: 1, TransactionType: string(providerclient.KindCharge), TransactionID: pixID,
				ExternalID: pixID, Status: contract.StatusPaid}
			p := &fakeProvider{txns: map[string]*family.Transaction{pixID: {TransactionType: contract.TypeReceivePix, TransactionID: pixID,
				ExternalID: pixID, Status: contract.StatusPaid, Amount: c.Amount, EndToEndID: "E99999999202601011200abcdefghijk",
				CreditParty: &contract.Party{Name: "Beltrano", TaxID: "12345678909"}}}}
			w, _ := fakeWorker(st, p)
			task, _ := tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: 1, TransactionType: string(providerclient.KindCharge),
				TransactionID: pixID}, 0).Task()
			if err := w.applyProviderEvent(context.Background(), task); err != nil {
				t.Fatal(err)
			}
			if got := st.events[1]; got.Outcome == nil || *got.Outcome != "applied: charge paid" || st.charges[c.ID].Status != storage.ChargePaid {
				t.Fatalf("event %+v, charge %s", got, st.charges[c.ID].Status)
			}
		})
	}
}
