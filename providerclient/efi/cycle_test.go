package efi_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// approvedRecurrence registers a QR recurrence (weekly, four cycles of
// R$ 35.00, the first due in a week, three retries in 7 days) and has its
// payer approve it; it returns the request and the idRec.
func approvedRecurrence(t *testing.T, e *env) (providerclient.RecurrenceRequest, string) {
	t.Helper()
	req := recurrenceRequest(recurrence.JourneyQR, 0)
	got, err := e.conn.CreateRecurrence(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.ApproveRecurrence(got.ProviderID, 0); err != nil {
		t.Fatal(err)
	}
	return req, got.ProviderID
}

// cycleRequest is cycle 1 of the recurrence idRec: due on its start
// (whose window is open today), R$ 35.00.
func cycleRequest(rec providerclient.RecurrenceRequest, idRec string) providerclient.CycleRequest {
	return providerclient.CycleRequest{ID: newID(), Recurrence: providerclient.RecurrenceRef{ID: rec.ID, ProviderID: idRec},
		N: 1, DueDate: rec.Calendar.Start, Amount: money.FromReais(35, 0), Payer: rec.Payer, Description: "Plano Ouro, semana 1"}
}

func (e *env) cycles() int { return len(e.sb.Transactions(contract.TypeRecurrenceCycle)) }

// cycleEvents are the claims parsed from the notifications received at
// {webhookUrl}/cobr.
func (e *env) cycleEvents(t *testing.T) []providerclient.Event {
	t.Helper()
	e.hook.mu.Lock()
	paths, bodies := append([]string(nil), e.hook.paths...), append([][]byte(nil), e.hook.got...)
	e.hook.mu.Unlock()
	var out []providerclient.Event
	for i, p := range paths {
		if p != "/webhooks/provider/token/cobr" {
			continue
		}
		evs, err := e.conn.ParseNotification(nil, bodies[i])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, evs...)
	}
	return out
}

func readCycle(t *testing.T, e *env, ref providerclient.CycleRef) *providerclient.Cycle {
	t.Helper()
	got, err := e.conn.ReadCycle(t.Context(), ref)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A cycle's charge is sent under PixGate's id as its txid; a repeat is
// the same charge. The payer's bank schedules it, rejects its first
// attempt (AM02, left to the policy), the integrator asks a retry, which
// is scheduled and paid: each read shows the attempts, the last the PIX
// that paid it. Every change is notified at {webhookUrl}/cobr and parsed
// into a claim about the cycle under PixGate's id.
func TestCycleSendRetryPay(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	rec, idRec := approvedRecurrence(t, e)
	req := cycleRequest(rec, idRec)
	txid := strings.ReplaceAll(req.ID, "-", "")
	got, err := e.conn.SendCycle(ctx, req)
	if err != nil || got.ProviderID != txid || got.ExternalID != req.ID || got.Status != recurrence.CycleCreated ||
		got.DueDate != req.DueDate || got.Amount != req.Amount || len(got.Attempts) != 1 {
		t.Fatalf("send: %+v, %v", got, err)
	}
	first := got.Attempts[0]
	if first.Kind != recurrence.AttemptFirst || first.SettleOn != req.DueDate || first.Status != recurrence.AttemptRequested ||
		len(first.EndToEndID) != 32 {
		t.Fatalf("first attempt: %+v", first)
	}
	again, err := e.conn.SendCycle(ctx, req)
	if err != nil || !reflect.DeepEqual(again, got) || e.cycles() != 1 {
		t.Fatalf("a repeat: %+v, %v; %d cycles", again, err, e.cycles())
	}
	ref := providerclient.CycleRef{ID: req.ID, Recurrence: req.Recurrence, DueDate: req.DueDate}
	if _, err := e.sb.AcceptCycle(txid); err != nil {
		t.Fatal(err)
	}
	if c := readCycle(t, e, ref); c.Status != recurrence.CycleActive || c.Attempts[0].Status != recurrence.AttemptScheduled {
		t.Fatalf("accepted: %+v", c)
	}
	if _, err := e.sb.RejectCycle(txid, "AM02"); err != nil {
		t.Fatal(err)
	}
	rejected := readCycle(t, e, ref)
	if a := rejected.Attempts[0]; rejected.Status != recurrence.CycleActive || a.Status != recurrence.AttemptRejected || a.RejectionCode != "AM02" {
		t.Fatalf("rejected attempt: %+v", rejected)
	}
	day := req.DueDate.AddDays(1)
	if err := e.conn.RetryCycle(ctx, providerclient.CycleRef{ProviderID: txid}, day); err != nil {
		t.Fatal(err)
	}
	retried := readCycle(t, e, ref)
	if len(retried.Attempts) != 2 || retried.Attempts[1].Kind != recurrence.AttemptRetry || retried.Attempts[1].SettleOn != day ||
		retried.Attempts[1].Status != recurrence.AttemptRequested {
		t.Fatalf("retried: %+v", retried)
	}
	for _, move := range []func(string) (contract.RecurrenceCycle, error){e.sb.AcceptCycle, e.sb.PayCycle} {
		if _, err := move(txid); err != nil {
			t.Fatal(err)
		}
	}
	paid := readCycle(t, e, ref)
	if paid.Status != recurrence.CyclePaid || paid.Attempts[1].Status != recurrence.AttemptPaid || len(paid.EndToEndID) != 32 ||
		paid.EndToEndID != paid.Attempts[1].EndToEndID || paid.PaidAt.IsZero() || paid.Amount != req.Amount {
		t.Fatalf("paid: %+v", paid)
	}

	// Each change is notified (the acceptances, the rejection, the
	// payment; a retry asked is answered, not notified), the payment too.
	waitFor(t, "the payment's notification", func() bool {
		for _, ev := range e.cycleEvents(t) {
			if ev.Status == providerclient.Status(recurrence.CyclePaid) {
				return true
			}
		}
		return false
	})
	for _, ev := range e.cycleEvents(t) {
		if ev.Kind != providerclient.KindRecurrenceCycle || ev.ProviderID != txid || ev.ID != req.ID {
			t.Fatalf("notification: %+v", ev)
		}
	}
	checkedRecRoutes(t, e, "PUT /cobr/{txid}", "GET /cobr/{txid}", "POST /cobr/{txid}/retentativa/{data}", "PUT /webhookcobr")
}

// Cancelled by the integrator before its due date, a cycle reads
// CANCELLED by INTEGRATOR, and cancelling it again is no error; on its due
// date the BCB refuses the cancel, and the refusal stands.
func TestCycleCancel(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	rec, idRec := approvedRecurrence(t, e)
	req := cycleRequest(rec, idRec)
	if _, err := e.conn.SendCycle(ctx, req); err != nil {
		t.Fatal(err)
	}
	ref := providerclient.CycleRef{ID: req.ID}
	for range 2 {
		if err := e.conn.CancelCycle(ctx, ref); err != nil {
			t.Fatal(err)
		}
	}
	if c := readCycle(t, e, ref); c.Status != recurrence.CycleCancelled || c.CancelledBy != recurrence.PartyIntegrator ||
		c.Attempts[0].Status != recurrence.AttemptCancelled {
		t.Fatalf("cancelled: %+v", c)
	}

	// The next cycle, sent in its window, cannot be cancelled on its day.
	next := cycleRequest(rec, idRec)
	next.DueDate = rec.Calendar.Start.AddDays(7)
	if err := e.sb.SetToday(next.DueDate.AddDays(-5)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.conn.SendCycle(ctx, next); err != nil {
		t.Fatal(err)
	}
	if err := e.sb.SetToday(next.DueDate); err != nil {
		t.Fatal(err)
	}
	err := e.conn.CancelCycle(ctx, providerclient.CycleRef{ID: next.ID})
	if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) || !strings.Contains(err.Error(), "primeira tentativa") {
		t.Fatalf("a cancel on the due date: %v", err)
	}
	if c := readCycle(t, e, providerclient.CycleRef{ID: next.ID}); c.Status != recurrence.CycleCreated {
		t.Fatalf("after the refused cancel: %+v", c)
	}
	checkedRecRoutes(t, e, "PATCH /cobr/{txid}")
}

// What the contract cannot carry is refused before any call: an id that
// is no uuid, a recurrence without its idRec, no due date, no amount, no
// account configured.
func TestCycleRefusedBeforeSending(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	rec := recurrenceRequest(recurrence.JourneyQR, 0)
	good := cycleRequest(rec, "RR1234567820240115abcdefghijk")
	for name, c := range map[string]struct {
		change func(*providerclient.CycleRequest)
		kind   error
	}{
		"an id that is no uuid": {func(r *providerclient.CycleRequest) { r.ID = "cycle-1" }, providerclient.ErrRejected},
		"no idRec":              {func(r *providerclient.CycleRequest) { r.Recurrence.ProviderID = "" }, providerclient.ErrRejected},
		"no due date":           {func(r *providerclient.CycleRequest) { r.DueDate = due.Date{} }, providerclient.ErrRejected},
		"no amount":             {func(r *providerclient.CycleRequest) { r.Amount = 0 }, providerclient.ErrRejected},
	} {
		req := good
		c.change(&req)
		if _, err := e.conn.SendCycle(t.Context(), req); !errors.Is(err, c.kind) {
			t.Errorf("%s: %v", name, err)
		}
	}
	cfg := e.config()
	cfg.Account = providerclient.Account{}
	if _, err := e.connector(cfg).SendCycle(t.Context(), good); !errors.Is(err, providerclient.ErrUnsupported) ||
		!strings.Contains(err.Error(), "Account") {
		t.Errorf("no account: %v", err)
	}
	if err := e.conn.RetryCycle(t.Context(), providerclient.CycleRef{ID: "x"}, due.Today(time.Now())); !errors.Is(err, providerclient.ErrRejected) {
		t.Errorf("a retry of no txid: %v", err)
	}
	if err := e.conn.RetryCycle(t.Context(), providerclient.CycleRef{ID: good.ID}, due.Date{}); !errors.Is(err, providerclient.ErrRejected) {
		t.Errorf("a retry of no day: %v", err)
	}
	if n := len(e.sb.Stats().Requests); n != 0 {
		t.Fatalf("requests sent: %v", e.sb.Stats().Requests)
	}
}

// What the provider refuses is a refusal: a recurrence it does not hold,
// a due date whose window is not open, an account not the receiver's, the
// txid in use with other terms, a retry while an attempt is open; a txid
// it does not hold reads, retries and cancels ErrNotFound.
func TestCycleRefusedByTheProvider(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	rec, idRec := approvedRecurrence(t, e)
	sent := cycleRequest(rec, idRec)
	if _, err := e.conn.SendCycle(ctx, sent); err != nil {
		t.Fatal(err)
	}
	otherTerms := sent
	otherTerms.Amount = money.FromReais(36, 0)
	unknownRec := cycleRequest(rec, "RR1234567820240115abcdefghijk")
	notYet := cycleRequest(rec, idRec)
	notYet.DueDate = rec.Calendar.Start.AddDays(14)
	for name, req := range map[string]providerclient.CycleRequest{
		"an unknown recurrence":     unknownRec,
		"a window not open":         notYet,
		"the txid with other terms": otherTerms,
	} {
		if _, err := e.conn.SendCycle(ctx, req); !errors.Is(err, providerclient.ErrRejected) {
			t.Errorf("%s: %v", name, err)
		}
	}
	cfg := e.config()
	cfg.Account.Number = "7654321"
	if _, err := e.connector(cfg).SendCycle(ctx, cycleRequest(rec, idRec)); !errors.Is(err, providerclient.ErrRejected) ||
		!strings.Contains(err.Error(), "cobr.recebedor") {
		t.Errorf("another account: %v", err)
	}
	ref := providerclient.CycleRef{ID: sent.ID}
	if err := e.conn.RetryCycle(ctx, ref, sent.DueDate.AddDays(1)); !errors.Is(err, providerclient.ErrRejected) ||
		errors.Is(err, providerclient.ErrNotFound) {
		t.Errorf("a retry while the first attempt is open: %v", err)
	}
	unknown := providerclient.CycleRef{ID: newID()}
	if _, err := e.conn.ReadCycle(ctx, unknown); !errors.Is(err, providerclient.ErrNotFound) {
		t.Errorf("read of an unknown txid: %v", err)
	}
	if err := e.conn.RetryCycle(ctx, unknown, sent.DueDate.AddDays(1)); !errors.Is(err, providerclient.ErrNotFound) {
		t.Errorf("retry of an unknown txid: %v", err)
	}
	if err := e.conn.CancelCycle(ctx, unknown); !errors.Is(err, providerclient.ErrNotFound) {
		t.Errorf("cancel of an unknown txid: %v", err)
	}
	if e.cycles() != 1 {
		t.Fatalf("%d cycles at the sandbox", e.cycles())
	}
}
