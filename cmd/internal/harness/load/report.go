package load

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	md "github.com/pixgate/pixgate/cmd/internal/harness/report"
)

// report is everything a run measured.
type report struct {
	Start, End  time.Time
	Conns, Many int
	Phases      map[string]phase
	// Pairs are the yardsticks (the arch and bare lifecycles) and the
	// lifecycle at its peak run again, one after the other, after the
	// run's own (Phases "arch", "bare" and "life-peak"): the goals against
	// the arch lifecycle take the median of every pair's ratio.
	Pairs    []pairRun
	Overload []overloadRun // overload.go
	Problems []string
}

func ms(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.0f s", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
}

func rate(v float64) string {
	if v >= 100 {
		s := fmt.Sprintf("%.0f", v)
		if len(s) > 3 {
			s = s[:len(s)-3] + "," + s[len(s)-3:]
		}
		return s
	}
	return fmt.Sprintf("%.1f", v)
}

// cpuPerOp is each component's CPU per operation, in ms.
func cpuPerOp(p phase) string {
	if p.Result.Ops == 0 {
		return "—"
	}
	var parts []string
	for _, c := range components {
		if len(p.Only) > 0 && !slices.Contains(p.Only, c) {
			continue
		}
		if d, ok := p.Usage.CPU[c]; ok && d > 0 {
			parts = append(parts, fmt.Sprintf("%s %.2f", c, float64(d)/1e6/float64(p.Result.Ops)))
		}
	}
	return strings.Join(parts, " · ")
}

// cpuTotal is all the run's CPU per operation of p (every process measured).
func cpuTotal(p phase) time.Duration {
	if p.Result.Ops == 0 {
		return 0
	}
	var sum time.Duration
	for c, d := range p.Usage.CPU {
		if len(p.Only) == 0 || slices.Contains(p.Only, c) {
			sum += d
		}
	}
	return sum / time.Duration(p.Result.Ops)
}

// bound says what limited a phase: the machine's CPU when it was busy
// (and whose), otherwise what the database sessions were waiting on.
func bound(p phase) string {
	u := p.Usage
	if u.Elapsed == 0 {
		return ""
	}
	var mine time.Duration
	top, topCPU := "", time.Duration(0)
	for c, d := range u.CPU {
		mine += d
		if d > topCPU {
			top, topCPU = c, d
		}
	}
	used := float64(mine) / float64(u.Elapsed)
	var b strings.Builder
	if u.Cores > 0 && u.Busy >= 0.85*u.Cores {
		fmt.Fprintf(&b, "CPU: %.2f of %.0f cores busy (this run %.2f, most %s)", u.Busy, u.Cores, used, top)
	} else {
		fmt.Fprintf(&b, "not CPU: %.2f of %.0f cores busy (this run %.2f)", u.Busy, u.Cores, used)
	}
	if u.Commits > 0 && p.Result.Ops > 0 {
		fmt.Fprintf(&b, "; %.1f commits per op", float64(u.Commits)/float64(p.Result.Ops))
	}
	if active, ok := u.Sessions["active"]; ok {
		fmt.Fprintf(&b, "; Postgres sessions %.1f active, %.1f idle in transaction", active, u.Sessions["idle in transaction"])
		var waits []string
		for k, v := range u.Sessions {
			if w, ok := strings.CutPrefix(k, "wait:"); ok && v >= 0.1 {
				waits = append(waits, fmt.Sprintf("%s %.1f", w, v))
			}
		}
		sort.Strings(waits)
		if len(waits) > 0 {
			fmt.Fprintf(&b, " (waiting: %s)", strings.Join(waits, ", "))
		}
	}
	return b.String()
}

func (r *report) raw() float64 {
	if p := r.Phases["raw-tx"]; p.Result.Elapsed > 0 {
		return p.Result.rate()
	}
	return 0
}

func (r *report) row(w io.Writer, p phase, ops string) {
	lat := func(q float64) string {
		if p.NoLatency || len(p.Result.Latencies) == 0 {
			return "—"
		}
		return ms(p.Result.percentile(q))
	}
	if ops == "" {
		ops = rate(p.Result.rate())
	}
	ratio := "—"
	if raw := r.raw(); raw > 0 && p.Result.Elapsed > 0 && p.Name != "payment-postback" {
		ratio = fmt.Sprintf("%.2f", p.Result.rate()/raw)
	}
	desc := p.Desc
	if p.Result.Errors > 0 {
		desc += fmt.Sprintf(" (%d errors, first: %.120s)", p.Result.Errors, p.Result.FirstErr)
	}
	if len(p.Notes) > 0 {
		desc += " (" + strings.Join(p.Notes, "; ") + ")"
	}
	cost := "—"
	if rawCPU := cpuTotal(r.Phases["raw-tx"]); rawCPU > 0 && p.Result.Ops > 0 {
		cost = fmt.Sprintf("%.1f", float64(cpuTotal(p))/float64(rawCPU))
	}
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", desc, ops, lat(0.5), lat(0.9), lat(0.99), ratio, cost, cpuPerOp(p), bound(p))
}

func (r *report) render(w io.Writer) {
	fmt.Fprintf(w, "Run %s, %s; %d integrators over %d HTTP connections unless said.\n\n",
		r.Start.UTC().Format("2006-01-02 15:04 UTC"), r.End.Sub(r.Start).Round(time.Second), r.Conns, r.Conns)
	md.NewTable(w, "lrrrrrr", "Operation", "ops/s", "p50", "p90", "p99", "× raw tx", "CPU × raw tx", "CPU per op, ms", "What bounds it")
	for _, name := range []string{"raw-tx", "raw-one", "raw-pipelined", "create-stopped", "create-stopped-hot", "create", "charge-create", "balance", "drain"} {
		if p, ok := r.Phases[name]; ok {
			r.row(w, p, "")
		}
	}
	if p, ok := r.Phases["payment-postback"]; ok {
		p.Desc = fmt.Sprintf("%s, %s/s (30%% of the lifecycle's peak)", p.Desc, rate(p.Offered))
		r.row(w, p, "—")
	}
	for _, name := range []string{"create-few", "create-many"} {
		if p, ok := r.Phases[name]; ok {
			r.row(w, p, "")
		}
	}
	for _, name := range []string{"batch-reserve", "batch-send"} {
		if p, ok := r.Phases[name]; ok {
			r.row(w, p, "")
		}
	}
	fmt.Fprintln(w)
	if note := r.batchNote(); note != "" {
		fmt.Fprintf(w, "%s\n\n", note)
	}
	r.lifecycleTable(w)
	r.overloadTable(w)
	r.goals(w)
}

// goals states each goal with the run's figure.
func (r *report) goals(w io.Writer) {
	raw := r.raw()
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**missed**"
	}
	ran := func(names ...string) bool {
		for _, n := range names {
			if _, ok := r.Phases[n]; !ok {
				return false
			}
		}
		return true
	}
	var t *md.Table
	row := func(goal string, ok bool, figure string, measured bool) {
		if !measured {
			figure, ok = "not measured in this run", false
		}
		t.Row(goal, figure, mark(ok))
	}
	t = md.NewTable(w, "", "Goal", "Figure", "")
	r.lifecycleGoals(row, ran)
	r.overloadGoals(row, ran)
	if raw > 0 {
		r.createGoals(row, ran)
	}
	if len(r.Problems) > 0 {
		fmt.Fprintf(w, "\n**The run was not correct:** %s\n", strings.Join(r.Problems, "; "))
	} else {
		fmt.Fprintln(w, "\nCorrectness at the end of the run: every withdrawal final, every postback received, `pixgate audit` clean.")
	}
}

// createGoals states the goals of the creates, against the raw transaction.
func (r *report) createGoals(row func(goal string, ok bool, figure string, measured bool), ran func(...string) bool) {
	raw := r.raw()
	ph := func(n string) phase { return r.Phases[n] }
	create, stopped, charges := ph("create"), ph("create-stopped"), ph("charge-create")
	row("withdrawal create as deployed ≥ 0.6× raw tx", create.Result.rate() >= 0.6*raw,
		fmt.Sprintf("%.2f×", create.Result.rate()/raw), ran("create"))
	row("withdrawal create, worker stopped ≥ 1.0× raw tx", stopped.Result.rate() >= raw,
		fmt.Sprintf("%.2f×", stopped.Result.rate()/raw), ran("create-stopped"))
	p99 := create.Result.percentile(0.99)
	row(fmt.Sprintf("withdrawal create p99 ≤ 50 ms at %d connections", r.Conns), p99 <= 50*time.Millisecond, ms(p99), ran("create"))
	row("charge create ≥ 0.6× raw tx", charges.Result.rate() >= 0.6*raw, fmt.Sprintf("%.2f×", charges.Result.rate()/raw), ran("charge-create"))
	pp := ph("payment-postback")
	row("payment → postback p99 ≤ 100 ms at 30% of the lifecycle's peak",
		pp.Result.Ops > 0 && pp.Result.Errors == 0 && pp.Result.percentile(0.99) <= 100*time.Millisecond,
		ms(pp.Result.percentile(0.99)), ran("payment-postback"))
	// Against the creates with the run's integrators right before the
	// others were added (fewThenMany); a run without them, against the
	// first creates.
	many, few, fewName := ph("create-many"), create, "create"
	if p, ok := r.Phases["create-few"]; ok {
		few, fewName = p, "create-few"
	}
	row(fmt.Sprintf("withdrawal create with %d integrators within 10%% of the rate with %d", r.Many, r.Conns),
		many.Result.rate() >= 0.9*few.Result.rate(), fmt.Sprintf("%.2f×", many.Result.rate()/max(few.Result.rate(), 1e-9)),
		ran(fewName, "create-many"))
}
