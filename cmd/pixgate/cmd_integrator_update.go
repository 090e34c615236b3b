package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
)

func (c *cli) integratorUpdateCommand() *cobra.Command {
	var (
		integrator int64
		hold       string
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "update",
		Short: "Change an integrator's cash-in settlement hold",
		Long: `Change how long the net of an integrator's paid charges stays in its pending
balance before it becomes available. The new hold applies to charges paid from
now on; charges already held keep the available_at they were given.`,
		Example: `  pixgate integrator update --integrator 1 --cashin-hold 24h`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := parseHold(hold)
			if err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				before, err := db.Integrator(cmd.Context(), integrator)
				if err != nil {
					return notFound("integrator", integrator, err)
				}
				in, held, err := db.SetCashInHold(cmd.Context(), integrator, d)
				if err != nil {
					return err
				}
				if asJSON {
					v := viewIntegrator(in)
					v.HeldCharges = &held
					return printJSON(c.stdout, v)
				}
				c.printf("integrator %d: cash-in hold %s (was %s), for charges paid from now on\n", in.ID, formatHold(in.CashInHold), formatHold(before.CashInHold))
				if held > 0 {
					c.printf("  %d charges already held keep their available_at\n", held)
				}
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	cmd.Flags().StringVar(&hold, "cashin-hold", "", "settlement hold of cash-in, e.g. 24h, 2d, 30m, or 0 for none (required)")
	addJSONFlag(cmd, &asJSON)
	for _, f := range []string{"integrator", "cashin-hold"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

// parseHold reads a settlement hold: a Go duration (90s, 30m, 24h, 1h30m),
// whole days (2d), or 0.
func parseHold(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n int64
		n, err = strconv.ParseInt(days, 10, 64)
		d = time.Duration(min(n, 1000)) * 24 * time.Hour // 1000 days cannot overflow; the maximum is checked below
	}
	switch {
	case err != nil:
		return 0, fmt.Errorf("--cashin-hold %q is not a duration (e.g. 24h, 2d, 30m, 0)", s)
	case d < 0:
		return 0, fmt.Errorf("--cashin-hold must not be negative")
	case d > storage.MaxCashInHold:
		return 0, fmt.Errorf("--cashin-hold may be at most 90d")
	}
	return d, nil
}

// formatHold prints a hold the way --cashin-hold takes it: "none", "2m",
// "24h", "1h30m".
func formatHold(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	s := d.String() // "24h0m0s", "2m0s", "1h30m0s", "1m30s"
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
