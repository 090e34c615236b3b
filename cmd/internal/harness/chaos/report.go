package chaos

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	md "github.com/pixgate/pixgate/cmd/internal/harness/report"
)

// row is one scenario's line of the table.
type row struct {
	fault       string
	skipped     string
	rate        float64
	ops, shed   int
	codes       map[string]int
	lost        int64 // centavos the integrators should have and do not
	created     int64 // centavos they have and should not
	duplicated  int64 // centavos paid more than once at the provider
	late        int   // records final later than the bound
	longest     time.Duration
	nonFinal    int // records never final
	missing     int // postbacks never delivered
	audit       string
	recovery    time.Duration
	hasRecovery bool
	notes       []string
	problems    []string
}

// buildRow sums the verdicts of scenario idx and its statistics.
func buildRow(idx int, sr scenarioRun, st scenarioStats, vs []verdict, bound time.Duration) row {
	r := row{fault: sr.fault, skipped: sr.skipped, audit: sr.audit, ops: st.ops, shed: st.shed, codes: st.codes}
	if sr.skipped != "" {
		return r
	}
	if d := sr.end.Sub(sr.start).Seconds(); d > 0 {
		r.rate = float64(st.ops) / d
	}
	r.hasRecovery = sr.name != "baseline"
	var lastFail, lastFinal time.Duration
	for _, t := range st.failedAt {
		if t.After(sr.recovered) {
			lastFail = max(lastFail, t.Sub(sr.recovered))
		}
	}
	for _, v := range vs {
		if v.scenario != idx {
			continue
		}
		switch {
		case v.diff < 0:
			r.lost -= v.diff
		case v.diff > 0:
			r.created += v.diff
		}
		r.duplicated += v.duplicated
		if v.nonFinal {
			r.nonFinal++
		} else if v.latency > bound {
			r.late++
			r.problems = append(r.problems, fmt.Sprintf("%s: final %s after its %s, beyond %s (provider %s)",
				v.name, seconds(v.latency), map[bool]string{true: "payment", false: "creation"}[v.kind == chargeKind], seconds(bound), v.provider))
		}
		r.longest = max(r.longest, v.latency)
		r.missing += v.missing
		if !v.requested.After(sr.recovered) && v.finalAt.After(sr.recovered) {
			lastFinal = max(lastFinal, v.finalAt.Sub(sr.recovered))
		}
		r.problems = append(r.problems, v.problems...)
	}
	r.notes = append(r.notes, creditFigures(idx, sr, vs))
	r.problems = append(r.problems, creditLag(idx, sr, vs, &r.notes)...)
	r.problems = append(r.problems, failoverCheck(idx, sr, vs, &r.notes)...)
	r.problems = append(r.problems, postbackIsolation(idx, sr, vs, &r.notes)...)
	r.recovery = max(lastFail, lastFinal)
	if r.hasRecovery && r.recovery > 0 {
		r.notes = append(r.notes, fmt.Sprintf("recovery: requests failed until %s after, records asked for before were final %s after",
			seconds(lastFail), seconds(lastFinal)))
	}
	for what, n := range st.notes {
		r.notes = append(r.notes, fmt.Sprintf("%s ×%d", what, n))
	}
	if sr.passedOver > 0 {
		r.notes = append(r.notes, fmt.Sprintf("provider notifications the balancer sent to the other API, this one refusing connections: %d", sr.passedOver))
	}
	if st.shed > 0 {
		r.notes = append(r.notes, fmt.Sprintf("%d operations not started: too many in flight", st.shed))
	}
	r.notes = append(append(r.notes, sr.errs...), sr.notes...)
	sort.Strings(r.notes)
	return r
}

// failed tells whether the row breaks one of the run's promises.
func (r row) failed() bool {
	return r.skipped == "" && (r.lost != 0 || r.created != 0 || r.duplicated != 0 || r.late != 0 || r.nonFinal != 0 ||
		r.missing != 0 || r.audit != "clean" || len(r.problems) > 0)
}

func (r row) failedRequests() string {
	total := 0
	codes := make([]string, 0, len(r.codes))
	for code, n := range r.codes {
		total += n
		codes = append(codes, code)
	}
	if total == 0 {
		return "0"
	}
	sort.Slice(codes, func(i, j int) bool {
		if r.codes[codes[i]] != r.codes[codes[j]] {
			return r.codes[codes[i]] > r.codes[codes[j]]
		}
		return codes[i] < codes[j]
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%s×%d", c, r.codes[c])
	}
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}

func (r row) stuck() string {
	s := fmt.Sprintf("%d (longest %s)", r.late, seconds(r.longest))
	if r.nonFinal > 0 {
		s += fmt.Sprintf(", %d never final", r.nonFinal)
	}
	return s
}

func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f s", d.Seconds())
}

// renderTable writes the table and, under it, each scenario's notes and
// problems.
func renderTable(w io.Writer, rows []row, bound time.Duration) {
	t := md.NewTable(w, "", "Fault", "Load (ops/s)", "Failed requests (codes)", "Money lost / created / duplicated (centavos)",
		"Records final after "+seconds(bound)+" (longest)", "Postbacks missing", "Audit", "Recovery")
	for _, r := range rows {
		if r.skipped != "" {
			t.Row(r.fault, "skipped: "+r.skipped, "", "", "", "", "", "")
			continue
		}
		rec := "—"
		if r.hasRecovery {
			rec = seconds(r.recovery)
		}
		audit := r.audit
		if audit != "clean" {
			audit = "**" + strings.SplitN(audit, ":", 2)[0] + "**"
		}
		money := fmt.Sprintf("%d / %d / %d", r.lost, r.created, r.duplicated)
		if r.lost != 0 || r.created != 0 || r.duplicated != 0 {
			money = "**" + money + "**"
		}
		t.Rowf("%s | %.1f | %s | %s | %s | %d | %s | %s", r.fault, r.rate, r.failedRequests(), money, r.stuck(), r.missing, audit, rec)
	}
	for _, r := range rows {
		if len(r.notes) == 0 && len(r.problems) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n**%s**\n\n", r.fault)
		for _, n := range r.notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
		for i, p := range r.problems {
			if i == 20 {
				fmt.Fprintf(w, "- PROBLEM: ... and %d more\n", len(r.problems)-i)
				break
			}
			fmt.Fprintf(w, "- PROBLEM: %s\n", p)
		}
	}
}

// creditLag checks a scenario's creditBound: every charge of scenario idx
// paid while the fault lasted was credited within it. It notes the lags
// by provider (count, median, 99th percentile, longest) and returns a
// problem per provider whose charges were credited later.
func creditLag(idx int, sr scenarioRun, vs []verdict, notes *[]string) []string {
	if sr.creditBound <= 0 {
		return nil
	}
	lags := map[string][]time.Duration{}
	late, never := map[string]int{}, map[string]int{}
	n := 0
	for _, v := range vs {
		if v.scenario != idx || v.paidAt.IsZero() || v.paidAt.Before(sr.injected) || v.paidAt.After(sr.recovered) {
			continue
		}
		n++
		lag := v.latency
		if v.finalAt.IsZero() {
			lag = sr.end.Sub(v.paidAt) // never credited: at least until the scenario ended
			never[v.provider]++
		}
		lags[v.provider] = append(lags[v.provider], lag)
		if v.finalAt.IsZero() || lag > sr.creditBound {
			late[v.provider]++
		}
	}
	*notes = append(*notes, fmt.Sprintf("charges paid during the fault: %d, credited after their payment: %s", n, lagsByProvider(lags)))
	var problems []string
	for _, p := range byProviderOrder(lags) {
		if late[p] == 0 {
			continue
		}
		problems = append(problems, fmt.Sprintf("%d of the %d charges paid during the fault at %s were credited later than %s after their payment (%d never)",
			late[p], len(lags[p]), providerName(p), seconds(sr.creditBound), never[p]))
	}
	return problems
}

// creditFigures notes how soon the charges of scenario idx paid during it
// were credited, by provider; the never credited count until its end.
func creditFigures(idx int, sr scenarioRun, vs []verdict) string {
	lags := map[string][]time.Duration{}
	n := 0
	for _, v := range vs {
		if v.scenario != idx || v.paidAt.IsZero() {
			continue
		}
		n++
		lag := v.latency
		if v.finalAt.IsZero() {
			lag = max(sr.end.Sub(v.paidAt), 0)
		}
		lags[v.provider] = append(lags[v.provider], lag)
	}
	return fmt.Sprintf("charges paid in the scenario: %d, credited after their payment: %s", n, lagsByProvider(lags))
}

// lagsByProvider words lags by provider: "default 400 (p50 40 ms, p99
// 1.2 s, max 3.0 s); b 12 (...)".
func lagsByProvider(lags map[string][]time.Duration) string {
	if len(lags) == 0 {
		return "none"
	}
	var parts []string
	for _, p := range byProviderOrder(lags) {
		parts = append(parts, fmt.Sprintf("%s %d (%s)", providerName(p), len(lags[p]), figuresOf(lags[p])))
	}
	return strings.Join(parts, "; ")
}

// byProviderOrder is the providers of m: the default, b, any other by
// name, then "" (PixGate has no record).
func byProviderOrder[T any](m map[string]T) []string {
	rank := func(p string) int {
		switch p {
		case "default":
			return 0
		case secondProvider:
			return 1
		case "":
			return 3
		}
		return 2
	}
	ps := make([]string, 0, len(m))
	for p := range m {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool {
		if rank(ps[i]) != rank(ps[j]) {
			return rank(ps[i]) < rank(ps[j])
		}
		return ps[i] < ps[j]
	})
	return ps
}

func providerName(p string) string {
	if p == "" {
		return "no provider recorded"
	}
	return p
}

// figures are durations' count, median, 99th percentile and longest.
type figures struct {
	n             int
	p50, p99, max time.Duration
}

// figuresOf summarizes ds (nearest-rank percentiles); ds is not changed.
func figuresOf(ds []time.Duration) figures {
	if len(ds) == 0 {
		return figures{}
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := func(q float64) time.Duration {
		i := int(math.Ceil(q*float64(len(s)))) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return figures{n: len(s), p50: rank(0.5), p99: rank(0.99), max: s[len(s)-1]}
}

func (f figures) String() string {
	if f.n == 0 {
		return "none"
	}
	return fmt.Sprintf("p50 %s, p99 %s, max %s", lagText(f.p50), lagText(f.p99), lagText(f.max))
}

// lagText is a credit lag: milliseconds below a second, where credits
// usually are (the sandbox notifies as it answers the payment).
func lagText(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return seconds(d)
}
