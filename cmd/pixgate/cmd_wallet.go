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
	Debt          money.Money `json:"debt"`
	TransactionID int64       `json:"transaction_id,omitempty"`
	Credited      money.Money `json:"credited,omitempty"`
	Debited       money.Money `json:"debited,omitempty"`
}

func (c *cli) walletCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "wallet", Short: "Show and adjust integrator wallets"}
	cmd.AddCommand(c.walletCreditCommand(), c.walletDebitCommand(), c.walletShowCommand(), c.walletDebtsCommand())
	return cmd
}

func (c *cli) walletShowCommand() *cobra.Command {
	var (
		integrator int64
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show an integrator's available, pending, reserved and blocked balances, and its debt",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				w, err := db.Wallet(cmd.Context(), integrator)
				if err != nil {
					return notFound("integrator", integrator, err)
				}
				if asJSON {
					return printJSON(c.stdout, walletView{IntegratorID: integrator, Available: w.Available, Pending: w.Pending, Reserved: w.Reserved,
						Blocked: w.Blocked, Debt: w.Debt})
				}
				c.printf("integrator %d: available R$ %s, pending R$ %s, reserved R$ %s, blocked R$ %s, debt R$ %s\n", integrator, w.Available,
					w.Pending, w.Reserved, w.Blocked, w.Debt)
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("integrator")
	return cmd
}

func (c *cli) walletDebtsCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "debts",
		Short: "List the integrators that owe the platform, the largest debt first",
		Long: `List every integrator with a debt: what agreed MED infractions made the provider
return beyond what the integrator's balances could block (the money had already
left the wallet). Each debt is paid from the integrator's next paid charges
before their net is credited; this shows what is still owed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				debts, err := db.Debts(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					if debts == nil {
						debts = []storage.Debt{}
					}
					return printJSON(c.stdout, map[string]any{"debts": debts})
				}
				if len(debts) == 0 {
					c.printf("no integrator owes anything\n")
				}
				for _, d := range debts {
					c.printf("integrator %d (%s) owes R$ %s\n", d.IntegratorID, d.Name, d.Owed)
				}
				return nil
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}
