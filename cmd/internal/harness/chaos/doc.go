package chaos

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// reportRun is what the run tells about itself besides the scenarios.
type reportRun struct {
	begin, end       time.Time
	version          string
	rate             float64
	bound, drain     time.Duration
	left             int // still moving when the drain gave up
	ledger           bool
	providerTxns     int
	ops, records     int
	finalAudit       string
	deliveries       int // postback attempts the receiver got
	failedOnPurpose  int
	forged           []string
	malformed        []string
	proxied, proxy5x int64
	global           []string
	reconciliation   []string // each provider's days the run touched, reconciled with its statement
	floatsAtStart    []floatReading
	floats           []string // each provider's float account against its balance
	hog              string   // -hog: what the run's CPU hog did under the scenarios
}

// report collects the facts, judges every record, writes the report and
// tells whether every check passed.
func report(ctx context.Context, c *cluster, l *load, o Options, runs []scenarioRun, rr reportRun) (bool, error) {
	f, _, factProblems, err := collectFacts(ctx, c, l.sbs, l.m.integrators)
	if err != nil {
		return false, err
	}
	rr.providerTxns = len(f.provider)
	recs := l.m.snapshot()
	verdicts, global := evaluate(recs, l.m.integrators, f)
	rr.global = append(factProblems, global...)
	if rr.left != 0 {
		rr.global = append(rr.global, fmt.Sprintf("%d records, postbacks or held balances still moving after the drain's %v", rr.left, o.Drain))
	}
	rr.end, rr.rate, rr.bound, rr.records = time.Now(), o.Rate, o.Bound, len(recs)
	rr.finalAudit = audit(ctx, c)
	var recProblems, floatProblems []string
	if end, err := c.floats(ctx); err != nil {
		floatProblems = []string{fmt.Sprintf("floats: pixgate provider balance: %v", err)}
	} else {
		rr.floats, floatProblems = judgeFloats(rr.floatsAtStart, end)
	}
	rr.reconciliation, recProblems = reconcileDays(ctx, c, rr.begin)
	rr.global = append(append(rr.global, floatProblems...), recProblems...)
	if out, err := c.pixgate(ctx, "version"); err == nil {
		rr.version = strings.TrimSpace(string(out))
	}
	s := c.recv.Snapshot()
	rr.deliveries, rr.failedOnPurpose, rr.forged, rr.malformed = s.Attempts, s.Failed, s.Forged, s.Malformed
	rr.proxied, rr.proxy5x = c.proxy.passed.Load(), c.proxy.failed.Load()
	rows := make([]row, len(runs))
	ok := rr.finalAudit == "clean" && len(rr.global) == 0 && len(rr.forged) == 0 && len(rr.malformed) == 0
	for i := range runs {
		st := l.stats.snapshot(i)
		rr.ops += st.ops
		rows[i] = buildRow(i, runs[i], st, verdicts, o.Bound)
		ok = ok && !rows[i].failed()
	}
	renderTable(os.Stdout, rows, o.Bound)
	for _, p := range rr.global {
		fmt.Println("PROBLEM:", p)
	}
	// The randomized run's section is kept as it is.
	old, err := os.ReadFile(o.Out)
	if err != nil && !os.IsNotExist(err) {
		return false, err
	}
	var doc bytes.Buffer
	renderDoc(&doc, rows, rr)
	return ok, os.WriteFile(o.Out, []byte(withSoakSection(doc.String(), soakSection(string(old)))), 0o644)
}

// renderDoc writes docs/reliability.md: what was run and how, then the
// table.
func renderDoc(w io.Writer, rows []row, rr reportRun) {
	fmt.Fprint(w, docIntro)
	fmt.Fprint(w, docSlow)
	fmt.Fprintf(w, "\n## The last run\n\n%s, `pixgate version` %s: %s in all, %d operations (%.0f/s asked), %d records, drained in %s.\n\n",
		rr.begin.UTC().Format("2006-01-02 15:04 UTC"), orUnknown(rr.version), seconds(rr.end.Sub(rr.begin)), rr.ops, rr.rate, rr.records, seconds(rr.drain))
	if rr.hog != "" {
		fmt.Fprintf(w, "Every scenario ran under the CPU hog (`-hog`): %s.\n\n", strings.TrimPrefix(rr.hog, "the CPU hog: "))
	}
	renderTable(w, rows, rr.bound)
	fmt.Fprintf(w, "\n### Across the run\n\n")
	fmt.Fprintf(w, "- `pixgate audit` after the drain: %s.\n", rr.finalAudit)
	if rr.ledger {
		fmt.Fprintf(w, "- The sandboxes' ledgers (%d transactions) were compared with PixGate's, transaction by transaction.\n", rr.providerTxns)
	} else {
		fmt.Fprintln(w, "- The sandboxes' ledgers were **not** compared: a sandbox has no `GET /sandbox/transactions` and forgets"+
			" everything on restart, so the provider-killed scenario was skipped too. Charges were judged by the payments the load made,"+
			" withdrawals by their key (the failing key's must fail, every other must complete), refunds as completing.")
	}
	fmt.Fprintf(w, "- Postbacks: %d deliveries reached the receiver, %d of them answered 500 on purpose; %d bad signatures, %d unreadable bodies.\n",
		rr.deliveries, rr.failedOnPurpose, len(rr.forged), len(rr.malformed))
	for _, r := range rr.floats {
		fmt.Fprintf(w, "- `pixgate provider balance` after the drain, %s.\n", r)
	}
	for _, r := range rr.reconciliation {
		fmt.Fprintf(w, "- `pixgate reconcile` of the day %s.\n", r)
	}
	fmt.Fprintf(w, "- The notification balancer passed over a stopped API %d times and answered 502 %d times.\n", rr.proxied, rr.proxy5x)
	for _, s := range append(rr.forged, rr.malformed...) {
		fmt.Fprintf(w, "- PROBLEM: postback %s\n", s)
	}
	if len(rr.global) == 0 {
		fmt.Fprintln(w, "- Every wallet equals the model; no record or provider transaction without its counterpart.")
	}
	for _, p := range rr.global {
		fmt.Fprintf(w, "- PROBLEM: %s\n", p)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return "`" + s + "`"
}
