package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A worker keeps integrators' signing secrets in memory, and a change to
// the integrator reaches it through the key cache's notification: the new
// secret signs from then on, long before the cache's hour is up.
func TestWebhookSecretIsCachedUntilTheIntegratorChanges(t *testing.T) {
	ctx := context.Background()
	url := storagetest.NewDatabaseURL(t)
	db := caching(t, url)
	in := newIntegrator(t, db)
	if s, err := db.WebhookSecret(ctx, in.ID); err != nil || s != in.WebhookSecret {
		t.Fatalf("WebhookSecret = %q, %v; want %q", s, err, in.WebhookSecret)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	// Changed with the notifying trigger off: the cached secret stands.
	if _, err := conn.Exec(ctx, `SET session_replication_role = replica`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE integrators SET webhook_secret = 'whsec_unseen' WHERE id = $1`, in.ID); err != nil {
		t.Fatal(err)
	}
	if s, _ := db.WebhookSecret(ctx, in.ID); s != in.WebhookSecret {
		t.Fatalf("WebhookSecret = %q: not served from memory", s)
	}
	if _, err := conn.Exec(ctx, `SET session_replication_role = origin`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE integrators SET webhook_secret = 'whsec_rotated' WHERE id = $1`, in.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, err := db.WebhookSecret(ctx, in.ID)
		if err == nil && s == "whsec_rotated" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("WebhookSecret = %q, %v after the change", s, err)
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := db.WebhookSecret(ctx, 1<<40); err != storage.ErrNotFound {
		t.Fatalf("an unknown integrator: %v", err)
	}
}
