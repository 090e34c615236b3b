package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// Whether an integrator's deliveries may be held is answered from memory
// (nothing was ever paused: no gate to ask) until a pause, whose commit
// reaches the cache through its notification; and a resumed endpoint still
// may hold its postbacks (they go in order).
func TestMayHoldDeliveriesFollowsThePause(t *testing.T) {
	ctx := context.Background()
	db := caching(t, storagetest.NewDatabaseURL(t))
	in, other := newIntegrator(t, db), newIntegrator(t, db)
	for _, id := range []int64{in.ID, other.ID} {
		if may, err := db.MayHoldDeliveries(ctx, id); err != nil || may {
			t.Fatalf("never paused: %v %v", may, err)
		}
	}
	if _, err := db.PauseEndpoint(ctx, in.ID, shopURL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the pause seen", func() bool { may, err := db.MayHoldDeliveries(ctx, in.ID); return err == nil && may })
	if may, _ := db.MayHoldDeliveries(ctx, other.ID); may {
		t.Fatal("another integrator's deliveries are held by this one's pause")
	}
	if _, _, err := db.ResumeEndpoint(ctx, in.ID, shopURL, nil); err != nil {
		t.Fatal(err)
	}
	if may, _ := db.MayHoldDeliveries(ctx, in.ID); !may {
		t.Fatal("a resumed endpoint's postbacks no longer go through the gate that orders them")
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
