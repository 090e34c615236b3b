package load

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// overloadLeadIn is how many of the window's first seconds the
// completions are not judged in: the burst starts on an idle stack, and
// its first lifecycles complete only once the queues hold the
// admission's target time of work (2 s) and their own stages have run,
// as any phase's warm-up. The table shows those seconds too.
const overloadLeadIn = 3

// completionSpread is the window's completions per second after the
// lead-in, as × the peak: the lowest second, the 10th percentile and the
// median.
func (o overloadRun) completionSpread() (low, p10, med float64) {
	if len(o.CompletedPerSec) <= overloadLeadIn || o.Peak == 0 {
		return 0, 0, 0
	}
	xs := slices.Clone(o.CompletedPerSec[overloadLeadIn:])
	slices.Sort(xs)
	at := func(q float64) float64 { return float64(xs[int(q*float64(len(xs)-1))]) / o.Peak }
	return at(0), at(0.1), at(0.5)
}

// peakSpread is the same spread of the peak's own seconds, as × its mean:
// how steady the machine let the closed-loop peak itself be.
func (o overloadRun) peakSpread() (low, p10, med float64, ok bool) {
	if len(o.PeakPerSec) == 0 || o.Peak == 0 {
		return 0, 0, 0, false
	}
	xs := slices.Sorted(slices.Values(o.PeakPerSec))
	at := func(q float64) float64 { return float64(xs[int(q*float64(len(xs)-1))]) / o.Peak }
	return at(0), at(0.1), at(0.5), true
}

// perLifecycle is the stack's CPU and commits per completed lifecycle.
func (o overloadRun) perLifecycle() (time.Duration, float64) {
	if o.Completed == 0 {
		return 0, 0
	}
	return cpuNoLoad(o.Usage, o.Completed), float64(o.Commits) / float64(o.Completed)
}

func (o overloadRun) final() bool { return o.Unfinished == 0 && o.Completed == o.Accepted }

// overloadTable states each offered rate's figures.
func (r *report) overloadTable(w io.Writer) {
	if len(r.Overload) == 0 {
		return
	}
	fmt.Fprintln(w, "| Overload | offered /s | accepted / refused / other / not sent | completions /s after the first 3 s: min · p10 · median (× peak) | the first 3 s | longest stretch with none, work pending | CPU per lifecycle (× peak) | commits per lifecycle (peak) | final after the drain | largest queues |")
	fmt.Fprintln(w, "|---|--:|---|---|---|--:|--:|--:|---|---|")
	for _, o := range r.Overload {
		low, p10, med := o.completionSpread()
		cpu, commits := o.perLifecycle()
		desc := fmt.Sprintf("%.0f× the peak (%s/s) for %s", o.Mult, rate(o.Peak), o.Window)
		if pl, pp, pm, ok := o.peakSpread(); ok {
			desc += fmt.Sprintf("; the peak's own seconds %.2f · %.2f · %.2f", pl, pp, pm)
		}
		if o.FirstErr != "" {
			desc += fmt.Sprintf(" (first other answer: %.120s)", o.FirstErr)
		}
		final := fmt.Sprintf("yes, last postback %s after the window", ms(o.Drained))
		if !o.final() {
			final = fmt.Sprintf("**no**: %d of %d completed, %d PROCESSING after %s", o.Completed, o.Accepted, o.Unfinished, overloadDrain)
		}
		var queues []string
		for _, q := range []string{"critical", "events", "postbacks", "critical retry", "events retry", "postbacks retry"} {
			if n := o.QueueMax[q]; n > 0 {
				queues = append(queues, fmt.Sprintf("%s %d", q, n))
			}
		}
		fmt.Fprintf(w, "| %s | %s | %d / %d / %d / %d | %s · %s · %s (%.2f · %.2f · %.2f) | %v | %s | %s (%.2f) | %.1f (%.1f) | %s | %s |\n",
			desc, rate(o.Offered), o.Accepted, o.Refused, o.Failed, o.NotSent,
			rate(low*o.Peak), rate(p10*o.Peak), rate(med*o.Peak), low, p10, med, o.CompletedPerSec[:min(overloadLeadIn, len(o.CompletedPerSec))], ms(o.LongestGap),
			ms(cpu), float64(cpu)/float64(max(o.PeakCPU, 1)), commits, o.PeakCommits, final, strings.Join(queues, ", "))
	}
	fmt.Fprintln(w)
	for _, o := range r.Overload {
		fmt.Fprintf(w, "%.0f×, each second: completed %v; accepted %v; refused %v; pending critical/events/postbacks %s.\n\n",
			o.Mult, o.CompletedPerSec, o.AcceptedPerSec, o.RefusedPerSec, strings.Join(o.Backlog, " "))
	}
}

// overloadGoals states the overload's goals with the run's figures.
func (r *report) overloadGoals(row func(goal string, ok bool, figure string, measured bool), _ func(...string) bool) {
	for _, m := range overloadMults {
		i := slices.IndexFunc(r.Overload, func(o overloadRun) bool { return o.Mult == m })
		var o overloadRun
		if i >= 0 {
			o = r.Overload[i]
		}
		low, _, _ := o.completionSpread()
		figure := fmt.Sprintf("lowest second %.2f×", low)
		if pl, _, _, ok := o.peakSpread(); ok {
			figure += fmt.Sprintf(" (the peak's own lowest second %.2f×)", pl)
		}
		row(fmt.Sprintf("offered %.0f× the peak: completions ≥ 0.9× the peak every second (after a %d s lead-in)", m, overloadLeadIn), low >= 0.9,
			figure, i >= 0)
		row(fmt.Sprintf("offered %.0f× the peak: no second without a completion while work is pending", m), o.LongestGap < time.Second,
			"longest stretch "+ms(o.LongestGap), i >= 0)
		row(fmt.Sprintf("offered %.0f× the peak: every accepted withdrawal final after the drain", m), o.final(),
			fmt.Sprintf("%d of %d, %d PROCESSING", o.Completed, o.Accepted, o.Unfinished), i >= 0)
		cpu, commits := o.perLifecycle()
		row(fmt.Sprintf("offered %.0f× the peak: a lifecycle no more expensive than at the peak (CPU, commits; within 10%%)", m),
			o.Completed > 0 && float64(cpu) <= 1.1*float64(o.PeakCPU) && commits <= 1.1*o.PeakCommits,
			fmt.Sprintf("CPU %s against %s, commits %.1f against %.1f", ms(cpu), ms(o.PeakCPU), commits, o.PeakCommits), i >= 0)
	}
}
