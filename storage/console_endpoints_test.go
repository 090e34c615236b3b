package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// AllEndpoints lists a paused endpoint before one postbacks went to that
// never was; an endpoint's operator actions are found under its resource
// id, the same for the same integrator and URL.
func TestAllEndpointsAndTheirActions(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	active, paused := newIntegrator(t, db), newIntegrator(t, db)
	createPostback(t, db, active.ID, "PAID")
	createPostback(t, db, paused.ID, "PAID")
	if _, err := db.PauseEndpoint(ctx, paused.ID, shopURL); err != nil {
		t.Fatal(err)
	}
	list, err := db.AllEndpoints(ctx, time.Now().Add(-time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	var mine []storage.WebhookEndpoint
	for _, e := range list {
		if e.IntegratorID == active.ID || e.IntegratorID == paused.ID {
			mine = append(mine, e)
		}
	}
	if len(mine) != 2 || mine[0].IntegratorID != paused.ID || mine[0].Status != storage.EndpointPaused ||
		mine[1].IntegratorID != active.ID || mine[1].Status != storage.EndpointActive || mine[1].URL != shopURL {
		t.Fatalf("endpoints: %+v", mine)
	}
	if later, err := db.AllEndpoints(ctx, time.Now().Add(time.Hour), 1000); err != nil {
		t.Fatal(err)
	} else {
		for _, e := range later {
			if e.IntegratorID == active.ID {
				t.Fatalf("an endpoint with no postback since is listed: %+v", e)
			}
		}
	}

	id := storage.EndpointResourceID(paused.ID, shopURL)
	if id != storage.EndpointResourceID(paused.ID, shopURL) || id == storage.EndpointResourceID(active.ID, shopURL) {
		t.Fatal("an endpoint's resource id is not its own")
	}
	a, err := db.RecordOperatorAction(ctx, storage.OperatorAction{Operator: "ana", Action: "endpoint.pause",
		ResourceType: "webhook_endpoint", ResourceID: id, Reason: "their deploy"})
	if err != nil || a.ID == 0 {
		t.Fatalf("record: %+v %v", a, err)
	}
	if got, err := db.OperatorActions(ctx, id); err != nil || len(got) != 1 || got[0].Operator != "ana" || got[0].LedgerTransactionID != nil {
		t.Fatalf("actions: %+v %v", got, err)
	}
}
