package main

import (
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker"
)

func (c *cli) transferCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "transfer",
		Short: "Withdrawals and refunds stuck PROCESSING: list those waiting for an operator, settle or fail them",
		Long: `A withdrawal or refund the provider no longer knows is sent again a few
times; after that the reconciler flags it for an operator and stops. Find out
from the provider (its statement, its support) whether the money left, then:

  settle  it left: COMPLETED, the reservation goes to the provider, the fee
          to the platform;
  fail    it did not: FAILED, the reservation returns to the integrator.

Either is one SQL transaction: the transition and its balanced ledger posting,
the integrator's postback, and an audit record (operator, reason, time).`,
	}
	cmd.AddCommand(c.transferListCommand(), c.transferResolveCommand(true), c.transferResolveCommand(false))
	return cmd
}

func (c *cli) transferListCommand() *cobra.Command {
	var (
		limit  int
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the withdrawals and refunds flagged for an operator, longest waiting first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 1 || limit > 1000 {
				return fmt.Errorf("--limit must be between 1 and 1000")
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				list, err := db.FlaggedTransfers(cmd.Context(), limit)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"transfers": nonNilSlice(list)})
				}
				if len(list) == 0 {
					c.printf("no withdrawal or refund is flagged for an operator: the reconciler flags one the provider no longer knows after sending it again (docs/operations.md, Stuck transfers)\n")
					return nil
				}
				tw := table(c.stdout)
				c.printfTo(tw, "KIND\tID\tINTEGRATOR\tAMOUNT\tFEE\tPIX ID\tRESENDS\tFLAGGED\tREASON\n")
				for _, f := range list {
					pix := ""
					if f.PixID != nil {
						pix = *f.PixID
					}
					c.printfTo(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\n", f.Kind, f.ID, f.IntegratorID, f.Amount, f.Fee, orDash(pix),
						f.Resends, f.FlaggedAt.Format(timeLayout), f.FlagReason)
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 100, "how many to show")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

// transferResolveCommand is `transfer settle` (settle true) or `transfer fail`.
func (c *cli) transferResolveCommand(settle bool) *cobra.Command {
	var (
		id, reason, operator, e2e string
		force, asJSON             bool
	)
	use, short := "fail", "Fail a stuck withdrawal or refund: the money did not leave, its reservation returns to the integrator"
	if settle {
		use, short = "settle", "Settle a stuck withdrawal or refund: the money left through the provider"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Example: fmt.Sprintf(`  pixgate transfer %s --id 0195... --reason "provider statement of 2025-03-01 (ticket 4411)"
  pixgate transfer %[1]s --id 0195... --reason "provider statement of 2025-03-01" --operator ana   # where $USER is not set`, use),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			transferID, err := uuid.Parse(id)
			if err != nil {
				return fmt.Errorf("--id %q is not a withdrawal or refund id (a UUID)", id)
			}
			if strings.TrimSpace(reason) == "" {
				return fmt.Errorf("--reason must say how you know (it is kept in the audit trail)")
			}
			if operator, err = c.operatorName(operator); err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				done, err := worker.ResolveTransfer(cmd.Context(), db, worker.Resolution{ID: transferID, Settle: settle,
					Reason: reason, Operator: operator, EndToEndID: e2e, Force: force})
				if err != nil {
					return fmt.Errorf("%s %s: %w", use, transferID, err)
				}
				if asJSON {
					return printJSON(c.stdout, done)
				}
				c.printf("%s %s is %s (operator %s, action %d)\n", done.Kind, done.ID, done.Status, done.Action.Operator, done.Action.ID)
				if done.Action.LedgerTransactionID != nil {
					c.printf("  ledger transaction %d\n", *done.Action.LedgerTransactionID)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&id, "id", "", "withdrawal or refund id (required)")
	cmd.Flags().StringVar(&reason, "reason", "", "why, and how you know (kept in the audit trail; required)")
	addOperatorFlag(cmd, &operator)
	cmd.Flags().BoolVar(&force, "force", false, "resolve a transfer the reconciler has not flagged (it is still trying to finish it)")
	if settle {
		cmd.Flags().StringVar(&e2e, "end-to-end-id", "", "the PIX end-to-end id, if the provider gave it")
	}
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("id")
	_ = cmd.MarkFlagRequired("reason")
	return cmd
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
