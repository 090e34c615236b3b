package storage_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// attemptAgo records an attempt of postback p answered code, then dates
// it ago.
func attemptAgo(t *testing.T, db *storage.DB, p storage.Postback, code int, ago time.Duration) {
	t.Helper()
	ctx := context.Background()
	res := storage.PostbackAttemptResult{StatusCode: code, Outcome: storage.OutcomeDelivered}
	if code >= 300 {
		next := time.Now().Add(time.Hour)
		res = storage.PostbackAttemptResult{StatusCode: code, Err: "HTTP 503", Outcome: storage.OutcomeRetry, NextAttemptAt: &next}
	}
	if _, err := db.RecordPostbackAttempt(ctx, p.ID, res); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool().Exec(ctx, `UPDATE postback_attempts SET created_at = now() - $2::interval
		WHERE id = (SELECT max(id) FROM postback_attempts WHERE postback_id = $1)`, p.ID, ago.String()); err != nil {
		t.Fatal(err)
	}
}

// An endpoint whose deliveries all failed for 4 days is disabled; one
// failing for 2 days, one that answered 2xx a day ago, and one paused
// are not. A disabled endpoint holds its postbacks; its resume starts a
// new period, so it is not disabled again at the next check.
func TestDisableFailingEndpoints(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	day := 24 * time.Hour
	failing4, failing2, recovered, paused := newIntegrator(t, db), newIntegrator(t, db), newIntegrator(t, db), newIntegrator(t, db)

	p := createPostback(t, db, failing4.ID, "PAID")
	attemptAgo(t, db, p, 503, 4*day)
	attemptAgo(t, db, p, 503, day)
	attemptAgo(t, db, createPostback(t, db, failing2.ID, "PAID"), 500, 2*day)
	old := createPostback(t, db, recovered.ID, "PAID")
	attemptAgo(t, db, old, 503, 5*day)
	attemptAgo(t, db, createPostback(t, db, recovered.ID, "EXPIRED"), 200, day)
	attemptAgo(t, db, createPostback(t, db, recovered.ID, "REFUNDED"), 503, day/2)
	attemptAgo(t, db, createPostback(t, db, paused.ID, "PAID"), 503, 5*day)
	if _, err := db.PauseEndpoint(ctx, paused.ID, shopURL); err != nil {
		t.Fatal(err)
	}

	got, err := db.DisableFailingEndpoints(ctx, time.Now().Add(-72*time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	mine := map[int64]storage.DisabledEndpoint{}
	for _, d := range got {
		mine[d.IntegratorID] = d
	}
	d, ok := mine[failing4.ID]
	if !ok || len(mine) != 1 || d.Status != storage.EndpointDisabled || d.URL != shopURL || d.Reason == nil ||
		!strings.HasPrefix(*d.Reason, "failing since "+d.FailingSince.UTC().Format("2006-01-02T15:04:05Z")) ||
		time.Since(d.FailingSince) < 4*day-time.Minute {
		t.Fatalf("disabled: %+v (reason %v)", got, d.Reason)
	}
	if g, _ := db.GateDelivery(ctx, failing4.ID, shopURL, p.ID, ""); g != storage.GateHold {
		t.Fatalf("a disabled endpoint's postback: gate %v", g)
	}
	if list, _ := db.Endpoints(ctx, paused.ID); len(list) != 1 || list[0].Status != storage.EndpointPaused {
		t.Fatalf("paused endpoint: %+v", list)
	}

	if _, _, err := db.ResumeEndpoint(ctx, failing4.ID, shopURL, func(p storage.Postback) storage.OutboxMessage {
		return storage.OutboxMessage{Type: "postback:deliver", ID: "resume:" + p.ID.String(), Payload: []byte(`{}`)}
	}); err != nil {
		t.Fatal(err)
	}
	again, err := db.DisableFailingEndpoints(ctx, time.Now().Add(-72*time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range again {
		if d.IntegratorID == failing4.ID {
			t.Fatalf("disabled again right after its resume: %+v", d)
		}
	}
}
