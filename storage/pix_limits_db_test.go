package storage_test

import (
	"context"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A provider's per-PIX limits are stored with its record, cleared with
// zero, and reach every route at once in the process that set them.
func TestProviderPixLimitReachesTheRoutes(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	b := addProvider(t, db, "b")
	if _, err := db.SetRoute(ctx, storage.Route{Charges: []storage.RouteStep{{Provider: "b"}}, Withdrawals: []string{"b", storage.DefaultProvider}}); err != nil {
		t.Fatal(err)
	}
	if r, err := db.RouteFor(ctx, 1); err != nil || len(r.Limits) != 0 {
		t.Fatalf("route %+v, %v; want no limits", r, err)
	}
	b.Limit = storage.PixLimit{Max: 1500000, Night: 100000}
	up, err := db.UpdateProvider(ctx, b)
	if err != nil || up.Limit != b.Limit {
		t.Fatalf("updated %+v, %v", up.Limit, err)
	}
	r, err := db.RouteFor(ctx, 1)
	if err != nil || r.Limits["b"] != b.Limit {
		t.Fatalf("route limits %+v, %v; want b's", r.Limits, err)
	}
	got, err := db.ProviderByName(ctx, "b")
	if err != nil || got.Limit != b.Limit {
		t.Fatalf("read %+v, %v", got.Limit, err)
	}
	b.Limit = storage.PixLimit{}
	if up, err = db.UpdateProvider(ctx, b); err != nil || up.Limit != (storage.PixLimit{}) {
		t.Fatalf("cleared %+v, %v", up.Limit, err)
	}
	if r, err = db.RouteFor(ctx, 1); err != nil || len(r.Limits) != 0 {
		t.Fatalf("route limits %+v after clearing, %v", r.Limits, err)
	}
}

// The default provider, configured by the environment, has its per-PIX
// limit from there; a stored provider named default would win.
func TestDefaultProviderPixLimitFromTheEnvironment(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	if r, err := db.RouteFor(ctx, 1); err != nil || len(r.Limits) != 0 {
		t.Fatalf("route %+v, %v; want no limits", r, err)
	}
	l := storage.PixLimit{Max: 1500000}
	db.SetDefaultPixLimit(l)
	if r, err := db.RouteFor(ctx, 1); err != nil || r.Limits[storage.DefaultProvider] != l {
		t.Fatalf("route limits %+v, %v; want the default's %+v", r.Limits, err, l)
	}
}
