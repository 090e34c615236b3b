package main

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// An operator follows operations.md for the money the provider's account
// held before PixGate (the sandbox's opening R$ 1,000,000.00): provider
// balance shows it, provider adjust books it, and the day's
// reconciliation, run again, is clean, with nothing unexplained and no
// difference at the close. An adjustment naming a day counts in that
// day's reconciliation alone; one naming a day to come, or no day, is
// refused.
func TestReconcileAfterAdjustingTheBalanceHeldBeforePixGate(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	sb := sandbox.New(sandbox.Config{})
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(sb.Close)
	p := newPixgate(t)
	p.env["PIXGATE_PROVIDER_URL"], p.env["PIXGATE_PROVIDER_EXTENSIONS"] = srv.URL, "true"
	held := sandbox.DefaultInitialBalance

	var balance struct{ Providers []floatView }
	p.json(&balance, "provider", "balance", "default")
	if v := balance.Providers[0]; v.Difference == nil || *v.Difference != held {
		t.Fatalf("provider balance before the adjustment: %+v", v)
	}
	p.json(&floatAdjustView{}, "provider", "adjust", "default", "--amount", held.String(), "--reason", "balance before PixGate",
		"--reference", "OPS-17")
	// A day to come, or what is no day, is refused, changing nothing.
	for _, date := range []string{"2999-01-01", "someday"} {
		if code, _, errs := p.run("provider", "adjust", "default", "--amount=-0.01", "--reason", "r", "--date", date); code == 0 ||
			!strings.Contains(errs, "--date") {
			t.Errorf("provider adjust --date %s: exit %d, %s", date, code, errs)
		}
	}
	p.json(&balance, "provider", "balance", "default")
	if v := balance.Providers[0]; v.Difference == nil || *v.Difference != 0 {
		t.Fatalf("provider balance after the adjustment: %+v", v)
	}
	for _, date := range []string{"yesterday", "today", "today"} {
		r := reconcileDefault(p, date)
		if !r.Run.Reconciled || r.Run.Unexplained == nil || *r.Run.Unexplained != 0 {
			t.Errorf("%s: reconciled %v, day difference %v, unexplained %v", date, r.Run.Reconciled, r.Run.DayDifference, r.Run.Unexplained)
		}
		if want := money.Money(0); date == "today" && (r.Run.ClosingDifference == nil || *r.Run.ClosingDifference != want) {
			t.Errorf("today: closing difference %v, want %s", r.Run.ClosingDifference, want)
		}
	}

	var dated floatAdjustView
	p.json(&dated, "provider", "adjust", "default", "--amount=-0.01", "--date", "yesterday", "--reason", "a tariff", "--reference", "OPS-18")
	for date, want := range map[string]money.Money{dated.Day: 1, "today": 0} {
		if r := reconcileDefault(p, date); r.Run.Unexplained == nil || *r.Run.Unexplained != want {
			t.Errorf("%s after an adjustment naming %s: unexplained %v, want %s", date, dated.Day, r.Run.Unexplained, want)
		}
	}
}

// reconcileDefault runs the default provider's day and reads its report.
func reconcileDefault(p *pixgate, date string) (r struct{ Run reconRunView }) {
	p.t.Helper()
	p.json(&struct{}{}, "reconcile", "run", "--provider", "default", "--date", date)
	p.json(&r, "reconcile", "report", "--provider", "default", "--date", date)
	return r
}
