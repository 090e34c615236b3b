package benchreport

import (
	"fmt"
	"io"
)

// The reconciliation benchmark (worker/statements BenchmarkReconcileDay),
// run alone in its own process so that the peak memory it reports is its
// own: a provider's day of a million statement lines reconciled end to end,
// against a raw scan of the same rows.

const reconcileBench = "BenchmarkReconcileDay"

// Reconciliation is the benchmark's results and the command that produced
// them.
type Reconciliation struct {
	Bench   *Bench
	Command string
}

// ParseReconciliation reads the benchmark's go test output.
func ParseReconciliation(r io.Reader, command string) (*Reconciliation, error) {
	res, err := Parse(r)
	if err != nil {
		return nil, err
	}
	b := res.get(reconcileBench)
	if b == nil || b.Stat("lines/s").N == 0 || b.Stat("peak-RSS-MB").N == 0 {
		return nil, fmt.Errorf("no %s results with lines/s and peak-RSS-MB", reconcileBench)
	}
	return &Reconciliation{Bench: b, Command: command}, nil
}

func reconcileSection(p *printer, rc *Reconciliation) {
	b := rc.Bench
	med := func(unit string) float64 { return b.Stat(unit).Median }
	p.f("## Reconciliation of a provider's day\n\n")
	p.f("`%s` reconciles one provider's day of **%s statement lines** end to end, as `pixgate reconcile run`\n", short(reconcileBench), count(med("lines")))
	p.f("does: the statement read page by page (1,000 lines a page, made as they are asked for: a provider's\n")
	p.f("answers, without HTTP), streamed into Postgres with `COPY` and matched there against as many charges\n")
	p.f("paid that day, the day's items and balance figures written; a few discrepancies are planted (one line\n")
	p.f("left out, one unknown, an amount changed every 250,000 lines). The raw scan is the floor of the same\n")
	p.f("work: the same lines copied into a temporary table and PixGate's records of the day read once, with\n")
	p.f("no matching. It runs alone, in its own process (")
	if rc.Command != "" {
		p.f("`%s`", rc.Command)
	} else {
		p.f("`make bench`")
	}
	p.f("),\nso the peak memory is the process's own (`VmHWM`: the fixture's setup, the raw scan and the run);\n")
	p.f("Postgres's own memory is its configuration's (`work_mem`, `temp_buffers`), whatever the day's size.\n\n")
	p.f("| Lines | Reconciled in | Lines/s | Raw scan, lines/s | Reconciled ÷ raw | Peak memory of the process | Load average (1 min) at the end |\n")
	p.f("|--:|--:|--:|--:|--:|--:|--:|\n")
	p.f("| %s | %s | %s | %s | %s | %s MB | %s |\n\n", count(med("lines")), dur(med("ns/op")), count(med("lines/s")),
		count(med("raw-lines/s")), pct(med("×raw")), num(med("peak-RSS-MB")), num(med("loadavg-1m")))
	p.f("The load average is the whole machine's, shared with other work: a loaded machine slows both\n")
	p.f("columns, so compare the ratio.\n\n")
}
