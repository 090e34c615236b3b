package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func TestActiveKey(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	key, creds, err := db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID, Scopes: []string{storage.ScopeBalanceRead}})
	if err != nil {
		t.Fatal(err)
	}
	got, owner, err := db.ActiveKey(ctx, key.ID)
	if err != nil || got.ID != key.ID || got.PublicID != creds.PublicID || !got.HasScope(storage.ScopeBalanceRead) || got.HasScope(storage.ScopeChargesWrite) {
		t.Fatalf("active key = %+v, %v", got, err)
	}
	if owner.ID != in.ID || owner.CashIn != in.CashIn || owner.Email != in.Email {
		t.Fatalf("integrator = %+v, want %+v", owner, in)
	}
	if _, _, err := db.ActiveKey(ctx, key.ID+1000); !errors.Is(err, storage.ErrInvalidCredentials) {
		t.Fatalf("unknown key: %v", err)
	}
	if err := db.RevokeKey(ctx, creds.PublicID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ActiveKey(ctx, key.ID); !errors.Is(err, storage.ErrInvalidCredentials) {
		t.Fatalf("revoked key: %v", err)
	}
}

// The key lookups read the integrator without its settlement hold, so the
// integrator an authenticated request (and the key cache) carried always
// said "no hold". Both lookups return the whole integrator.
func TestKeyLookupsReturnTheWholeIntegrator(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	want, _, err := db.SetCashInHold(ctx, in.ID, 36*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	key, creds, err := db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID})
	if err != nil {
		t.Fatal(err)
	}
	_, byID, err := db.ActiveKey(ctx, key.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, byPair, err := db.AuthenticateKey(ctx, creds.PublicID, creds.Secret)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]storage.Integrator{"ActiveKey": byID, "AuthenticateKey": byPair} {
		if got.CashInHold != want.CashInHold || got.CashIn != want.CashIn || got.CashOut != want.CashOut || got.WebhookSecret != want.WebhookSecret {
			t.Errorf("%s: integrator %+v, want %+v", name, got, want)
		}
	}
}
