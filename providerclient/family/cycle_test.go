package family_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// A cycle of an approved recurrence through every layer: sent (a repeat is
// the same one), refused a retry while its attempt is open, retried once
// it expired (the same day twice is one retry), paid and read back with
// its payment; another cancelled twice; each change notified as an Event
// of the cycle naming PixGate's id.
func TestCycleLifecycle(t *testing.T) {
	ctx := context.Background()
	hook := newHook(t)
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.Extensions = true
	conn := layered(cfg)
	rec, err := conn.CreateRecurrence(ctx, recurrenceRequest("r-1", recurrence.JourneyQR, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.sb.ApproveRecurrence(rec.ProviderID, 0); err != nil {
		t.Fatal(err)
	}
	today := due.Today(time.Now())
	req := providerclient.CycleRequest{ID: "cyc-1", Recurrence: providerclient.RecurrenceRef{ID: "r-1", ProviderID: rec.ProviderID},
		DueDate: today.AddDays(7), Amount: money.FromReais(35, 0), Description: "semana 1", NotifyURL: hook.srv.URL}
	sent, err := conn.SendCycle(ctx, req)
	if err != nil || sent.ProviderID == "" || sent.ExternalID != "cyc-1" || sent.Status != recurrence.CycleCreated ||
		sent.DueDate != req.DueDate || sent.Amount != req.Amount || len(sent.Attempts) != 1 ||
		sent.Attempts[0] != (providerclient.Attempt{Kind: recurrence.AttemptFirst, SettleOn: req.DueDate, Status: recurrence.AttemptRequested}) {
		t.Fatalf("send: %+v, %v", sent, err)
	}
	if again, err := conn.SendCycle(ctx, req); err != nil || again.ProviderID != sent.ProviderID {
		t.Fatalf("a repeat: %+v, %v", again, err)
	}
	ref := providerclient.CycleRef{ID: "cyc-1", ProviderID: sent.ProviderID}
	if err := conn.RetryCycle(ctx, ref, today.AddDays(8)); !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("a retry while the attempt is open: %v", err)
	}
	if _, err := p.sb.RejectCycle(sent.ProviderID, "AM02"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := conn.RetryCycle(ctx, ref, today.AddDays(8)); err != nil {
			t.Fatalf("retry: %v", err)
		}
	}
	if _, err := p.sb.AcceptCycle(sent.ProviderID); err != nil {
		t.Fatal(err)
	}
	if _, err := p.sb.PayCycle(sent.ProviderID); err != nil {
		t.Fatal(err)
	}
	paid, err := conn.ReadCycle(ctx, ref)
	if err != nil || paid.Status != recurrence.CyclePaid || len(paid.Attempts) != 2 || paid.Attempts[0].RejectionCode != "AM02" ||
		paid.Attempts[1].Kind != recurrence.AttemptRetry || paid.Attempts[1].Status != recurrence.AttemptPaid ||
		paid.Attempts[1].EndToEndID != paid.EndToEndID || len(paid.EndToEndID) != 32 || time.Since(paid.PaidAt) > time.Minute ||
		paid.Payer.Document == "" || paid.Amount != req.Amount {
		t.Fatalf("read paid: %+v, %v", paid, err)
	}
	if err := conn.CancelCycle(ctx, ref); !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("cancel a paid one: %v", err)
	}

	req2 := req
	req2.ID, req2.DueDate = "cyc-2", today.AddDays(14) // its window opens on day 4
	if _, err := conn.SendCycle(ctx, req2); !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("before the window: %v", err)
	}
	if err := p.sb.SetToday(today.AddDays(4)); err != nil {
		t.Fatal(err)
	}
	second, err := conn.SendCycle(ctx, req2)
	if err != nil {
		t.Fatal(err)
	}
	ref2 := providerclient.CycleRef{ID: "cyc-2", ProviderID: second.ProviderID}
	for range 2 {
		if err := conn.CancelCycle(ctx, ref2); err != nil {
			t.Fatalf("cancel: %v", err)
		}
	}
	if got, err := conn.ReadCycle(ctx, ref2); err != nil || got.Status != recurrence.CycleCancelled ||
		got.CancelledBy != recurrence.PartyIntegrator || got.Attempts[0].Status != recurrence.AttemptCancelled {
		t.Fatalf("cancelled: %+v, %v", got, err)
	}
	if _, err := conn.ReadCycle(ctx, providerclient.CycleRef{ProviderID: rec.ProviderID}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("read a recurrence as a cycle: %v", err)
	}

	// AM02 rejected, retry asked, accepted, paid; cyc-2 cancelled.
	waitFor(t, "five notifications", func() bool { return len(hook.bodies()) >= 5 })
	for _, body := range hook.bodies() {
		events, err := conn.ParseNotification(nil, body)
		if err != nil || len(events) != 1 || events[0].Kind != providerclient.KindRecurrenceCycle ||
			(events[0].ID != "cyc-1" && events[0].ID != "cyc-2") || events[0].ProviderID == "" {
			t.Fatalf("parse %s: %+v, %v", body, events, err)
		}
	}
}

// Without the extensions nothing is sent; without the transactionId
// nothing is asked; an answer the connector cannot read is an unknown
// outcome.
func TestCycleRefusedAndUnreadable(t *testing.T) {
	ctx := context.Background()
	p := newProvider(t, sandbox.Config{})
	off := family.NewConnector(p.config())
	ref := providerclient.CycleRef{ProviderID: "x"}
	if _, err := off.SendCycle(ctx, providerclient.CycleRequest{Recurrence: providerclient.RecurrenceRef{ProviderID: "x"}}); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("send: %v", err)
	}
	if _, err := off.ReadCycle(ctx, ref); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("read: %v", err)
	}
	if err := off.RetryCycle(ctx, ref, due.Today(time.Now())); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("retry: %v", err)
	}
	if err := off.CancelCycle(ctx, ref); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("cancel: %v", err)
	}
	for _, body := range []string{
		`{"requestBody":{"transactionType":"RECURRENCE_CYCLE","transactionId":"x","status":"LOST","dueDate":"2026-01-05"}}`,
		`{"requestBody":{"transactionType":"RECURRENCE_CYCLE","transactionId":"x","status":"PAID","dueDate":"05/01/2026"}}`,
		`{"requestBody":{"transactionType":"RECURRENCE_CYCLE","transactionId":"x","status":"PAID","dueDate":"2026-01-05",
			"attempts":[{"type":"AGND","settleOn":"2026-01-05","status":"SETTLED"}]}}`,
		`{"requestBody":{"transactionType":"RECURRENCE_CYCLE","transactionId":"x","status":"PAID","amount":"35,00"}}`,
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/v2/consult-transaction" {
				p.sb.Handler().ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(body))
		}))
		cfg := p.config()
		cfg.BaseURL, cfg.Extensions = srv.URL, true
		if _, err := family.NewConnector(cfg).ReadCycle(ctx, ref); !errors.Is(err, providerclient.ErrUnknownOutcome) {
			t.Errorf("%s: %v", body, err)
		}
		srv.Close()
	}
	cfg := p.config()
	cfg.Extensions = true
	if err := family.NewConnector(cfg).CancelCycle(ctx, providerclient.CycleRef{ID: "cyc-1"}); !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("cancel without the transactionId: %v", err)
	}
}
