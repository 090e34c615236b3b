package chaos

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	md "github.com/pixgate/pixgate/cmd/internal/harness/report"
)

// soakReportInput is what the randomized run tells the report besides the
// checker's result.
type soakReportInput struct {
	times         soakTimes
	left          int
	floatsAtStart []floatReading
	stats         *stats
}

// soakReport is everything the randomized run's section says.
type soakReport struct {
	seed                 uint64
	command, version     string
	ops, started         int
	late                 time.Duration // the latest an operation started after its time
	rate                 float64
	times                soakTimes
	left                 int
	drainBound           time.Duration
	planned              [numOpKinds]int
	outcomes             []string
	failed               string // failed requests by code
	faults               []faultRun
	plannedFaults        int
	routes, routeErrs    int
	res                  checkResult
	debt                 debtFigures
	audit, auditProvider string
	reconciliation       []string
	problems             []string // what fails the run besides the checker's findings
	deliveries, failedOn int
	missing              int // final statuses never delivered as a postback
}

// ok tells whether the run passed.
func (r soakReport) ok() bool {
	return r.res.clean() && len(r.problems) == 0
}

// soakReportRun reads the facts, runs the checker and the operator
// commands, writes the section and says whether everything passed.
func soakReportRun(ctx context.Context, c *cluster, l *soakLoad, sf *soakFaults, o Options, ri soakReportInput) (bool, error) {
	in, debt, err := soakFacts(ctx, c, l.sbs, l.ins)
	if err != nil {
		return false, err
	}
	in.asked = soakAsked(l)
	in.start = byName(ri.floatsAtStart)
	end, err := c.floats(ctx)
	if err != nil {
		return false, err
	}
	in.end = byName(end)
	r := soakReport{seed: o.Seed, command: soakCommand(o), ops: len(l.p.Ops), rate: o.Rate, times: ri.times, left: ri.left,
		drainBound: o.Drain, outcomes: soakOutcomes(l), debt: debt, plannedFaults: len(l.p.Faults)}
	r.planned, _, _ = l.p.counts()
	l.update(func() { r.started, r.late = l.started, l.late })
	if r.started != r.ops {
		r.problems = append(r.problems, fmt.Sprintf("%d of %d operations started: the run was interrupted", r.started, r.ops))
	}
	r.res = check(in)
	r.failed = codesLine(ri.stats.snapshot(0).codes)
	sf.mu.Lock()
	r.faults, r.routes, r.routeErrs = append([]faultRun(nil), sf.runs...), sf.routes, sf.routeErrs
	for _, f := range sf.runs {
		for _, e := range f.errs {
			r.problems = append(r.problems, fmt.Sprintf("fault %s: %s", f.planFault, e))
		}
	}
	for _, e := range sf.routeErrLog {
		r.problems = append(r.problems, "route change: "+e)
	}
	sf.mu.Unlock()
	if ri.left != 0 {
		r.problems = append(r.problems, fmt.Sprintf("%d records, postbacks or balances still moving after the drain's %v", ri.left, o.Drain))
	}
	if r.audit = audit(ctx, c); r.audit != "clean" {
		r.problems = append(r.problems, "pixgate audit: "+r.audit)
	}
	if r.auditProvider = auditProviders(ctx, c); r.auditProvider != "clean" && r.auditProvider != "not in this binary" {
		r.problems = append(r.problems, "pixgate audit --providers: "+r.auditProvider)
	}
	var recProblems []string
	r.reconciliation, recProblems = reconcileDays(ctx, c, ri.times.begin)
	r.problems = append(r.problems, recProblems...)
	s := c.recv.Snapshot()
	events, deliveries, failedOn, forged, malformed := s.Events, s.Attempts, s.Failed, s.Forged, s.Malformed
	r.deliveries, r.failedOn = deliveries, failedOn
	for _, s := range append(forged, malformed...) {
		r.problems = append(r.problems, "postback "+s)
	}
	for _, rec := range in.records {
		k := kind(rec.kind)
		if k != chargeKind && k != withdrawalKind && k != refundKind {
			continue
		}
		for _, ev := range expectedEvents(k, &pgRecord{id: rec.id, status: rec.status}) {
			if d := events[ev]; d == nil || !d.Delivered {
				r.missing++
			}
		}
	}
	if r.missing > 0 {
		r.problems = append(r.problems, fmt.Sprintf("%d final statuses never delivered as a postback", r.missing))
	}
	if out, err := c.pixgate(ctx, "version"); err == nil {
		r.version = strings.TrimSpace(string(out))
	}
	var buf bytes.Buffer
	renderSoak(&buf, r)
	fmt.Print(buf.String())
	old, err := os.ReadFile(o.Out)
	if err != nil && !os.IsNotExist(err) {
		return false, err
	}
	doc := withSoakSection(string(old), soakBegin+"\n"+buf.String()+soakEnd)
	if err := os.WriteFile(o.Out, []byte(doc), 0o644); err != nil {
		return false, err
	}
	return r.ok(), nil
}

// renderSoak writes the randomized run's section, without its markers.
func renderSoak(w io.Writer, r soakReport) {
	fmt.Fprint(w, soakIntro)
	t := r.times
	verdict := "**clean**: every count 0, every check passed"
	if !r.ok() {
		verdict = "**FAILED**"
	}
	fmt.Fprintf(w, "\n### The last randomized run\n\nSeed **%d**, %s, `pixgate version` %s: %s.\n\n", r.seed,
		t.begin.UTC().Format("2006-01-02 15:04 UTC"), orUnknown(r.version), verdict)
	fmt.Fprintf(w, "```sh\n%s\n```\n\n", r.command)
	fmt.Fprintf(w, "%s in all: the stack started in %s, %d operations at %g/s over %s of load (each started at its time, the latest %s after it), "+
		"their last steps %s more, the drain %s.\n",
		seconds(t.drainEnd.Sub(t.begin)), seconds(t.load.Sub(t.begin)), r.ops, r.rate, seconds(t.loadEnd.Sub(t.load)), seconds(r.late),
		seconds(t.tailEnd.Sub(t.loadEnd)), seconds(t.drainEnd.Sub(t.tailEnd)))

	fmt.Fprintf(w, "\n**Operations** (%d of %d started)\n\n", r.started, r.ops)
	tb := md.NewTable(w, "", "Kind", "Operations")
	for k := range numOpKinds {
		tb.Rowf("%s | %d", k, r.planned[k])
	}
	fmt.Fprintf(w, "\nWhat they met:\n\n")
	for _, o := range r.outcomes {
		fmt.Fprintf(w, "- %s\n", o)
	}
	fmt.Fprintf(w, "- requests answered other than 2xx, or not at all, before the client's retries: %s\n", r.failed)

	n, held, on := faultTotals(r.faults)
	fmt.Fprintf(w, "\n**Faults** (%d injected of %d planned; %d route changes", len(r.faults), r.plannedFaults, r.routes)
	if r.routeErrs > 0 {
		fmt.Fprintf(w, ", %d of them failed", r.routeErrs)
	}
	fmt.Fprintf(w, ")\n\n")
	tb = md.NewTable(w, "", "Fault", "Injected", "For, in all", "On")
	for k := range numFaultKinds {
		tb.Rowf("%s | %d | %s | %s", k, n[k], seconds(held[k]), onWords(k, on[k]))
	}

	fmt.Fprintf(w, "\n**The checker**\n\n")
	tb = md.NewTable(w, "", "Finding", "Count (expected 0)", "Centavos")
	for k := range numFindings {
		tb.Rowf("%s | %d | %d", k, len(r.res.found[k]), r.res.money[k])
	}
	for k := range numFindings {
		for i, f := range r.res.found[k] {
			if i == 20 {
				fmt.Fprintf(w, "- %s: ... and %d more\n", k, len(r.res.found[k])-i)
				break
			}
			if i == 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "- %s: %s\n", strings.ToUpper(k.String()), f)
		}
	}
	renderTotals(w, r.res)
	fmt.Fprintf(w, "\n**MED.** %d infractions blocked less than they disputed; %d MED returns booked R$ %s of shortfall as debt, "+
		"failed ones released R$ %s, %d paid charges recovered R$ %s.\n",
		r.debt.shortfall, r.debt.returns, reais(r.debt.booked), reais(r.debt.released), r.debt.charges, reais(r.debt.recovered))
	fmt.Fprintf(w, "\n**Besides**\n\n- `pixgate audit` after the drain: %s.\n- `pixgate audit --providers`: %s.\n", r.audit, r.auditProvider)
	for _, rec := range r.reconciliation {
		fmt.Fprintf(w, "- `pixgate reconcile` of the day %s.\n", rec)
	}
	fmt.Fprintf(w, "- Postbacks: %d deliveries, %d answered 500 on purpose; %d final statuses never delivered.\n", r.deliveries, r.failedOn, r.missing)
	for _, p := range r.problems {
		fmt.Fprintf(w, "- PROBLEM: %s\n", p)
	}
}

// renderTotals writes what the checker compared: each sandbox's ledger,
// PixGate's records, each provider's float and each integrator's wallet.
func renderTotals(w io.Writer, res checkResult) {
	fmt.Fprintf(w, "\nWhat it compared:\n\n")
	t := md.NewTable(w, "", "Provider", "Transactions", "Charges paid (R$)", "Unpaid", "Payouts (failed)", "Refunds (failed)",
		"Paid out (R$)", "MED returns (R$)", "Infractions")
	names := make([]string, 0, len(res.providers))
	for name := range res.providers {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return providerOrder(names[i]) < providerOrder(names[j]) })
	for _, name := range names {
		pt := res.providers[name]
		t.Rowf("%s | %d | %d (%s) | %d | %d (%d) | %d (%d) | %s | %d (%s) | %s", name, pt.txns, pt.chargesPaid, reais(pt.paidIn),
			pt.chargesUnpaid, pt.payouts, pt.payoutsFailed, pt.refunds, pt.refundsFailed, reais(pt.paidOut), pt.medReturns, reais(pt.returned),
			countWords(pt.infractions))
	}
	kinds := make([]string, 0, len(res.records))
	for k, n := range res.records {
		kinds = append(kinds, fmt.Sprintf("%d %ss", n, k))
	}
	sort.Strings(kinds)
	fmt.Fprintf(w, "\nPixGate's records: %s.\n\nFloats against balances:\n\n", strings.Join(kinds, ", "))
	for _, name := range names {
		pt := res.providers[name]
		fmt.Fprintf(w, "- provider %s: balance R$ %s → R$ %s (moved R$ %s), its ledger moved R$ %s, PixGate's float R$ %s → R$ %s (moved R$ %s)\n",
			name, reais(pt.balanceStart), reais(pt.balanceEnd), reais(pt.balanceEnd-pt.balanceStart), reais(pt.moved),
			reais(pt.floatStart), reais(pt.floatEnd), reais(pt.floatMoved))
	}
	fmt.Fprintf(w, "\nWallets against the sandboxes' ledgers:\n\n")
	t = md.NewTable(w, "", "Integrator", "Implied (R$)", "Available", "Pending", "Reserved", "Blocked", "Debt")
	for _, wl := range res.wallets {
		g := wl.got
		t.Row(wl.name, reais(wl.implied), reais(g.available), reais(g.pending), reais(g.reserved), reais(g.blocked), reais(g.debt))
	}
}

func providerOrder(name string) int {
	for i, p := range soakProviders {
		if p.name == name {
			return i
		}
	}
	return len(soakProviders)
}

// countWords words counts by name: "AGREED 3, OPEN 1" ("none").
func countWords(n map[string]int) string {
	if len(n) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, n[k])
	}
	return strings.Join(parts, ", ")
}

// onWords says where a kind of fault fell: providers, or process numbers.
func onWords(k faultKind, on map[string]int) string {
	if len(on) == 0 {
		return "—"
	}
	if !k.onProvider() {
		prefix := "api-"
		if k == faultKillWorker {
			prefix = "worker-"
		}
		m := map[string]int{}
		for n, c := range on {
			m[prefix+n] = c
		}
		on = m
	}
	return countWords(on)
}
