package sandbox

import (
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
)

// cobrEvents are the PIX_AUTOMATIC_COBR events received so far, each as
// its event and the installment's globalID.
func (e *wooviRecEnv) cobrEvents() [][2]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out [][2]string
	for _, ev := range e.events {
		if _, ok := ev["cobr"]; ok {
			id, _ := ev["globalID"].(string)
			name, _ := ev["event"].(string)
			out = append(out, [2]string{name, id})
		}
	}
	return out
}

// installmentCobr reads installment n of subscription sub and returns its
// cobr, or nil.
func (e *wooviRecEnv) installmentCobr(sub string, n int) map[string]any {
	e.t.Helper()
	code, ans := e.call(http.MethodGet, "/api/v1/installments/"+installmentID(sub, n), nil)
	if code != http.StatusOK {
		e.t.Fatalf("read installment %d: %d %v", n, code, ans)
	}
	cobr, _ := ans["installment"].(map[string]any)["cobr"].(map[string]any)
	return cobr
}

// Woovi makes the cobr of an installment that has none from 4 days
// before its day: the sandbox makes it when its clock reaches that day,
// of the subscription's value, notified as CREATED; not 5 days before,
// nor for a subscription not approved (until it is, at the next read). A
// try rejected and retried by Woovi at once is told twice: TRY_REJECTED,
// then TRY_REQUESTED.
func TestWooviOwnCobrFourDaysBefore(t *testing.T) {
	e := newWooviRecEnv(t)
	sub, pending := e.create("sub-own"), e.create("sub-own-pending")
	if _, err := e.sb.ApproveRecurrence(sub, 0); err != nil {
		t.Fatal(err)
	}
	today := due.Today(time.Now())
	if err := e.sb.SetToday(today.AddDays(2)); err != nil { // 5 days before the first installment
		t.Fatal(err)
	}
	if c := e.installmentCobr(sub, 0); c != nil {
		t.Fatalf("5 days before: %v", c)
	}
	if err := e.sb.SetToday(today.AddDays(3)); err != nil {
		t.Fatal(err)
	}
	own := installmentID(sub, 0)
	waitFor(t, "the own cobr's webhook", func() bool { return len(e.cobrEvents()) == 1 })
	if got := e.cobrEvents()[0]; got != [2]string{wooviapi.EventCobrCreated, own} {
		t.Fatalf("webhook %v", got)
	}
	if c := e.installmentCobr(sub, 0); c == nil || c["value"] != 3500.0 || c["status"] != wooviapi.CobrCreated {
		t.Fatalf("4 days before: %v", c)
	}
	if c := e.installmentCobr(sub, 1); c != nil {
		t.Fatalf("the next installment: %v", c)
	}
	if c := e.installmentCobr(pending, 0); c != nil {
		t.Fatalf("not approved: %v", c)
	}
	if code, ans := e.call(http.MethodPost, "/api/v1/installments/"+own+"/cobr", map[string]any{"value": 3500}); code != http.StatusBadRequest {
		t.Fatalf("a manual cobr after Woovi's: %d %v", code, ans)
	}

	if _, err := e.sb.ApproveRecurrence(pending, 0); err != nil {
		t.Fatal(err)
	}
	if c := e.installmentCobr(pending, 0); c == nil || c["value"] != 3500.0 {
		t.Fatalf("approved, at the next read: %v", c)
	}
	waitFor(t, "its webhook", func() bool { return len(e.cobrEvents()) == 2 })

	if _, err := e.sb.RejectCycle(own, "AM02"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the rejected try's webhooks", func() bool { return len(e.cobrEvents()) == 4 })
	got := e.cobrEvents()
	want := [][2]string{{wooviapi.EventCobrCreated, own}, {wooviapi.EventCobrCreated, installmentID(pending, 0)},
		{wooviapi.EventCobrTryRejected, own}, {wooviapi.EventCobrTryRequested, own}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("webhooks %v\nwant %v", got, want)
		}
	}
}
