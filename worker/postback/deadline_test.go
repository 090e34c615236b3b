package postback

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/docs/openapitest"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// The payout deadline postbacks match their callback in docs/openapi.yaml,
// and none is made for a final withdrawal or one without a due_at.
func TestDeadlinePostbacks(t *testing.T) {
	doc := openapitest.Load(t)
	due := paidAt.Add(2 * time.Hour)
	w := storage.Transfer{Kind: storage.KindWithdrawal, ID: uuid.New(), IntegratorID: 7, Amount: money.FromReais(250, 0), Fee: money.FromReais(0, 50),
		Status: storage.TransferProcessing, ExternalID: ptr("premio-77"), DueAt: &due, CreatedAt: paidAt, PostbackURL: ptr("https://loja.example/pix"),
		CreditParty: storage.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "b@example.com", TaxID: "52998224725"}}
	for _, late := range []bool{false, true} {
		ev, ok := ForDeadline(w, late)
		if !ok || ev.ResourceType != DeadlineResource || ev.ResourceID != w.ID {
			t.Fatalf("late %v: %+v, %v", late, ev, ok)
		}
		openapitest.Webhook(t, doc, "payoutDeadline", ev.Body)
	}
	done := w
	done.Status = storage.TransferCompleted
	noDue := w
	noDue.DueAt = nil
	for _, x := range []storage.Transfer{done, noDue} {
		if _, ok := ForDeadline(x, true); ok {
			t.Errorf("a deadline postback for %+v", x)
		}
	}
}
