package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// The run's last check: every day the run touched is reconciled with the
// sandbox's statement, as an operator would (pixgate reconcile run, then
// report --json), and must reconcile with no exception. The sandbox serves
// PixGate's statement extension; only these commands are told so
// (PIXGATE_PROVIDER_EXTENSIONS), the run's processes are not.

// operatorEnv is what an operator's command that reads the providers'
// books is told besides the run's settings: the default sandbox serves
// PixGate's extensions (its statement, its infractions).
var operatorEnv = []string{"PIXGATE_PROVIDER_EXTENSIONS=true"}

// reconReport is the part of pixgate reconcile report --json the check
// reads.
type reconReport struct {
	Run struct {
		Reconciled     bool             `json:"reconciled"`
		Lines          int64            `json:"lines"`
		Records        int64            `json:"records"`
		Counts         map[string]int64 `json:"counts"`
		OpenExceptions int64            `json:"open_exceptions"`
		Unexplained    json.Number      `json:"unexplained"`
	} `json:"run"`
}

// reconcileDays reconciles every provider's days from begin to now (the
// default provider's and each provider record's) and says, for the
// report, what each found; problems name the days that do not reconcile.
func reconcileDays(ctx context.Context, c *cluster, begin time.Time) (lines, problems []string) {
	providers, err := c.providerNames(ctx)
	if err != nil {
		return nil, []string{fmt.Sprintf("reconciliation: the providers: %v", err)}
	}
	last := providerclient.DayOf(time.Now())
	for _, p := range providers {
		for d := providerclient.DayOf(begin); ; d = d.AddDays(1) {
			label := d.String()
			if len(providers) > 1 {
				label += " (provider " + p + ")"
			}
			var r reconReport
			err := c.reconcile(ctx, nil, "run", "--provider", p, "--date", d.String())
			if err == nil {
				err = c.reconcile(ctx, &r, "report", "--provider", p, "--date", d.String())
			}
			if err != nil {
				problems = append(problems, fmt.Sprintf("reconciliation of %s: %v", label, err))
			} else {
				line, bad := judgeReconciliation(label, r)
				lines, problems = append(lines, line), append(problems, bad...)
			}
			if d == last {
				break
			}
		}
	}
	return lines, problems
}

// providerNames are the providers the run's PixGate knows, the default one
// first (pixgate provider list).
func (c *cluster) providerNames(ctx context.Context) ([]string, error) {
	out, err := c.pixgate(ctx, "provider", "list", "--json")
	if err != nil {
		return nil, err
	}
	var list struct {
		Providers []struct {
			Name string `json:"name"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		return nil, fmt.Errorf("pixgate provider list: %w", err)
	}
	var names []string
	for _, p := range list.Providers {
		names = append(names, p.Name)
	}
	return names, nil
}

// judgeReconciliation words a day's result, and its problems: a day that
// does not reconcile, an exception of any kind.
func judgeReconciliation(day string, r reconReport) (line string, problems []string) {
	var exceptions int64
	var kinds []string
	for _, k := range []string{"missing_in_pixgate", "missing_at_provider", "amount_mismatch", "status_mismatch", "duplicate_at_provider"} {
		if n := r.Run.Counts[k]; n > 0 {
			exceptions += n
			kinds = append(kinds, fmt.Sprintf("%d %s", n, k))
		}
	}
	unexplained := string(r.Run.Unexplained)
	if unexplained == "" {
		unexplained = "not known"
	}
	line = fmt.Sprintf("%s: %d statement lines, %d of PixGate's records, %d matched, %d expected, %d exceptions, balance difference unexplained %s",
		day, r.Run.Lines, r.Run.Records, r.Run.Counts["matched"], r.Run.Counts["expected"], exceptions, unexplained)
	if exceptions > 0 || r.Run.OpenExceptions > 0 {
		problems = append(problems, fmt.Sprintf("reconciliation of %s: %s", day, strings.Join(kinds, ", ")))
	}
	if !r.Run.Reconciled {
		problems = append(problems, fmt.Sprintf("reconciliation of %s: the day does not reconcile (%s)", day, line))
	}
	return line, problems
}

// reconcile runs pixgate reconcile ARGS --json with the run's settings,
// the statement extension on, and decodes its answer into out (nil:
// discarded).
func (c *cluster) reconcile(ctx context.Context, out any, args ...string) error {
	b, err := c.pixgateWith(ctx, operatorEnv, append(append([]string{"reconcile"}, args...), "--json")...)
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(b, out)
}
