package postback

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/postbackevents"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// everyEvent runs each builder over every status its record can have,
// those that send nothing included, and returns the events they made.
func everyEvent(t *testing.T) []Event {
	t.Helper()
	url := ptr("https://loja.example/pix")
	var evs []Event
	add := func(ev Event, ok bool) {
		if ok {
			evs = append(evs, ev)
		}
	}
	for _, s := range storage.ChargeStatuses {
		c := testCharge()
		c.Status = s
		add(ForCharge(c))
	}
	for _, k := range storage.TransferKinds {
		for _, s := range storage.TransferStatuses {
			add(ForTransfer(storage.Transfer{Kind: k, ID: uuid.New(), IntegratorID: 7, Status: s, ChargePixID: "charge-pix-id", PostbackURL: url}))
		}
	}
	due := time.Now()
	for _, s := range storage.TransferStatuses {
		for _, late := range []bool{false, true} {
			add(ForDeadline(storage.Transfer{Kind: storage.KindWithdrawal, ID: uuid.New(), IntegratorID: 7, Status: s, PostbackURL: url, DueAt: &due}, late))
		}
	}
	for _, s := range storage.BatchStatuses {
		add(ForBatch(storage.WithdrawalBatch{ID: uuid.New(), IntegratorID: 7, Status: s, PostbackURL: url}))
	}
	for _, s := range storage.InfractionStatuses {
		add(ForInfraction(storage.Infraction{ID: uuid.New(), IntegratorID: 7, Status: s}, testCharge()))
	}
	r := storage.Recurrence{ID: uuid.New(), IntegratorID: 7, PostbackURL: url}
	for _, s := range []recurrence.RecurrenceStatus{recurrence.RecurrenceCreated, recurrence.RecurrenceApproved, recurrence.RecurrenceRejected,
		recurrence.RecurrenceExpired, recurrence.RecurrenceCancelled, recurrence.RecurrenceCompleted, recurrence.RecurrenceFailed} {
		r.Status = s
		add(ForRecurrence(r))
	}
	c := storage.Cycle{ID: uuid.New(), N: 1}
	for _, s := range []recurrence.CycleStatus{recurrence.CycleScheduled, recurrence.CycleCreated, recurrence.CycleActive, recurrence.CyclePaid,
		recurrence.CycleExpired, recurrence.CycleRejected, recurrence.CycleCancelled, recurrence.CycleFailed} {
		c.Status = s
		add(ForCycle(c, r))
	}
	for _, s := range []recurrence.AttemptStatus{recurrence.AttemptRequested, recurrence.AttemptScheduled, recurrence.AttemptPaid,
		recurrence.AttemptRejected, recurrence.AttemptExpired, recurrence.AttemptCancelled} {
		add(ForAttempt(storage.CycleAttempt{ID: uuid.New(), Seq: 1, Status: s}, c, r))
	}
	return evs
}

// The catalog integrators read (GET /api/v1/webhook-events) is exactly
// what the builders post: every event they can make is listed under its
// body's transactionType, and every listed status is made by some record.
func TestCatalogMatchesBuilders(t *testing.T) {
	type key struct{ txType, resource, status string }
	listed := map[key]bool{}
	for _, ty := range postbackevents.Catalog {
		for _, s := range ty.Statuses {
			listed[key{ty.TransactionType, ty.ResourceType, s.Name}] = true
		}
	}
	made := map[key]bool{}
	for _, ev := range everyEvent(t) {
		var b struct {
			RequestBody struct {
				TransactionType string `json:"transactionType"`
				Status          string `json:"status"`
			} `json:"requestBody"`
		}
		if err := json.Unmarshal(ev.Body, &b); err != nil {
			t.Fatal(err)
		}
		if b.RequestBody.Status != ev.Name {
			t.Errorf("%s %s: the body says status %q", ev.ResourceType, ev.Name, b.RequestBody.Status)
		}
		k := key{b.RequestBody.TransactionType, ev.ResourceType, ev.Name}
		made[k] = true
		if !listed[k] {
			t.Errorf("postback %+v is not in the catalog", k)
		}
	}
	for k := range listed {
		if !made[k] {
			t.Errorf("the catalog lists %+v, which no builder makes", k)
		}
	}
}
