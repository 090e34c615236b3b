package storage_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func addProvider(t *testing.T, db *storage.DB, name string) storage.Provider {
	t.Helper()
	p, err := db.AddProvider(context.Background(), storage.Provider{Name: name, Kind: "family", URL: "http://127.0.0.1:1",
		ClientID: "id", ClientSecretRef: "env:SECRET_OF_" + name})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A provider record is added enabled, keeps no secret, is refused a
// reserved or malformed name, a second time, or a secret that is not a
// reference; update and disable change it, and Providers lists them all.
func TestProviderRecords(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	a := addProvider(t, db, "a")
	if !a.Enabled || a.ClientSecretRef != "env:SECRET_OF_a" {
		t.Fatalf("added %+v", a)
	}
	for _, tc := range []struct {
		p    storage.Provider
		want error
	}{
		{storage.Provider{Name: "a", Kind: "family", URL: "u"}, storage.ErrProviderExists},
		{storage.Provider{Name: "default", Kind: "family", URL: "u"}, storage.ErrProviderName},
		{storage.Provider{Name: "Bad Name", Kind: "family", URL: "u"}, storage.ErrProviderName},
		{storage.Provider{Name: "b", Kind: "family", URL: "u", ClientSecretRef: "hunter2"}, storage.ErrProviderSecret},
		{storage.Provider{Name: "b", Kind: "family", URL: "u", ClientSecretRef: "vault:x"}, storage.ErrProviderSecret},
	} {
		if _, err := db.AddProvider(ctx, tc.p); !errors.Is(err, tc.want) {
			t.Errorf("AddProvider(%+v) = %v, want %v", tc.p, err, tc.want)
		}
	}
	addProvider(t, db, "b")
	a.URL, a.ClientSecretRef, a.PixKey = "http://127.0.0.1:2", "file:/run/secrets/a", "key@example.com"
	updated, err := db.UpdateProvider(ctx, a)
	if err != nil || updated.URL != a.URL || updated.ClientSecretRef != a.ClientSecretRef || updated.PixKey != a.PixKey {
		t.Fatalf("UpdateProvider = %+v, %v", updated, err)
	}
	if _, err := db.UpdateProvider(ctx, storage.Provider{Name: "nope", Kind: "family", URL: "u"}); !errors.Is(err, storage.ErrUnknownProvider) {
		t.Errorf("UpdateProvider(unknown) = %v", err)
	}
	if p, err := db.SetProviderEnabled(ctx, "b", false); err != nil || p.Enabled {
		t.Fatalf("disable = %+v, %v", p, err)
	}
	ps, err := db.Providers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Name+map[bool]string{true: "+", false: "-"}[p.Enabled])
	}
	if fmt.Sprint(got) != "[a+ b-]" {
		t.Errorf("Providers = %v, want [a+ b-]", got)
	}
}

// RouteFor answers the default provider alone while no route is set, then
// the default route, then the integrator's own; a disabled provider leaves
// every route at once in the process that disabled it.
func TestRouteFor(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, other := newIntegrator(t, db), newIntegrator(t, db)
	addProvider(t, db, "a")
	addProvider(t, db, "b")
	want := func(id int64, charges []storage.RouteStep, withdrawals []string) {
		t.Helper()
		r, err := db.RouteFor(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(r.Charges) != fmt.Sprint(charges) || fmt.Sprint(r.Withdrawals) != fmt.Sprint(withdrawals) {
			t.Errorf("RouteFor(%d) = %v %v, want %v %v", id, r.Charges, r.Withdrawals, charges, withdrawals)
		}
	}
	want(in.ID, []storage.RouteStep{{Provider: "default"}}, []string{"default"})

	if _, err := db.SetRoute(ctx, storage.Route{Charges: []storage.RouteStep{{Provider: "b"}, {Provider: "default"}},
		Withdrawals: []string{"b"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetRoute(ctx, storage.Route{IntegratorID: &in.ID,
		Charges: []storage.RouteStep{{Provider: "a", Weight: 80}, {Provider: "b", Weight: 20}}, Withdrawals: []string{"b", "a"}}); err != nil {
		t.Fatal(err)
	}
	want(in.ID, []storage.RouteStep{{Provider: "a", Weight: 80}, {Provider: "b", Weight: 20}}, []string{"b", "a"})
	want(other.ID, []storage.RouteStep{{Provider: "b"}, {Provider: "default"}}, []string{"b"})

	if _, err := db.SetProviderEnabled(ctx, "b", false); err != nil {
		t.Fatal(err)
	}
	want(in.ID, []storage.RouteStep{{Provider: "a", Weight: 80}}, []string{"a"})
	want(other.ID, []storage.RouteStep{{Provider: "default"}}, []string{})
	stored, found, err := db.StoredRoute(ctx, &in.ID)
	if err != nil || !found || len(stored.Withdrawals) != 2 {
		t.Errorf("StoredRoute = %+v, %v, %v; want the route as set, b included", stored, found, err)
	}
	if _, found, err := db.StoredRoute(ctx, &other.ID); found || err != nil {
		t.Errorf("StoredRoute(no route) = %v, %v", found, err)
	}
}

// SetRoute refuses, naming the list, an unknown provider, a provider
// twice, mixed or negative weights and an empty list; an unknown
// integrator is ErrNotFound. Nothing is written.
func TestSetRouteRefusals(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	addProvider(t, db, "a")
	steps := func(ws ...int) []storage.RouteStep {
		var s []storage.RouteStep
		for i, w := range ws {
			s = append(s, storage.RouteStep{Provider: []string{"a", "default"}[i], Weight: w})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		r    storage.Route
		list string
	}{
		{"unknown charge provider", storage.Route{Charges: []storage.RouteStep{{Provider: "zz"}}, Withdrawals: []string{"a"}}, "charges"},
		{"unknown withdrawal provider", storage.Route{Charges: steps(0), Withdrawals: []string{"zz"}}, "withdrawals"},
		{"twice", storage.Route{Charges: []storage.RouteStep{{Provider: "a"}, {Provider: "a"}}, Withdrawals: []string{"a"}}, "charges"},
		{"withdrawal twice", storage.Route{Charges: steps(0), Withdrawals: []string{"a", "a"}}, "withdrawals"},
		{"mixed weights", storage.Route{Charges: steps(80, 0), Withdrawals: []string{"a"}}, "charges"},
		{"negative weight", storage.Route{Charges: steps(-1), Withdrawals: []string{"a"}}, "charges"},
		// Weights are stored as 32-bit integers: one past their range
		// would be stored negative (no share) or wrapped to another.
		{"weight past the column", storage.Route{Charges: steps(1<<31, 1), Withdrawals: []string{"a"}}, "charges"},
		{"weight wrapping to 1", storage.Route{Charges: steps(1<<32+1, 1), Withdrawals: []string{"a"}}, "charges"},
		{"weight past the limit", storage.Route{Charges: steps(storage.MaxRouteWeight+1, 1), Withdrawals: []string{"a"}}, "charges"},
		{"no charges", storage.Route{Withdrawals: []string{"a"}}, "charges"},
		{"no withdrawals", storage.Route{Charges: steps(0)}, "withdrawals"},
	} {
		r := tc.r
		r.IntegratorID = &in.ID
		_, err := db.SetRoute(ctx, r)
		var re *storage.RouteError
		if !errors.As(err, &re) || re.List != tc.list {
			t.Errorf("%s: SetRoute = %v, want a RouteError on %s", tc.name, err, tc.list)
		}
	}
	if _, found, _ := db.StoredRoute(ctx, &in.ID); found {
		t.Error("a refused route was written")
	}
	unknown := int64(1 << 40)
	if _, err := db.SetRoute(ctx, storage.Route{IntegratorID: &unknown, Charges: steps(0), Withdrawals: []string{"a"}}); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("SetRoute(unknown integrator) = %v, want ErrNotFound", err)
	}
}

// Every charge and transfer records its provider: the one it was created
// for (the default one when none is named), the one that issued a charge
// after a failover, and a refund's charge's.
func TestRecordsKeepTheirProvider(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	addProvider(t, db, "a")
	addProvider(t, db, "b")
	if _, err := db.CreditWallet(ctx, in.ID, 10000, "seed"); err != nil {
		t.Fatal(err)
	}
	nw := newWithdrawal(in.ID, 100, 0, "w1")
	nw.Provider = "b"
	w, _, err := db.CreateWithdrawal(ctx, nw)
	if err != nil || w.Provider != "b" {
		t.Fatalf("CreateWithdrawal = %q, %v", w.Provider, err)
	}
	if w, err = db.TransferByID(ctx, storage.KindWithdrawal, w.ID); err != nil || w.Provider != "b" {
		t.Fatalf("read withdrawal provider = %q, %v", w.Provider, err)
	}
	if w, _, err = db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 100, 0, "w2")); err != nil || w.Provider != storage.DefaultProvider {
		t.Fatalf("unnamed provider = %q, %v", w.Provider, err)
	}

	id, _ := uuid.NewV7()
	h := sha256.Sum256(id[:])
	c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: "c1", Amount: 10000, Fee: 150,
		Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:], Provider: "a"})
	if err != nil || c.Provider != "a" {
		t.Fatalf("CreateCharge = %q, %v", c.Provider, err)
	}
	c, err = db.IssueCharge(ctx, c.ID, storage.ChargeIssue{PixID: "pix-" + id.String(), QRCode: "qr", ExpiresAt: time.Now().Add(time.Hour),
		Provider: "b"})
	if err != nil || c.Provider != "b" {
		t.Fatalf("IssueCharge by b = %q, %v", c.Provider, err)
	}
	err = db.InTx(ctx, func(tx *storage.Tx) error {
		c, _, err = tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: *c.PixID, At: time.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := db.CreateRefund(ctx, newRefund(in, c, 500, "r1"))
	if err != nil || f.Provider != "b" {
		t.Fatalf("CreateRefund = %q, %v; want the charge's provider", f.Provider, err)
	}
	if f, err = db.TransferByID(ctx, storage.KindRefund, f.ID); err != nil || f.Provider != "b" {
		t.Fatalf("read refund provider = %q, %v", f.Provider, err)
	}
}
