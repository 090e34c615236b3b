package pgstore_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// recurrences is the family connector, extensions on, of r's sandbox.
func recurrences(r *running) providerclient.Connector {
	cfg := r.cfg
	cfg.Extensions = true
	return family.NewConnector(cfg)
}

// A recurrence keeps its terms, its BR Code and the payer's consent across
// a restart; its external_id still finds it, and the payer's side still
// answers it after.
func TestRecurrenceSurvivesARestart(t *testing.T) {
	url, ctx := newStoreURL(t), context.Background()
	a := start(t, url, sandbox.Config{})
	req := providerclient.RecurrenceRequest{
		ID: "0b6f4f0e-rec-1", Journey: recurrence.JourneyQR,
		Payer:    providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"},
		Contract: "4417", Description: "Plano Ouro",
		Calendar: recurrence.Calendar{Periodicity: recurrence.Monthly, Start: due.Today(time.Now()).AddDays(5), Count: 12},
		Amount:   recurrence.Amount{Floor: money.FromReais(10, 0)}, RetryPolicy: recurrence.RetryThreeInSeven,
	}
	created, err := recurrences(a).CreateRecurrence(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := recurrences(a).CreateRecurrence(ctx, providerclient.RecurrenceRequest{ID: "0b6f4f0e-rec-2",
		Journey: recurrence.JourneyPush, Payer: req.Payer, Calendar: req.Calendar, Amount: recurrence.Amount{Fixed: money.FromReais(35, 0)},
		PayerAccount: &providerclient.PayerAccount{ISPB: "91193552", Number: "550689"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.sb.ApproveRecurrence(created.ProviderID, money.FromReais(50, 0)); err != nil {
		t.Fatal(err)
	}
	before, _ := a.sb.Recurrence(created.ProviderID)
	pendingBefore, _ := a.sb.Recurrence(pending.ProviderID)
	a.stop()

	b := start(t, url, sandbox.Config{})
	after, err := b.sb.Recurrence(created.ProviderID)
	if err != nil || !reflect.DeepEqual(after, before) {
		t.Fatalf("after the restart: %+v, %v\nbefore it: %+v", after, err, before)
	}
	if got, _ := b.sb.Recurrence(pending.ProviderID); !reflect.DeepEqual(got, pendingBefore) {
		t.Fatalf("the pending one after the restart: %+v\nbefore it: %+v", got, pendingBefore)
	}
	again, err := recurrences(b).CreateRecurrence(ctx, req)
	if err != nil || again.ProviderID != created.ProviderID || again.Status != recurrence.RecurrenceApproved || again.QRCode != created.QRCode {
		t.Fatalf("same external_id after the restart: %+v, %v", again, err)
	}
	if _, err := b.sb.CancelRecurrence(created.ProviderID, recurrence.PartyPayer, "SLDB"); err != nil {
		t.Fatal(err)
	}
	b.stop()

	c := start(t, url, sandbox.Config{})
	read, err := recurrences(c).ReadRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: created.ProviderID})
	if err != nil || read.Status != recurrence.RecurrenceCancelled || read.CancelledBy != recurrence.PartyPayer ||
		read.EndCode != "SLDB" || read.PayerMax != money.FromReais(50, 0) {
		t.Fatalf("after a second restart: %+v, %v", read, err)
	}
}
