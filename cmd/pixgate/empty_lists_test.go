package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// An empty list printed its header alone, which reads as a command that
// failed half-way. Each list command now says the list is empty and what
// would fill it; --json still prints an empty list.
func TestEmptyListsSaySoAndWhatWouldFillThem(t *testing.T) {
	p := newPixgate(t)
	say := func(want string, args ...string) {
		t.Helper()
		code, out, errs := p.run(args...)
		if code != 0 || out != want+"\n" {
			t.Errorf("pixgate %s: exit %d, stdout %q, stderr %q; want %q", strings.Join(args, " "), code, out, errs, want)
		}
	}
	say("no integrators yet: pixgate integrator create adds one", "integrator", "list")
	say("no withdrawal or refund is flagged for an operator: the reconciler flags one the provider no longer knows after sending it again (docs/operations.md, Stuck transfers)",
		"transfer", "list")

	var in struct{ ID int64 }
	p.json(&in, "integrator", "create", "--name", "Loja Vazia", "--email", "vazia@example.com")
	id := fmt.Sprint(in.ID)
	say("no postbacks for integrator "+id+": one is sent when a charge, withdrawal or refund that named a postbackUrl changes status",
		"postbacks", "list", "--integrator", id)
	conn, err := pgx.Connect(context.Background(), p.env["PIXGATE_DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `DELETE FROM api_keys WHERE integrator_id = $1`, in.ID); err != nil {
		t.Fatal(err)
	}
	say("integrator "+id+" has no API keys: pixgate key create --integrator "+id+" makes one", "key", "list", "--integrator", id)

	var keys struct{ Keys []any }
	p.json(&keys, "key", "list", "--integrator", id)
	if keys.Keys == nil || len(keys.Keys) != 0 {
		t.Errorf("key list --json: %+v, want an empty list", keys)
	}

	// A postback no worker has tried yet: its attempts.
	ctx := context.Background()
	db, err := storage.Open(ctx, storage.Config{URL: p.env["PIXGATE_DATABASE_URL"], MaxConns: storagetest.SidePool})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pb := uuid.Must(uuid.NewV7())
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		return tx.WritePostback(ctx, storage.NewPostback{ID: pb, IntegratorID: in.ID, ResourceType: "charge", ResourceID: uuid.New(),
			Event: "PAID", URL: "https://loja.example/pix", Body: []byte(`{"requestBody":{"status":"PAID"}}`),
			Outbox: storage.OutboxMessage{Type: "postback:deliver", ID: "postback:deliver:" + pb.String(), Payload: []byte(`{}`)}})
	}); err != nil {
		t.Fatal(err)
	}
	code, out, errs := p.run("postbacks", "show", pb.String())
	if want := "no delivery attempt yet: a running worker makes the first shortly after the postback is created\n"; code != 0 ||
		!strings.HasSuffix(out, want) || strings.Contains(out, "ATTEMPT") {
		t.Errorf("postbacks show: exit %d, stdout %q, stderr %q; want it to end %q", code, out, errs, want)
	}
}
