package storage_test

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func TestKeys(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	key, creds, err := db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID, Scopes: []string{storage.ScopeBalanceRead},
		IPAllowlist: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(creds.PublicID, ".") || strings.Contains(creds.Secret, ".") {
		t.Fatalf("credentials must not contain the separator: %+v", creds)
	}
	got, owner, err := db.AuthenticateKey(ctx, creds.PublicID, creds.Secret)
	if err != nil || got.ID != key.ID || got.IntegratorID != in.ID {
		t.Fatalf("authenticate = %+v, %v", got, err)
	}
	if owner.ID != in.ID || owner.CashIn != in.CashIn || owner.CashOut != in.CashOut || owner.Email != in.Email {
		t.Fatalf("authenticated integrator = %+v, want %+v", owner, in)
	}
	if !got.HasScope(storage.ScopeBalanceRead) || got.HasScope(storage.ScopeChargesWrite) {
		t.Fatalf("scopes = %v", got.Scopes)
	}
	if !got.AllowsIP(netip.MustParseAddr("10.1.2.3")) || got.AllowsIP(netip.MustParseAddr("192.168.0.1")) ||
		!got.AllowsIP(netip.MustParseAddr("::ffff:10.1.2.3")) {
		t.Fatal("allowlist not applied")
	}

	var stored []byte
	_ = db.Pool().QueryRow(ctx, `SELECT secret_hash FROM api_keys WHERE id = $1`, key.ID).Scan(&stored)
	if strings.Contains(string(stored), creds.Secret) {
		t.Fatal("secret stored in clear")
	}

	for name, c := range map[string][2]string{
		"wrong secret":   {creds.PublicID, creds.Secret + "x"},
		"unknown key":    {"pk_nosuchkey", creds.Secret},
		"empty":          {"", ""},
		"secret of none": {creds.PublicID, ""},
	} {
		if _, _, err := db.AuthenticateKey(ctx, c[0], c[1]); !errors.Is(err, storage.ErrInvalidCredentials) {
			t.Errorf("%s: %v, want ErrInvalidCredentials", name, err)
		}
	}
	if err := db.RevokeKey(ctx, creds.PublicID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.AuthenticateKey(ctx, creds.PublicID, creds.Secret); !errors.Is(err, storage.ErrInvalidCredentials) {
		t.Fatalf("revoked key: %v", err)
	}
	if _, _, err := db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID, Scopes: []string{"charges:delete"}}); !errors.Is(err, storage.ErrInvalidScope) {
		t.Fatalf("bad scope: %v", err)
	}
}

func TestIntegratorEmailIsUnique(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	_, _, err := db.CreateIntegrator(context.Background(), storage.NewIntegrator{Name: "x", Email: strings.ToUpper(in.Email), CashIn: in.CashIn, CashOut: in.CashOut})
	if !errors.Is(err, storage.ErrEmailTaken) {
		t.Fatalf("duplicate e-mail: %v", err)
	}
}
