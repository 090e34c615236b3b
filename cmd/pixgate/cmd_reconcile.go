package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/statements"
)

func (c *cli) reconcileCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "reconcile",
		Short: "Reconcile PixGate's books with a provider's statement of a day: run it, print it, resolve its exceptions",
		Long: `Every line of the provider's statement of a day (America/Sao_Paulo) is matched
with PixGate's record by the strongest id both carry (end-to-end id, the
provider's id, PixGate's id), then checked for amount, direction, status and
fee; PixGate's records of the day the statement lacks are reported too, and
the day's balance difference against the provider's float. The worker runs
each provider's previous day by itself; see docs/reconciliation.md.`,
	}
	cmd.AddCommand(c.reconcileRunCommand(), c.reconcileReportCommand(), c.reconcileResolveCommand())
	return cmd
}

// reconcileDay reads --date: YYYY-MM-DD, "today" or "yesterday" (the
// default), in the providers' clock.
func reconcileDay(s string) (providerclient.Day, error) {
	today := providerclient.DayOf(time.Now())
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "yesterday":
		return today.AddDays(-1), nil
	case "today":
		return today, nil
	}
	d, err := providerclient.ParseDay(s)
	if err != nil {
		return d, fmt.Errorf("--date: %w, today or yesterday", err)
	}
	return d, nil
}

func (c *cli) reconcileRunCommand() *cobra.Command {
	var (
		provider, date string
		asJSON         bool
	)
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Reconcile a provider's day now; a rerun replaces the day's result (resolutions of what it finds again stay)",
		Example: `  pixgate reconcile run --provider default --date 2026-03-01
  pixgate reconcile run --date today`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			day, err := reconcileDay(date)
			if err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				conn, err := c.statementProvider(cmd.Context(), db, provider)
				if err != nil {
					return err
				}
				r := statements.New(c.reconcileConfig(), db, func() []providerclient.Connector { return []providerclient.Connector{conn} }, c.log, nil)
				run, err := r.Run(cmd.Context(), provider, day, storage.TriggerOperator)
				if errors.Is(err, statements.ErrNoStatement) {
					return fmt.Errorf("%w (a family provider serves PixGate's statement only with PIXGATE_PROVIDER_EXTENSIONS=true)", err)
				}
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(c.stdout, runView(run))
				}
				c.printRunSummary(run)
				c.printf("details: pixgate reconcile report --provider %s --date %s\n", run.Provider, run.Day)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&provider, "provider", providerclient.DefaultName, "provider name")
	cmd.Flags().StringVar(&date, "date", "yesterday", "the day, YYYY-MM-DD (America/Sao_Paulo), today or yesterday")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func (c *cli) reconcileReportCommand() *cobra.Command {
	var (
		provider, date string
		asJSON, asCSV  bool
	)
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Print a provider's day as its last run left it: the figures and every item (--csv: the items; --json: both)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON && asCSV {
				return fmt.Errorf("--csv and --json: choose one")
			}
			day, err := reconcileDay(date)
			if err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				run, err := db.LatestReconciliation(cmd.Context(), provider, day.String())
				if errors.Is(err, storage.ErrNoReconciliation) {
					return fmt.Errorf("%s %s has not been reconciled: pixgate reconcile run --provider %s --date %s", provider, day, provider, day)
				}
				if err != nil {
					return err
				}
				switch {
				case asJSON:
					return c.reportJSON(cmd, db, run)
				case asCSV:
					return c.reportCSV(cmd, db, run)
				}
				return c.reportText(cmd, db, run)
			})
		},
	}
	cmd.Flags().StringVar(&provider, "provider", providerclient.DefaultName, "provider name")
	cmd.Flags().StringVar(&date, "date", "yesterday", "the day, YYYY-MM-DD (America/Sao_Paulo), today or yesterday")
	cmd.Flags().BoolVar(&asCSV, "csv", false, "print the items as CSV, a header line first")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func (c *cli) reconcileResolveCommand() *cobra.Command {
	var (
		reason, operator string
		post, asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "resolve ID",
		Short: "Close an exception, with an audit record and, with --post-adjustment, the balanced posting of the money it moved",
		Example: `  pixgate reconcile resolve 0195... --reason "unknown PIX of 03-01: the payer's, refunded by the bank (ticket 88)" --post-adjustment
  pixgate reconcile resolve 0195... --reason "status corrected: the charge was credited on 03-02"
  pixgate reconcile resolve 0195... --reason "listed twice by the provider" --operator ana   # where $USER is not set`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("resolve takes the exception's id (from pixgate reconcile report)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := uuid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("%q is not an exception id (a UUID, from pixgate reconcile report)", args[0])
			}
			if strings.TrimSpace(reason) == "" {
				return fmt.Errorf("--reason must say what was found and decided (it is kept in the audit trail)")
			}
			if operator, err = c.operatorName(operator); err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				it, err := db.ResolveReconciliationItem(cmd.Context(), id,
					storage.ReconResolution{Operator: operator, Reason: reason, PostAdjustment: post})
				switch {
				case errors.Is(err, storage.ErrNotFound):
					return fmt.Errorf("exception %s not found", id)
				case errors.Is(err, storage.ErrReconNothingToPost):
					return fmt.Errorf("exception %s: nothing to post (it moves no money PixGate has not booked); resolve it without --post-adjustment", id)
				case err != nil:
					return fmt.Errorf("exception %s: %w", id, err)
				}
				if asJSON {
					return printJSON(c.stdout, itemView(it))
				}
				c.printf("%s %s (%s %s) resolved by %s\n", it.Kind, it.ID, it.Provider, it.Day, operator)
				if it.AdjustmentID != nil {
					c.printf("  adjustment of %s to the provider's float: ledger transaction %d\n", it.Adjusted, *it.AdjustmentID)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "what was found and decided (kept in the audit trail; required)")
	addOperatorFlag(cmd, &operator)
	cmd.Flags().BoolVar(&post, "post-adjustment", false, "book the money the exception moved onto the provider's float, against the adjustments account")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("reason")
	return cmd
}

// statementProvider is the connector provider name's statement is read
// through: the default provider's (PIXGATE_PROVIDER_*) or a provider
// record's, with the usual layers.
func (c *cli) statementProvider(ctx context.Context, db *storage.DB, name string) (providerclient.Connector, error) {
	if name == storage.DefaultProvider {
		conn, err := connectors.Open(c.providerConfig())
		if err != nil {
			return nil, fmt.Errorf("provider: %w", err)
		}
		return conn, nil
	}
	p, err := db.ProviderByName(ctx, name)
	if errors.Is(err, storage.ErrUnknownProvider) {
		return nil, fmt.Errorf("--provider: %w (pixgate provider list)", err)
	}
	if err != nil {
		return nil, err
	}
	m, err := c.recordProvider(p)
	if err != nil {
		return nil, fmt.Errorf("provider %q: %w", name, err)
	}
	return providerclient.Wrap(m.Connector, m.Config.WithDefaults()), nil
}

// statementProviders are the providers the worker reconciles: the default
// one and every provider record, each read through a connector of its own
// with the usual layers (a statement is read once a day, apart from the
// fleet's traffic). A record whose connector cannot be built is left out,
// with an error in the log.
func (c *cli) statementProviders(ctx context.Context, db *storage.DB) ([]providerclient.Connector, error) {
	def, err := c.statementProvider(ctx, db, storage.DefaultProvider)
	if err != nil {
		return nil, err
	}
	records, err := db.Providers(ctx)
	if err != nil {
		return nil, err
	}
	out := []providerclient.Connector{def}
	for _, p := range records {
		m, err := c.recordProvider(p)
		if err != nil {
			c.log.Error("provider left out of reconciliation: its connector cannot be built", "provider", p.Name, "error", err)
			continue
		}
		out = append(out, providerclient.Wrap(m.Connector, m.Config.WithDefaults()))
	}
	return out, nil
}

// reconcileConfig is the reconciliation's settings.
func (c *cli) reconcileConfig() statements.Config {
	return statements.Config{Grace: c.cfg.ReconcileGrace, Boundary: c.cfg.ReconcileBoundary}
}
