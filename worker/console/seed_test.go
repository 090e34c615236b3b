package console_test

import (
	"context"
	"crypto/sha256"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

// hookURL is the seeded integrator's postback endpoint.
const hookURL = "https://loja.example/pix"

// seedStuck makes an integrator with money, a withdrawal of theirs sent
// and lost, flagged for an operator as the reconciler flags one, and
// their endpoint with a postback written to it: what the transfers and
// endpoints pages act on.
func seedStuck(t *testing.T, db *storage.DB) (in storage.Integrator, w storage.Transfer) {
	t.Helper()
	ctx := context.Background()
	in, _, err := db.CreateIntegrator(ctx, storage.NewIntegrator{Name: "Loja", Email: uuid.NewString() + "@example.com",
		CashIn: money.Percent(15000), CashOut: money.Fixed(50)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreditWallet(ctx, in.ID, money.FromReais(100, 0), "test float"); err != nil {
		t.Fatal(err)
	}
	id, _ := uuid.NewV7()
	hash := sha256.Sum256([]byte(id.String()))
	hook := hookURL
	w, _, err = db.CreateWithdrawal(ctx, storage.NewWithdrawal{ID: id, IntegratorID: in.ID, Amount: 2500, Fee: 50, RequestHash: hash[:],
		PostbackURL: &hook, CreditParty: storage.CreditParty{Name: "Fulano de Tal", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
		Outbox: []storage.OutboxMessage{storage.OutboxMessage(tasks.WithdrawalSendMessage(id, 0))}})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, w.ID, "lost-twice", ""); err != nil {
		t.Fatal(err)
	}
	if flagged, err := db.FlagTransfer(ctx, storage.KindWithdrawal, w.ID, "the provider does not know it after 1 resend"); err != nil || !flagged {
		t.Fatalf("flag: %v %v", flagged, err)
	}
	return in, w
}
