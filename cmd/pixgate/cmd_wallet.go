package main

import (
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

type walletView struct {
	IntegratorID  int64       `json:"integrator_id"`
	Available     money.Money `json:"available"`
	Pending       money.Money `json:"pending"`
	Reserved      money.Money `json:"reserved"`
	Blocked       money.Money `json:"blocked"`
	TransactionID int64       `json:"transaction_id,omitempty"`
	Credited      money.Money `json:"credited,omitempty"`
	Debited       money.Money `json:"debited,omitempty"`
}

func (c *cli) walletCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "wallet", Short: "Show and adjust integrator wallets"}
	cmd.AddCommand(c.walletCreditCommand(), c.walletDebitCommand(), c.walletShowCommand())
	return cmd
}

func (c *cli) walletShowCommand() *cobra.Command {
	var (
		integrator int64
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show an integrator's available, pending, reserved and blocked balances",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				w, err := db.Wallet(cmd.Context(), integrator)
				if err != nil {
					return notFound("integrator", integrator, err)
				}
				if asJSON {
					return printJSON(c.stdout, walletView{IntegratorID: integrator, Available: w.Available, Pending: w.Pending, Reserved: w.Reserved,
						Blocked: w.Blocked})
				}
				c.printf("integrator %d: available R$ %s, pending R$ %s, reserved R$ %s, blocked R$ %s\n", integrator, w.Available, w.Pending,
					w.Reserved, w.Blocked)
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("integrator")
	return cmd
}
