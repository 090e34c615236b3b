package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
)

// lookupRatioView is how `pixgate lookups ratio` prints an integrator's
// figures. Ratio is null without payments.
type lookupRatioView struct {
	IntegratorID int64    `json:"integrator_id"`
	Lookups      int64    `json:"lookups"`
	Misses       int64    `json:"misses"`
	Payments     int64    `json:"payments"`
	Ratio        *float64 `json:"ratio"`
	Flagged      bool     `json:"flagged"`
}

func viewLookupRatio(r storage.LookupRatio) lookupRatioView {
	v := lookupRatioView{IntegratorID: r.IntegratorID, Lookups: r.Lookups, Misses: r.Misses, Payments: r.Payments, Flagged: r.Flagged()}
	if x, ok := r.Ratio(); ok {
		v.Ratio = &x
	}
	return v
}

func (c *cli) lookupsCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "lookups", Short: "Key lookups: the lookup-to-payment ratio",
		Long: `PIX key lookups (GET /api/v1/pix-keys and the same-holder check of a
withdrawal) are counted per integrator and day (America/Sao_Paulo) in
Postgres. The central bank expects lookups not to exceed about twice the
payments; an integrator above 2:1 is flagged.`}
	cmd.AddCommand(c.lookupsRatioCommand())
	return cmd
}

func (c *cli) lookupsRatioCommand() *cobra.Command {
	var (
		integrator int64
		days       int
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "ratio",
		Short: "Report each integrator's key lookups, misses, payments and their ratio, flagging those above 2:1",
		Example: `  pixgate lookups ratio
  pixgate lookups ratio --integrator 7 --days 30`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if days < 1 || days > 366 {
				return fmt.Errorf("--days must be between 1 and 366")
			}
			from := storage.SaoPauloMidnight(time.Now()).AddDate(0, 0, -(days - 1))
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				if integrator != 0 {
					if err := requireIntegrator(cmd.Context(), db, integrator); err != nil {
						return err
					}
				}
				list, err := db.LookupRatios(cmd.Context(), integrator, from)
				if err != nil {
					return err
				}
				views := make([]lookupRatioView, len(list))
				for i, r := range list {
					views[i] = viewLookupRatio(r)
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"since": from, "days": days, "max_ratio": storage.MaxLookupRatio, "integrators": views})
				}
				if len(views) == 0 {
					c.printf("no key lookups nor payments since %s\n", from.Format(time.DateOnly))
					return nil
				}
				tw := table(c.stdout)
				c.printfTo(tw, "INTEGRATOR\tLOOKUPS\tMISSES\tPAYMENTS\tRATIO\t\n")
				for _, v := range views {
					ratio := "-"
					if v.Ratio != nil {
						ratio = fmt.Sprintf("%.2f", *v.Ratio)
					}
					flag := ""
					if v.Flagged {
						flag = fmt.Sprintf("above %d:1", storage.MaxLookupRatio)
					}
					c.printfTo(tw, "%d\t%d\t%d\t%d\t%s\t%s\n", v.IntegratorID, v.Lookups, v.Misses, v.Payments, ratio, flag)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				c.printf("Since %s (America/Sao_Paulo), %d days; payments are the withdrawals created.\n", from.Format(time.DateOnly), days)
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "only this integrator (default: every integrator with lookups or payments)")
	cmd.Flags().IntVar(&days, "days", 7, "the days reported, today included")
	addJSONFlag(cmd, &asJSON)
	return cmd
}
