package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/provideraudit"
)

func (c *cli) auditCommand() *cobra.Command {
	var (
		asJSON, providers bool
		since, until      string
		settleWait        time.Duration
	)
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Check every ledger invariant, and with --providers the providers' books; exit 1 naming each violation",
		Long: `Check, on one consistent snapshot, that every ledger transaction sums to zero,
every account balance equals the sum of its entries (and each entry's
balance_after the running sum), no integrator account is negative, each
integrator's reserved balance equals what its in-flight withdrawals and refunds
hold, its pending balance what its paid charges still hold under a settlement
hold, and the whole ledger sums to zero. Exit 0 when clean, 1 on violations.

With --providers, then look outside, at each provider's own books (the
default provider and every provider record): its balance must equal the money
its float says PixGate expects it to hold (read again over --settle-wait while
money in flight makes them differ), and every withdrawal, refund and MED return
its statements of --since to --until show settled must agree with PixGate's
record of it: settled once, where PixGate records it, for the amount it moves,
and not FAILED; each transfer PixGate completed on a day that is over must be
in a statement. A provider whose balance or statement cannot be read is a
violation too. It reads the providers: run it off-peak, or after a drain. See
docs/ledger.md and docs/operations.md.`,
		Example: `  pixgate audit
  pixgate audit --providers
  pixgate audit --providers --since 2026-03-01 --until 2026-03-03 --settle-wait 1m --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var cfg provideraudit.Config
			if providers {
				var err error
				if cfg, err = c.providerAuditConfig(since, until, settleWait); err != nil {
					return err
				}
			} else {
				for _, f := range []string{"since", "until", "settle-wait"} {
					if cmd.Flags().Changed(f) {
						return fmt.Errorf("--%s reads the providers' books: it goes with --providers", f)
					}
				}
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				violations, err := db.Audit(cmd.Context())
				if err != nil {
					return err
				}
				if violations == nil {
					violations = []storage.Violation{}
				}
				var report *provideraudit.Report
				if providers {
					list, err := c.auditProviders(cmd.Context(), db)
					if err != nil {
						return err
					}
					r, err := provideraudit.Run(cmd.Context(), cfg, db, list)
					if err != nil {
						return fmt.Errorf("audit of the providers: %w", err)
					}
					report = &r
				}
				bad := len(violations) > 0 || (report != nil && len(report.Findings) > 0)
				if asJSON {
					out := map[string]any{"ok": !bad, "violations": violations}
					if report != nil {
						out["providers"] = report
					}
					if err := printJSON(c.stdout, out); err != nil {
						return err
					}
				} else {
					for _, v := range violations {
						c.printf("VIOLATION %s\n", v)
					}
					if len(violations) == 0 {
						c.printf("ledger is consistent\n")
					}
					if report != nil {
						c.printProviderAudit(*report)
					}
				}
				if bad {
					return exitError{code: 1}
				}
				return nil
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	cmd.Flags().BoolVar(&providers, "providers", false, "also check each provider's balance and statements against PixGate's books")
	cmd.Flags().StringVar(&since, "since", "", "first statement day read, YYYY-MM-DD (America/Sao_Paulo), today or yesterday (default: two days before today)")
	cmd.Flags().StringVar(&until, "until", "today", "last statement day read, YYYY-MM-DD, today or yesterday")
	cmd.Flags().DurationVar(&settleWait, "settle-wait", 30*time.Second, "how long a provider's balance may take to agree with its float while money is in flight")
	return cmd
}

// providerAuditConfig reads --since, --until and --settle-wait.
func (c *cli) providerAuditConfig(since, until string, settleWait time.Duration) (provideraudit.Config, error) {
	today := providerclient.DayOf(time.Now())
	first, err := auditDay("--since", since, today.AddDays(-2))
	if err != nil {
		return provideraudit.Config{}, err
	}
	last, err := auditDay("--until", until, today)
	if err != nil {
		return provideraudit.Config{}, err
	}
	switch {
	case last.Start().After(today.Start()):
		return provideraudit.Config{}, fmt.Errorf("--until %s is a day to come: no statement has it yet", last)
	case first.Start().After(last.Start()):
		return provideraudit.Config{}, fmt.Errorf("--since %s is after --until %s", first, last)
	case settleWait < 0:
		return provideraudit.Config{}, fmt.Errorf("--settle-wait %v: a wait is not negative", settleWait)
	}
	return provideraudit.Config{Since: first, Until: last, SettleWait: settleWait, Boundary: c.cfg.ReconcileBoundary}, nil
}

// auditDay reads a day flag: YYYY-MM-DD, "today" or "yesterday", in the
// providers' clock; "" is def.
func auditDay(flag, s string, def providerclient.Day) (providerclient.Day, error) {
	today := providerclient.DayOf(time.Now())
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return def, nil
	case "today":
		return today, nil
	case "yesterday":
		return today.AddDays(-1), nil
	}
	d, err := providerclient.ParseDay(s)
	if err != nil {
		return d, fmt.Errorf("%s: %w, today or yesterday", flag, err)
	}
	return d, nil
}

// auditProviders are the providers the audit reads, as provider balance
// finds them: the default one and every provider record, disabled ones
// too (what they hold is still theirs), each through a connector of its
// own with the usual layers. One whose connector cannot be built is
// listed with the reason, and the audit reports it.
func (c *cli) auditProviders(ctx context.Context, db *storage.DB) ([]provideraudit.Provider, error) {
	records, err := db.Providers(ctx)
	if err != nil {
		return nil, err
	}
	m, err := c.defaultProvider()
	out := []provideraudit.Provider{auditBooks(storage.DefaultProvider, m, err)}
	for _, p := range records {
		m, err := c.recordProvider(p)
		out = append(out, auditBooks(p.Name, m, err))
	}
	return out, nil
}

func auditBooks(name string, m fleet.Member, built error) provideraudit.Provider {
	if built != nil {
		return provideraudit.Provider{Name: name, Err: built}
	}
	return provideraudit.Provider{Name: name, Books: providerclient.Wrap(m.Connector, m.Config.WithDefaults())}
}

// printProviderAudit prints what the providers' audit read and each of its
// findings as a violation.
func (c *cli) printProviderAudit(r provideraudit.Report) {
	c.printf("providers %s: statements of %s to %s, %d transfer lines, %d of them PixGate's\n",
		strings.Join(r.Providers, ", "), r.Since, r.Until, r.Lines, r.Matched)
	switch {
	case !r.AbsenceJudged:
		c.printf("no transfer judged absent: a provider's statements were not all read\n")
	case r.CompletedFrom != nil:
		c.printf("transfers completed from %s to %s, each looked for in the statements: %d\n",
			r.CompletedFrom.In(providerclient.StatementZone).Format(time.DateTime), r.CompletedTo.In(providerclient.StatementZone).Format(time.DateTime), r.Completed)
	}
	for _, f := range r.Findings {
		c.printf("VIOLATION %s\n", f)
	}
	if len(r.Findings) == 0 {
		c.printf("the providers' books agree with PixGate's\n")
	}
}
