package family_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/recurrencetest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// recurrenceRequest is the connectors' tests' recurrence of journey j.
var recurrenceRequest = recurrencetest.Request

// Without the extensions the connector offers no recurrence and sends
// nothing; with them it offers the QR, PUSH and QR_WITH_PAYMENT journeys.
func TestRecurrencesNeedTheExtensions(t *testing.T) {
	ctx := context.Background()
	p := newProvider(t, sandbox.Config{})
	off := family.NewConnector(p.config())
	if c := off.Capabilities(); c.Recurrences || c.Journeys != nil {
		t.Fatalf("without extensions: %+v", c)
	}
	if _, err := off.CreateRecurrence(ctx, recurrenceRequest("r-1", recurrence.JourneyQR, 0)); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("create: %v", err)
	}
	if _, err := off.ReadRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: "x"}); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("read: %v", err)
	}
	if err := off.CancelRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: "x"}); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("cancel: %v", err)
	}
	if n := p.requests(contract.PathRecurrence) + p.requests("/v2/consult-transaction"); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
	cfg := p.config()
	cfg.Extensions = true
	c := family.NewConnector(cfg).Capabilities()
	if !c.Recurrences || !reflect.DeepEqual(c.Journeys, []recurrence.Journey{recurrence.JourneyQR, recurrence.JourneyPush, recurrence.JourneyQRWithPayment}) {
		t.Fatalf("with extensions: %+v", c)
	}
}

// A QR recurrence and a PUSH one are created through every layer and read
// back CREATED, the QR one with its BR Code; a repeat is the same one.
func TestRecurrenceCreateAndRead(t *testing.T) {
	ctx := context.Background()
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.Extensions = true
	conn := layered(cfg)

	qr, err := conn.CreateRecurrence(ctx, recurrenceRequest("r-qr", recurrence.JourneyQR, 0))
	if err != nil || qr.ProviderID == "" || qr.ExternalID != "r-qr" || qr.Status != recurrence.RecurrenceCreated ||
		!strings.HasPrefix(qr.QRCode, "000201") {
		t.Fatalf("create QR: %+v, %v", qr, err)
	}
	read, err := conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ID: "r-qr", ProviderID: qr.ProviderID})
	if err != nil || !reflect.DeepEqual(read, qr) {
		t.Fatalf("read QR: %+v, %v; want %+v", read, err, qr)
	}
	at, _ := p.sb.Recurrence(qr.ProviderID)
	if at.Journey != "QR" || at.Start != due.Today(time.Now()).AddDays(7).String() || at.Count != 4 || at.Amount != money.FromReais(35, 0) ||
		at.RetryPolicy != "THREE_IN_7_DAYS" || at.Contract != "4417" || at.Description != "Plano Ouro" || at.Payer.Email != "f@example.com" ||
		at.ConsentExpiresAt == "" {
		t.Fatalf("at the sandbox: %+v", at)
	}

	push, err := conn.CreateRecurrence(ctx, recurrenceRequest("r-push", recurrence.JourneyPush, money.FromReais(10, 0)))
	if err != nil || push.Status != recurrence.RecurrenceCreated || push.QRCode != "" {
		t.Fatalf("create PUSH: %+v, %v", push, err)
	}
	if at, _ := p.sb.Recurrence(push.ProviderID); at.Payer.Bank == nil || at.Payer.Bank.Account != "550689" || at.MinimumAmount != money.FromReais(10, 0) {
		t.Fatalf("PUSH at the sandbox: %+v", at)
	}
	again, err := conn.CreateRecurrence(ctx, recurrenceRequest("r-qr", recurrence.JourneyQR, 0))
	if err != nil || again.ProviderID != qr.ProviderID {
		t.Fatalf("a repeat: %+v, %v", again, err)
	}
}

// What the extension refuses is ErrRejected with its message; a journey it
// does not offer is not even asked; an unknown recurrence is ErrNotFound.
func TestRecurrenceRefusals(t *testing.T) {
	ctx := context.Background()
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.Extensions = true
	conn := family.NewConnector(cfg)

	late := recurrenceRequest("r-late", recurrence.JourneyQR, 0)
	late.Calendar.Start = due.Today(time.Now()).AddDays(-1)
	_, err := conn.CreateRecurrence(ctx, late)
	var pe *providerclient.Error
	if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) ||
		!errors.As(err, &pe) || !strings.HasPrefix(pe.Message, "start ") {
		t.Fatalf("a past start: %v", err)
	}
	noAccount := recurrenceRequest("r-push", recurrence.JourneyPush, 0)
	noAccount.PayerAccount = nil
	if _, err := conn.CreateRecurrence(ctx, noAccount); !errors.As(err, &pe) || !strings.HasPrefix(pe.Message, "payer.bank ") {
		t.Fatalf("a push without the account: %v", err)
	}
	sent := p.requests(contract.PathRecurrence)
	if _, err := conn.CreateRecurrence(ctx, recurrenceRequest("r-4", recurrence.JourneyQRWithDuePayment, 0)); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("journey 4: %v", err)
	}
	if _, err := conn.CreateRecurrence(ctx, recurrenceRequest("r-3", recurrence.JourneyQRWithPayment, 0)); !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("journey 3 without its first payment: %v", err)
	}
	if p.requests(contract.PathRecurrence) != sent {
		t.Fatal("a journey not offered was sent")
	}

	if _, err := conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: "nope"}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("read an unknown one: %v", err)
	}
	if err := conn.CancelRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: "nope"}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("cancel an unknown one: %v", err)
	}
	ch, err := conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: "c-1", Amount: money.FromReais(5, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: ch.ProviderID}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("a charge read as a recurrence: %v", err)
	}
	_, err = conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ID: "r-qr"})
	if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("a read without the provider's id: %v", err)
	}
}

// The payer's answers at the sandbox read back through the connector: an
// approval with the payer's maximum, a rejection with its code, the
// integrator's cancel (twice, without error), and each change's
// notification parses into an Event of the recurrence.
func TestRecurrenceLifecycle(t *testing.T) {
	ctx := context.Background()
	hook := newHook(t)
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.Extensions = true
	conn := family.NewConnector(cfg)
	create := func(id string, floor money.Money) *providerclient.Recurrence {
		t.Helper()
		req := recurrenceRequest(id, recurrence.JourneyQR, floor)
		req.NotifyURL = hook.srv.URL
		rec, err := conn.CreateRecurrence(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	read := func(rec *providerclient.Recurrence) *providerclient.Recurrence {
		t.Helper()
		got, err := conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ID: rec.ExternalID, ProviderID: rec.ProviderID})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	approved := create("r-approved", money.FromReais(10, 0))
	if _, err := p.sb.ApproveRecurrence(approved.ProviderID, money.FromReais(50, 0)); err != nil {
		t.Fatal(err)
	}
	if got := read(approved); got.Status != recurrence.RecurrenceApproved || got.PayerMax != money.FromReais(50, 0) ||
		time.Since(got.ApprovedAt) > time.Minute || got.QRCode != approved.QRCode {
		t.Fatalf("approved: %+v", got)
	}

	rejected := create("r-rejected", 0)
	if _, err := p.sb.RejectRecurrence(rejected.ProviderID, "AP13"); err != nil {
		t.Fatal(err)
	}
	if got := read(rejected); got.Status != recurrence.RecurrenceRejected || got.EndCode != "AP13" || got.EndReason == "" {
		t.Fatalf("rejected: %+v", got)
	}
	if err := conn.CancelRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: rejected.ProviderID}); !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("cancel a rejected one: %v", err)
	}

	for range 2 {
		if err := conn.CancelRecurrence(ctx, providerclient.RecurrenceRef{ID: approved.ExternalID, ProviderID: approved.ProviderID}); err != nil {
			t.Fatalf("cancel: %v", err)
		}
	}
	if got := read(approved); got.Status != recurrence.RecurrenceCancelled || got.CancelledBy != recurrence.PartyIntegrator || got.EndCode != "SLCR" {
		t.Fatalf("cancelled: %+v", got)
	}

	want := []providerclient.Event{
		{Kind: providerclient.KindRecurrence, ProviderID: approved.ProviderID, ID: "r-approved", Status: "APPROVED"},
		{Kind: providerclient.KindRecurrence, ProviderID: rejected.ProviderID, ID: "r-rejected", Status: "REJECTED"},
		{Kind: providerclient.KindRecurrence, ProviderID: approved.ProviderID, ID: "r-approved", Status: "CANCELLED"},
	}
	waitFor(t, "three notifications", func() bool { return len(hook.bodies()) >= len(want) })
	var got []providerclient.Event
	for _, body := range hook.bodies() {
		events, err := conn.ParseNotification(nil, body)
		if err != nil || len(events) != 1 {
			t.Fatalf("parse %s: %+v, %v", body, events, err)
		}
		ev := events[0]
		ev.Payload = nil
		got = append(got, ev)
	}
	if !sameEvents(got, want) {
		t.Fatalf("events %+v, want %+v", got, want)
	}
}

// A RECURRENCE notification is an Event of the recurrence, named by its
// transactionId and PixGate's id; a garbled external_id is refused.
func TestRecurrenceNotificationParses(t *testing.T) {
	conn := family.NewConnector(providerclient.Config{})
	events, err := conn.ParseNotification(nil,
		[]byte(`{"requestBody":{"transactionType":"RECURRENCE","transactionId":"r1","external_id":"rec-9","status":"EXPIRED"}}`))
	if err != nil || len(events) != 1 || events[0].Kind != providerclient.KindRecurrence || events[0].ProviderID != "r1" ||
		events[0].ID != "rec-9" || events[0].Status != "EXPIRED" {
		t.Fatalf("events %+v, %v", events, err)
	}
	if events, err := conn.ParseNotification(nil, []byte(`{"transactionType":"RECURRENCE","transactionId":"r1","status":"CREATED"}`)); err != nil || events[0].ID != "" {
		t.Fatalf("without external_id: %+v, %v", events, err)
	}
	_, err = conn.ParseNotification(nil, []byte(`{"transactionType":"RECURRENCE","transactionId":"r1","external_id":"a b","status":"CREATED"}`))
	var ne *family.NotificationError
	if !errors.As(err, &ne) || ne.Field != "external_id" {
		t.Fatalf("a garbled external_id: %v", err)
	}
	if events, err := conn.ParseNotification(nil, []byte(`{"transactionType":"PAYMENT","transactionId":"p1","external_id":"a b","status":"COMPLETED"}`)); err != nil || events[0].ID != "" {
		t.Fatalf("a payment's external_id is not read: %+v, %v", events, err)
	}
}

// sameEvents compares events whatever their order.
func sameEvents(got, want []providerclient.Event) bool {
	if len(got) != len(want) {
		return false
	}
	left := append([]providerclient.Event(nil), want...)
	for _, g := range got {
		i := -1
		for j, w := range left {
			if reflect.DeepEqual(g, w) {
				i = j
				break
			}
		}
		if i < 0 {
			return false
		}
		left = append(left[:i], left[i+1:]...)
	}
	return true
}

// hook is a postback endpoint that keeps every body it receives.
type hook struct {
	srv *httptest.Server
	mu  sync.Mutex
	got [][]byte
}

func newHook(t *testing.T) *hook {
	t.Helper()
	h := &hook{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		h.got = append(h.got, body)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hook) bodies() [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([][]byte(nil), h.got...)
}
