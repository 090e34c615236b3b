package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"

	"github.com/pixgate/pixgate/storage/money"
)

type walletView struct {
	IntegratorID  int64       `json:"integrator_id"`
	Available     money.Money `json:"available"`
	Pending       money.Money `json:"pending"`
	Reserved      money.Money `json:"reserved"`
	TransactionID int64       `json:"transaction_id,omitempty"`
	Credited      money.Money `json:"credited,omitempty"`
}

func (c *cli) walletCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "wallet", Short: "Show and adjust integrator wallets"}
	cmd.AddCommand(c.walletCreditCommand(), c.walletShowCommand())
	return cmd
}

func (c *cli) walletCreditCommand() *cobra.Command {
	var (
		integrator     int64
		amount, reason string
		asJSON         bool
	)
	cmd := &cobra.Command{
		Use:     "credit",
		Short:   "Credit an integrator's available balance (a balanced posting from the adjustments account)",
		Example: `  pixgate wallet credit --integrator 1 --amount 100.00 --reason "initial float"`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			amt, err := money.ParseAmount([]byte(amount))
			if err != nil {
				return fmt.Errorf("--amount %s", err)
			}
			if strings.TrimSpace(reason) == "" {
				return fmt.Errorf("--reason must say why the wallet is credited")
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				posted, err := db.CreditWallet(cmd.Context(), integrator, amt, reason)
				if err != nil {
					return fmt.Errorf("integrator %d: %w", integrator, err)
				}
				w, err := db.Wallet(cmd.Context(), integrator)
				if err != nil {
					return err
				}
				v := walletView{IntegratorID: integrator, Available: w.Available, Pending: w.Pending, Reserved: w.Reserved,
					TransactionID: posted.ID, Credited: amt}
				if asJSON {
					return printJSON(c.stdout, v)
				}
				c.printf("credited R$ %s to integrator %d (ledger transaction %d)\n", amt, integrator, posted.ID)
				c.printf("  available R$ %s, pending R$ %s, reserved R$ %s\n", w.Available, w.Pending, w.Reserved)
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	cmd.Flags().StringVar(&amount, "amount", "", "amount in reais, e.g. 100.00 (required)")
	cmd.Flags().StringVar(&reason, "reason", "", "why (kept in the ledger; required)")
	addJSONFlag(cmd, &asJSON)
	for _, f := range []string{"integrator", "amount", "reason"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

func (c *cli) walletShowCommand() *cobra.Command {
	var (
		integrator int64
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show an integrator's available, pending and reserved balances",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				w, err := db.Wallet(cmd.Context(), integrator)
				if err != nil {
					return fmt.Errorf("integrator %d: %w", integrator, err)
				}
				if asJSON {
					return printJSON(c.stdout, walletView{IntegratorID: integrator, Available: w.Available, Pending: w.Pending, Reserved: w.Reserved})
				}
				c.printf("integrator %d: available R$ %s, pending R$ %s, reserved R$ %s\n", integrator, w.Available, w.Pending, w.Reserved)
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("integrator")
	return cmd
}
