package main

import (
	"encoding/csv"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// reconReport is what pixgate reconcile report --json prints.
type reconReport struct {
	Run struct {
		Reconciled     bool             `json:"reconciled"`
		Counts         map[string]int64 `json:"counts"`
		OpenExceptions int64            `json:"open_exceptions"`
		Unexplained    any              `json:"unexplained"`
	} `json:"run"`
	Items []struct {
		ID     string `json:"id"`
		Kind   string `json:"kind"`
		Status string `json:"status"`
		Line   *struct {
			Amount any `json:"amount"`
		} `json:"line"`
		Record *struct {
			ID string `json:"id"`
		} `json:"record"`
	} `json:"items"`
}

// operator is pixgate for the operator's commands, pointed at the dev
// stack's sandbox, which serves PixGate's statement extension.
func (s *devStack) operator() *pixgate {
	env := maps.Clone(s.pg.env)
	env["PIXGATE_PROVIDER_URL"], env["PIXGATE_PROVIDER_EXTENSIONS"], env["USER"] = s.sandbox, "true", "ana"
	return &pixgate{t: s.t, env: env}
}

// Every discrepancy the sandbox injects into its statement (a PIX PixGate
// never heard of, an amount changed, a transaction dropped, one shown
// twice) is reported once, with its kind, by pixgate reconcile run; nothing
// else is; resolving each with its adjustment leaves pixgate audit clean,
// and the day, run again, reconciles.
func TestReconcileReportsEachInjectedDiscrepancyOnce(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, "PIXGATE_RECONCILE_BOUNDARY", "1ns")
	first := providerclient.DayOf(time.Now())
	var charges []string
	for _, amount := range []float64{10, 20, 30, 40} {
		id, pixID := s.createCharge(amount, nil)
		if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil); c != http.StatusOK {
			t.Fatalf("pay: %d %v", c, v)
		}
		s.eventually("charge PAID", 5*time.Second, func() bool { return s.status("charges", id) == "PAID" })
		charges = append(charges, pixID)
	}
	code, w := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 5.00, "creditParty": creditParty("beltrano@example.com")})
	if code != http.StatusCreated {
		t.Fatalf("withdrawal: %d %v", code, w)
	}
	s.eventually("withdrawal COMPLETED", 5*time.Second, func() bool { return s.status("withdrawals", w["id"].(string)) == "COMPLETED" })

	for _, d := range []map[string]any{
		{"kind": "unknown_pix", "amount": 7.00},
		{"kind": "amount_changed", "transaction_id": charges[1], "amount": 21.00},
		{"kind": "dropped", "transaction_id": charges[2]},
		{"kind": "duplicate", "transaction_id": charges[3]},
	} {
		if c, v := s.control(http.MethodPost, "/sandbox/discrepancies", d); c != http.StatusOK {
			t.Fatalf("inject %v: %d %v", d, c, v)
		}
	}
	days := []providerclient.Day{first}
	if last := providerclient.DayOf(time.Now()); last != first { // the test crossed midnight
		days = append(days, last)
	}
	op := s.operator()
	reports := func() []reconReport {
		var out []reconReport
		for _, d := range days {
			var r reconReport
			op.json(&struct{}{}, "reconcile", "run", "--provider", "default", "--date", d.String())
			op.json(&r, "reconcile", "report", "--provider", "default", "--date", d.String())
			out = append(out, r)
		}
		return out
	}

	found := map[string][]string{}
	for _, r := range reports() {
		for _, it := range r.Items {
			if it.Status != "open" {
				t.Errorf("item %s is %s %s, not an open exception", it.ID, it.Kind, it.Status)
			}
			found[it.Kind] = append(found[it.Kind], it.ID)
		}
	}
	want := []string{"missing_in_pixgate", "amount_mismatch", "missing_at_provider", "duplicate_at_provider"}
	for _, k := range want {
		if len(found[k]) != 1 {
			t.Errorf("%s reported %d times, want once", k, len(found[k]))
		}
	}
	if len(found) != len(want) {
		t.Fatalf("reported %v, want one each of %v", found, want)
	}

	// The same items as CSV, a header first, and the day's verdict as text.
	code, out, errs := op.run("reconcile", "report", "--provider", "default", "--date", days[0].String(), "--csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(rows) == 0 || rows[0][3] != "kind" {
		t.Fatalf("report --csv: exit %d, %v\n%s%s", code, err, out, errs)
	}
	csvKinds := map[string]int{}
	for _, row := range rows[1:] {
		csvKinds[row[3]]++
	}
	if len(days) == 1 && (len(csvKinds) != len(want) || csvKinds["duplicate_at_provider"] != 1) {
		t.Errorf("report --csv: kinds %v, want one each of %v", csvKinds, want)
	}
	if code, out, _ := op.run("reconcile", "report", "--provider", "default", "--date", days[0].String()); code != 0 ||
		!strings.Contains(out, "does NOT reconcile") || !strings.Contains(out, "amount_mismatch") {
		t.Errorf("report: exit %d\n%s", code, out)
	}

	for _, ids := range found {
		var resolved map[string]any
		op.json(&resolved, "reconcile", "resolve", ids[0], "--reason", "checked with the provider", "--post-adjustment")
		if resolved["status"] != "resolved" {
			t.Fatalf("resolve: %v", resolved)
		}
	}
	if code, out, errs := op.run("audit"); code != 0 {
		t.Fatalf("pixgate audit after the resolutions: exit %d\n%s%s", code, out, errs)
	}
	for _, r := range reports() {
		if !r.Run.Reconciled || r.Run.OpenExceptions != 0 {
			t.Errorf("rerun after the resolutions: %+v", r.Run)
		}
	}
}

// Bad input to pixgate reconcile is refused with a message naming what to
// fix, changing nothing.
func TestReconcileRefusesBadInput(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--date", "2026-13-01"}, "--date"},
		{[]string{"report", "--date", "yesterday", "--csv", "--json"}, "--csv and --json"},
		{[]string{"report", "--provider", "default", "--date", "2026-03-01"}, "has not been reconciled"},
		{[]string{"run", "--provider", "nobody", "--date", "2026-03-01"}, `--provider: no such provider: "nobody"`},
		{[]string{"resolve", "not-an-id", "--reason", "x"}, "is not an exception id"},
		{[]string{"resolve", "0195a000-0000-7000-8000-000000000000"}, "reason"},
		{[]string{"resolve", "0195a000-0000-7000-8000-000000000000", "--reason", "  "}, "--reason must say"},
		{[]string{"resolve", "0195a000-0000-7000-8000-000000000000", "--reason", "x", "--operator", "ana"}, "not found"},
	} {
		code, out, errs := p.run(append([]string{"reconcile"}, tc.args...)...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("pixgate reconcile %v: exit %d, want an error naming %q\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
	var audit struct{ OK bool }
	p.json(&audit, "audit")
	if !audit.OK {
		t.Fatal("the refused commands changed the ledger")
	}
}
