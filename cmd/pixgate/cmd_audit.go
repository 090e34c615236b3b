package main

import (
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
)

func (c *cli) auditCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Check every ledger invariant; exit 1 naming each violation",
		Long: `Check, on one consistent snapshot, that every ledger transaction sums to zero,
every account balance equals the sum of its entries (and each entry's
balance_after the running sum), no integrator account is negative, each
integrator's reserved balance equals what its in-flight withdrawals and refunds
hold, its pending balance what its paid charges still hold under a settlement
hold, and the whole ledger sums to zero. Exit 0 when clean, 1 on violations.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				violations, err := db.Audit(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					if violations == nil {
						violations = []storage.Violation{}
					}
					if err := printJSON(c.stdout, map[string]any{"ok": len(violations) == 0, "violations": violations}); err != nil {
						return err
					}
				} else {
					for _, v := range violations {
						c.printf("VIOLATION %s\n", v)
					}
					if len(violations) == 0 {
						c.printf("ledger is consistent\n")
					}
				}
				if len(violations) > 0 {
					return exitError{code: 1}
				}
				return nil
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}
