package payments

import (
	"bytes"
	"context"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

func TestCreateWithdrawal(t *testing.T) {
	ctx, store := context.Background(), newFakeStore()
	s := New(Config{}, store, nil, nil)
	ext := "saque-1"
	r := WithdrawalRequest{ExternalID: &ext, Amount: 10_000,
		CreditParty: storage.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "b@example.com", TaxID: "52998224725"}}
	for _, tt := range []struct {
		cashOut money.FeeRule
		fee     money.Money
	}{{money.Fixed(50), 50}, {money.Percent(12_345), 123}, {money.Percent(12_355), 124}} {
		w, _, err := s.CreateWithdrawal(ctx, integrator(money.Fixed(0), tt.cashOut), r)
		if err != nil || w.Fee != tt.fee {
			t.Fatalf("cash-out %v: fee %s, %v; want %s", tt.cashOut, w.Fee, err, tt.fee)
		}
	}
	nw := store.withdrawals[0]
	want := tasks.WithdrawalSendMessage(nw.ID, 0)
	if nw.ID.Version() != 7 || nw.IntegratorID != 7 || len(nw.Outbox) != 1 || nw.Outbox[0].ID != want.ID || nw.Outbox[0].Type != tasks.TypeWithdrawalSend {
		t.Fatalf("withdrawal %+v: want a UUIDv7 and its withdrawal:send message", nw)
	}
	if !bytes.Equal(nw.RequestHash, store.withdrawals[1].RequestHash) {
		t.Fatal("the fee is part of the fingerprint")
	}
	other := r
	other.CreditParty.Key = "c@example.com"
	if bytes.Equal(r.fingerprint(), other.fingerprint()) {
		t.Fatal("another key has the same fingerprint")
	}
}
