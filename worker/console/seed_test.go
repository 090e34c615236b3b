package console_test

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

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
	due := time.Now().Add(-time.Hour) // late for its payout deadline too
	w, _, err = db.CreateWithdrawal(ctx, storage.NewWithdrawal{ID: id, IntegratorID: in.ID, Amount: 2500, Fee: 50, RequestHash: hash[:], DueAt: &due,
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

// paidCharge is a charge of the integrator's, paid now.
func paidCharge(t *testing.T, db *storage.DB, in storage.Integrator, amount money.Money) storage.Charge {
	t.Helper()
	ctx := context.Background()
	id, _ := uuid.NewV7()
	h := sha256.Sum256(id[:])
	c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: id.String(), Amount: amount,
		Fee: in.CashIn.Compute(amount), Payer: storage.Payer{Name: "Beltrano", Document: "52998224725"}, RequestHash: h[:]})
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *storage.Tx) (err error) {
		c, _, err = tx.MarkChargePaid(ctx, id, storage.Settlement{PixID: "E-paid-" + id.String()[24:], At: time.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dispute opens an infraction of amount on the charge, due in a week.
func dispute(t *testing.T, db *storage.DB, c storage.Charge, amount money.Money) (inf storage.Infraction) {
	t.Helper()
	id, _ := uuid.NewV7()
	if err := db.InTx(context.Background(), func(tx *storage.Tx) (err error) {
		inf, _, err = tx.OpenInfraction(context.Background(), storage.NewInfraction{ID: id, ChargeID: c.ID, ProviderID: "inf-" + id.String()[24:],
			Amount: amount, Reason: "golpe", ReportedAt: time.Now(), DueAt: time.Now().Add(7 * 24 * time.Hour)})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return inf
}

// seedMED opens an infraction on a paid charge of in's, all of it
// blocked, and makes a second integrator owe 70.00: of its charge of
// 100.00, 68.50 left in a withdrawal before an infraction of all of it
// was agreed, so its return took 70.00 more than could be blocked. What
// the infractions page lists.
func seedMED(t *testing.T, db *storage.DB, in storage.Integrator) (open storage.Infraction, owing storage.Integrator) {
	t.Helper()
	ctx := context.Background()
	open = dispute(t, db, paidCharge(t, db, in, 12000), 12000)
	owing, _, err := db.CreateIntegrator(ctx, storage.NewIntegrator{Name: "Mercado", Email: uuid.NewString() + "@example.com",
		CashIn: money.Percent(15000), CashOut: money.Fixed(50)})
	if err != nil {
		t.Fatal(err)
	}
	c := paidCharge(t, db, owing, 10000)
	id, _ := uuid.NewV7()
	hash := sha256.Sum256([]byte(id.String()))
	if _, _, err := db.CreateWithdrawal(ctx, storage.NewWithdrawal{ID: id, IntegratorID: owing.ID, Amount: 6800, Fee: 50, RequestHash: hash[:],
		CreditParty: storage.CreditParty{Name: "Fulano de Tal", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
		Outbox:      []storage.OutboxMessage{storage.OutboxMessage(tasks.WithdrawalSendMessage(id, 0))}}); err != nil {
		t.Fatal(err)
	}
	agreed := dispute(t, db, c, 10000)
	retID, _ := uuid.NewV7()
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, _, err := tx.CloseInfraction(ctx, agreed.ID, storage.InfractionClosing{Status: storage.InfractionAgreed, Analysis: "procedente",
			MedReturnID: retID, Outbox: []storage.OutboxMessage{storage.OutboxMessage(tasks.MedReturnSendMessage(retID, 0))}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return open, owing
}
