package woovi_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/recurrencetest"
	"github.com/pixgate/pixgate/providerclient/woovi"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// recurrenceRequest is the connectors' tests' recurrence of journey j,
// under a new id.
func recurrenceRequest(j recurrence.Journey, floor money.Money) providerclient.RecurrenceRequest {
	return recurrencetest.Request(newID(), j, floor)
}

// subscriptionsAsked is how many creates reached the sandbox.
func (e *env) subscriptionsAsked() int { return e.v.Checked()["POST "+wooviapi.PathSubscriptions] }

// The connector offers the QR journeys only; the others, and terms Woovi
// cannot hold, are refused before any call (unsupported, proved absent),
// a payer without a document as no provider would take it.
func TestRecurrenceRefusalsBeforeAnyCall(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	want := []recurrence.Journey{recurrence.JourneyQR, recurrence.JourneyQRWithPayment}
	if c := e.conn.Capabilities(); !c.Recurrences || !reflect.DeepEqual(c.Journeys, want) {
		t.Fatalf("capabilities %+v", c)
	}
	for _, j := range []recurrence.Journey{recurrence.JourneyPush, recurrence.JourneyQRWithDuePayment} {
		if _, err := e.conn.CreateRecurrence(ctx, recurrenceRequest(j, 0)); !errors.Is(err, providerclient.ErrUnsupported) ||
			!errors.Is(err, providerclient.ErrProvedAbsent) {
			t.Errorf("journey %s: %v", j, err)
		}
	}
	for name, c := range map[string]struct {
		change func(*providerclient.RecurrenceRequest)
		field  string
	}{
		"a start two days away":        {func(r *providerclient.RecurrenceRequest) { r.Calendar.Start = due.Today(time.Now()).AddDays(2) }, "calendar.start"},
		"a variable amount, no floor":  {func(r *providerclient.RecurrenceRequest) { r.Amount = recurrence.Amount{} }, "amount.floor"},
		"a contract of 30 characters":  {func(r *providerclient.RecurrenceRequest) { r.Contract = strings.Repeat("x", 30) }, "contract"},
		"an unknown retry policy":      {func(r *providerclient.RecurrenceRequest) { r.RetryPolicy = "ALWAYS" }, "retry_policy"},
		"an unknown periodicity":       {func(r *providerclient.RecurrenceRequest) { r.Calendar.Periodicity = "DAILY" }, "calendar.periodicity"},
		"a payer without its document": {func(r *providerclient.RecurrenceRequest) { r.Payer.Document = "" }, "payer"},
	} {
		req := recurrenceRequest(recurrence.JourneyQR, 0)
		c.change(&req)
		_, err := e.conn.CreateRecurrence(ctx, req)
		var pe *providerclient.Error
		unsupported := c.field != "payer"
		if !errors.As(err, &pe) || !strings.HasPrefix(pe.Message, c.field+": ") || !errors.Is(err, providerclient.ErrProvedAbsent) ||
			errors.Is(err, providerclient.ErrUnsupported) != unsupported {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := e.subscriptionsAsked(); n != 0 {
		t.Fatalf("%d subscriptions asked", n)
	}
}

// A QR recurrence is created once however often it is asked, with its
// terms in Woovi's fields and its QR Code, and read back by its globalID
// or PixGate's id; what Woovi refuses is ErrRejected, what it does not
// know ErrNotFound.
func TestRecurrenceCreateAndRead(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	conn := providerclient.Wrap(e.conn, providerclient.Config{Name: "woovi"}) // through every layer
	req := recurrenceRequest(recurrence.JourneyQR, money.FromReais(10, 0))
	rec, err := conn.CreateRecurrence(ctx, req)
	if err != nil || rec.Status != recurrence.RecurrenceCreated || rec.ExternalID != req.ID || rec.QRCode == "" ||
		!strings.HasPrefix(rec.ProviderID, "UGF5bWVudFN1YnNjcmlwdGlvbj") {
		t.Fatalf("create: %+v, %v", rec, err)
	}
	at, err := e.sb.Recurrence(rec.ProviderID)
	if err != nil || at.Journey != string(recurrence.JourneyQR) || at.MinimumAmount != money.FromReais(10, 0) || at.Count != 4 ||
		at.Start != req.Calendar.Start.String() || at.Periodicity != string(recurrence.Weekly) ||
		at.RetryPolicy != string(recurrence.RetryThreeInSeven) || at.Contract != "4417" || at.Description != "Plano Ouro" ||
		at.Payer.Document != "52998224725" {
		t.Fatalf("at the sandbox: %+v, %v", at, err)
	}
	again, err := conn.CreateRecurrence(ctx, req)
	if err != nil || again.ProviderID != rec.ProviderID || again.QRCode != rec.QRCode {
		t.Fatalf("a repeat: %+v, %v", again, err)
	}
	for _, ref := range []providerclient.RecurrenceRef{{ID: req.ID, ProviderID: rec.ProviderID}, {ID: req.ID}} {
		got, err := conn.ReadRecurrence(ctx, ref)
		if err != nil || !reflect.DeepEqual(got, rec) {
			t.Fatalf("read %+v: %+v, %v; want %+v", ref, got, err, rec)
		}
	}

	other := recurrenceRequest(recurrence.JourneyQR, 0)
	other.ID = req.ID // Woovi's correlationID, for another value: not this one
	if _, err := conn.CreateRecurrence(ctx, other); !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("another recurrence under a used correlationID: %v", err)
	}
	if _, err := conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: "nope"}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("read an unknown one: %v", err)
	}
	if err := conn.CancelRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: "nope"}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("cancel an unknown one: %v", err)
	}
	if _, err := conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{}); !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("a read naming nothing: %v", err)
	}
	for _, route := range []string{"POST " + wooviapi.PathSubscriptions, "GET " + wooviapi.PathSubscriptionByID, "PUT " + wooviapi.PathSubscriptionCancel} {
		if e.v.Checked()[route] == 0 {
			t.Errorf("no request to %s was checked against Woovi's document", route)
		}
	}
}

// The payer's answers at the sandbox read back through the connector as
// Woovi tells them: an approval (without the payer's maximum, which Woovi
// does not give), the payer's refusal and their bank's cancel both
// Woovi's REJECTED, read as the payer's cancel; the integrator's cancel
// (twice, without error) CANCELED. Each of the payer's changes is
// notified, and parses into an Event of the recurrence.
func TestRecurrenceLifecycle(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	create := func(floor money.Money) (*providerclient.Recurrence, string) {
		t.Helper()
		req := recurrenceRequest(recurrence.JourneyQR, floor)
		rec, err := e.conn.CreateRecurrence(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return rec, req.ID
	}
	read := func(rec *providerclient.Recurrence) *providerclient.Recurrence {
		t.Helper()
		got, err := e.conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ID: rec.ExternalID, ProviderID: rec.ProviderID})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	approved, approvedID := create(money.FromReais(10, 0))
	if _, err := e.sb.ApproveRecurrence(approved.ProviderID, money.FromReais(50, 0)); err != nil {
		t.Fatal(err)
	}
	if got := read(approved); got.Status != recurrence.RecurrenceApproved || got.PayerMax != 0 || got.QRCode != approved.QRCode {
		t.Fatalf("approved: %+v", got)
	}
	refused, refusedID := create(0)
	if _, err := e.sb.RejectRecurrence(refused.ProviderID, "AP13"); err != nil {
		t.Fatal(err)
	}
	if got := read(refused); got.Status != recurrence.RecurrenceCancelled || got.CancelledBy != recurrence.PartyPayer || got.EndReason == "" {
		t.Fatalf("refused: %+v", got)
	}
	if err := e.conn.CancelRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: refused.ProviderID}); !errors.Is(err, providerclient.ErrRejected) ||
		errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("cancel a refused one: %v", err)
	}
	removed, removedID := create(0)
	if _, err := e.sb.ApproveRecurrence(removed.ProviderID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.CancelRecurrence(removed.ProviderID, recurrence.PartyPayerBank, "FRUD"); err != nil {
		t.Fatal(err)
	}
	if got := read(removed); got.Status != recurrence.RecurrenceCancelled || got.CancelledBy != recurrence.PartyPayer {
		t.Fatalf("removed by the payer's bank: %+v", got)
	}
	for range 2 {
		if err := e.conn.CancelRecurrence(ctx, providerclient.RecurrenceRef{ID: approvedID, ProviderID: approved.ProviderID}); err != nil {
			t.Fatalf("cancel: %v", err)
		}
	}
	if got := read(approved); got.Status != recurrence.RecurrenceCancelled || got.CancelledBy != recurrence.PartyIntegrator {
		t.Fatalf("cancelled: %+v", got)
	}

	kind := providerclient.KindRecurrence
	want := []providerclient.Event{
		{Kind: kind, ProviderID: approved.ProviderID, ID: approvedID, Status: "APPROVED"},
		{Kind: kind, ProviderID: refused.ProviderID, ID: refusedID, Status: "CANCELLED"},
		{Kind: kind, ProviderID: removed.ProviderID, ID: removedID, Status: "APPROVED"},
		{Kind: kind, ProviderID: removed.ProviderID, ID: removedID, Status: "CANCELLED"},
	}
	var got []providerclient.Event
	for i := range want {
		body, h := e.webhook(i)
		evs, err := e.conn.ParseNotification(h, body)
		if err != nil || len(evs) != 1 {
			t.Fatalf("parse %s: %+v, %v", body, evs, err)
		}
		evs[0].Payload = nil
		got = append(got, evs[0])
	}
	if !sameEvents(got, want) {
		t.Fatalf("events %+v\nwant %+v", got, want)
	}
	time.Sleep(100 * time.Millisecond)
	e.mu.Lock()
	defer e.mu.Unlock()
	if n := len(e.bodies); n != len(want) {
		t.Fatalf("%d webhooks, want %d (the receiver's cancel is not notified)", n, len(want))
	}
}

// Woovi's own example of PIX_AUTOMATIC_APPROVED ([Woovi-Hooks]) is an
// Event of the recurrence named by its globalID; a webhook without one is
// refused; an event PixGate does not read claims nothing.
func TestRecurrenceNotificationParses(t *testing.T) {
	conn, err := woovi.New(providerclient.Config{Kind: providerclient.KindWoovi, ClientID: "app-id"}) // no signature checked
	if err != nil {
		t.Fatal(err)
	}
	body := `{"event": "PIX_AUTOMATIC_APPROVED", "customer": {"name": "Dan", "taxID": {"taxID": "111111111", "type": "BR:CPF"}},
		"dayGenerateCharge": 24, "value": 100, "status": "ACTIVE", "correlationID": "UniqueID1344445457t11653453223241",
		"pixRecurring": {"recurrencyId": "RN5481141720250822YHKirVyWBjF", "emv": "qrcode", "journey": "ONLY_RECURRENCY", "status": "APPROVED"},
		"globalID": "UGF5bWVudFN1YnNjcmlwdGlvbjo2OGE4ODMyMWQ2NWNiMmQ1MDdhMmVlMjk="}`
	evs, err := conn.ParseNotification(nil, []byte(body))
	want := providerclient.Event{Kind: providerclient.KindRecurrence, ProviderID: "UGF5bWVudFN1YnNjcmlwdGlvbjo2OGE4ODMyMWQ2NWNiMmQ1MDdhMmVlMjk=",
		ID: "UniqueID1344445457t11653453223241", Status: "APPROVED", Payload: []byte(body)}
	if err != nil || len(evs) != 1 || !reflect.DeepEqual(evs[0], want) {
		t.Fatalf("events %+v, %v", evs, err)
	}
	rejected := `{"event": "PIX_AUTOMATIC_REJECTED", "globalID": "g1", "status": "INACTIVE", "pixRecurring": {"status": "REJECTED"}}`
	if evs, err := conn.ParseNotification(nil, []byte(rejected)); err != nil || len(evs) != 1 || evs[0].Status != "CANCELLED" || evs[0].ID != "" {
		t.Fatalf("rejected: %+v, %v", evs, err)
	}
	var ne *providerclient.NotificationError
	if _, err := conn.ParseNotification(nil, []byte(`{"event": "PIX_AUTOMATIC_APPROVED", "correlationID": "c1"}`)); !errors.As(err, &ne) || ne.Field != "globalID" {
		t.Fatalf("without globalID: %v", err)
	}
	other := `{"event": "PIX_AUTOMATIC_SOMETHING_ELSE", "correlationID": "c1", "globalID": "g1"}`
	if evs, err := conn.ParseNotification(nil, []byte(other)); err != nil || len(evs) != 0 {
		t.Fatalf("an event PixGate does not read: %+v, %v", evs, err)
	}
}

// sameEvents compares events whatever their order: webhooks are sent
// concurrently.
func sameEvents(got, want []providerclient.Event) bool {
	key := func(evs []providerclient.Event) map[string]int {
		m := map[string]int{}
		for _, ev := range evs {
			m[fmt.Sprintf("%+v", ev)]++
		}
		return m
	}
	return reflect.DeepEqual(key(got), key(want))
}

// Woovi's documents do not say how a second cancel is answered: a refused
// cancel of a subscription Woovi reads CANCELED is no error, of one it
// reads otherwise the refusal.
func TestRecurrenceCancelRefusedReadsBack(t *testing.T) {
	consent := "CANCELED"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":"subscription cannot be canceled"}`)
			return
		}
		_, _ = io.WriteString(w, `{"subscription":{"globalID":"g1","correlationID":"c1","value":100,"pixRecurring":{"status":"`+consent+`"}}}`)
	}))
	defer srv.Close()
	conn, err := woovi.New(providerclient.Config{Kind: providerclient.KindWoovi, ClientID: "app-id", BaseURL: srv.URL, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.CancelRecurrence(t.Context(), providerclient.RecurrenceRef{ProviderID: "g1"}); err != nil {
		t.Fatalf("cancel a cancelled one: %v", err)
	}
	consent = "REJECTED"
	if err := conn.CancelRecurrence(t.Context(), providerclient.RecurrenceRef{ProviderID: "g1"}); !errors.Is(err, providerclient.ErrRejected) ||
		!strings.Contains(err.Error(), "cannot be canceled") {
		t.Fatalf("cancel a rejected one: %v", err)
	}
}
