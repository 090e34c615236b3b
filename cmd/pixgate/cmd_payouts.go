package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// latePayoutView is how `pixgate payouts late` prints a breach.
type latePayoutView struct {
	IntegratorID int64       `json:"integrator_id"`
	ID           string      `json:"id"`
	ExternalID   *string     `json:"external_id"`
	Amount       money.Money `json:"amount"`
	DueAt        time.Time   `json:"due_at"`
	Status       string      `json:"status"`
	FinishedAt   *time.Time  `json:"finished_at"`
	// LatenessSeconds is how far past due_at it finished, or is now.
	LatenessSeconds int64 `json:"lateness_seconds"`
}

func (c *cli) payoutsCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "payouts", Short: "Payout deadlines: the withdrawals that broke theirs",
		Long: `A withdrawal with a due_at (the integrator's payout deadline from its
creation, pixgate integrator update --payout-deadline, or the request's own
due_at) breaks its deadline when it is not final by then: still PROCESSING
past it, or COMPLETED or FAILED after it (docs/operations.md, "Payout
deadlines (betting operators)").`}
	cmd.AddCommand(c.payoutsLateCommand())
	return cmd
}

func (c *cli) payoutsLateCommand() *cobra.Command {
	var (
		integrator int64
		since      string
		limit      int
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "late",
		Short: "List the withdrawals that broke their payout deadline, the most overdue first",
		Example: `  pixgate payouts late
  pixgate payouts late --integrator 7 --since 24h
  pixgate payouts late --since 2026-03-01 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			now := time.Now()
			from, err := parseSince(since, now)
			if err != nil {
				return err
			}
			if limit < 1 || limit > 10000 {
				return fmt.Errorf("--limit must be between 1 and 10000")
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				if integrator != 0 {
					if err := requireIntegrator(cmd.Context(), db, integrator); err != nil {
						return err
					}
				}
				list, err := db.LatePayouts(cmd.Context(), now, storage.LateFilter{IntegratorID: integrator, Since: from, Limit: limit})
				if err != nil {
					return err
				}
				views := make([]latePayoutView, len(list))
				for i, t := range list {
					views[i] = latePayoutView{IntegratorID: t.IntegratorID, ID: t.ID.String(), ExternalID: t.ExternalID, Amount: t.Amount,
						DueAt: t.DueAt.UTC(), Status: string(t.Status), FinishedAt: t.FinishedAt,
						LatenessSeconds: int64(storage.Lateness(t, now) / time.Second)}
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"late": views, "since": from.UTC()})
				}
				if len(views) == 0 {
					c.printf("no payout broke its deadline among those due since %s\n", from.UTC().Format(timeLayout))
					return nil
				}
				tw := table(c.stdout)
				c.printfTo(tw, "INTEGRATOR\tID\tEXTERNAL ID\tAMOUNT\tDUE AT\tSTATUS\tFINISHED\tLATE BY\n")
				for _, v := range views {
					c.printfTo(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v.IntegratorID, v.ID, orDash(deref(v.ExternalID)), v.Amount,
						v.DueAt.Format(timeLayout), v.Status, timeText(v.FinishedAt), time.Duration(v.LatenessSeconds)*time.Second)
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "only this integrator's (default: every integrator's)")
	cmd.Flags().StringVar(&since, "since", "7d", "those due since: a duration back from now (24h, 7d) or a date (YYYY-MM-DD, UTC) or RFC 3339 time")
	cmd.Flags().IntVar(&limit, "limit", 1000, "how many to show")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

// parseSince reads --since: a duration back from now (90m, 24h, 7d), a
// day (YYYY-MM-DD, UTC midnight) or an RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 && n <= 3660 {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q is neither a duration (24h, 7d), a date (YYYY-MM-DD) nor an RFC 3339 time", s)
}
