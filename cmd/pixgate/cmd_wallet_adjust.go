package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// walletAdjustment is what tells wallet credit and wallet debit apart; both
// are balanced postings between the integrator's available balance and the
// platform's adjustments account.
type walletAdjustment struct {
	use, short, long, example string
	verb, preposition         string      // "credited to", "debited from"
	sign                      money.Money // +1 credits, -1 debits
	record                    func(v *walletView, amount money.Money)
}

func (c *cli) walletCreditCommand() *cobra.Command {
	return c.walletAdjustCommand(walletAdjustment{
		use:     "credit",
		short:   "Credit an integrator's available balance (a balanced posting from the adjustments account)",
		example: `  pixgate wallet credit --integrator 1 --amount 100.00 --reason "initial float"`,
		verb:    "credited", preposition: "to",
		sign:   1,
		record: func(v *walletView, m money.Money) { v.Credited = m },
	})
}

func (c *cli) walletDebitCommand() *cobra.Command {
	return c.walletAdjustCommand(walletAdjustment{
		use:   "debit",
		short: "Debit an integrator's available balance (a balanced posting to the adjustments account)",
		long: `Debit an integrator's available balance back to the adjustments account: the
mirror of wallet credit, to undo a mistaken credit. Pending and reserved money
are never touched; a debit larger than the available balance is refused and
changes nothing.`,
		example: `  pixgate wallet debit --integrator 1 --amount 100.00 --reason "credited to the wrong integrator"`,
		verb:    "debited", preposition: "from",
		sign:   -1,
		record: func(v *walletView, m money.Money) { v.Debited = m },
	})
}

func (c *cli) walletAdjustCommand(a walletAdjustment) *cobra.Command {
	var (
		integrator                int64
		amount, reason, reference string
		asJSON                    bool
	)
	cmd := &cobra.Command{
		Use:     a.use,
		Short:   a.short,
		Long:    a.long,
		Example: a.example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			amt, err := money.ParseAmount([]byte(amount))
			if err != nil {
				return fmt.Errorf("--amount %s", err)
			}
			if strings.TrimSpace(reason) == "" {
				return fmt.Errorf("--reason must say why the wallet is %s", a.verb)
			}
			if !validReference(reference) {
				return fmt.Errorf("--reference must be 1 to 64 letters, digits or . _ : -")
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				if err := requireIntegrator(cmd.Context(), db, integrator); err != nil {
					return err
				}
				posted, err := db.AdjustWallet(cmd.Context(), integrator, a.sign*amt, reason, reference)
				if errors.Is(err, ledger.ErrDuplicate) {
					return fmt.Errorf("reference %q was already posted (an earlier run of this adjustment took effect); nothing was changed", reference)
				}
				var short *ledger.InsufficientFundsError
				if errors.As(err, &short) {
					return fmt.Errorf("integrator %d: available balance R$ %s does not cover a debit of R$ %s; nothing was changed",
						integrator, short.Balance, amt)
				}
				if err != nil {
					return err
				}
				w, err := db.Wallet(cmd.Context(), integrator)
				if err != nil {
					return err
				}
				v := walletView{IntegratorID: integrator, Available: w.Available, Pending: w.Pending, Reserved: w.Reserved, TransactionID: posted.ID}
				a.record(&v, amt)
				if asJSON {
					return printJSON(c.stdout, v)
				}
				c.printf("%s R$ %s %s integrator %d (ledger transaction %d)\n", a.verb, amt, a.preposition, integrator, posted.ID)
				c.printf("  available R$ %s, pending R$ %s, reserved R$ %s\n", w.Available, w.Pending, w.Reserved)
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	cmd.Flags().StringVar(&amount, "amount", "", "amount in reais, e.g. 100.00 (required)")
	cmd.Flags().StringVar(&reason, "reason", "", "why (kept in the ledger; required)")
	cmd.Flags().StringVar(&reference, "reference", "", "your reference for this adjustment (e.g. a ticket id): a second run with the same reference is refused, so a retry never posts twice")
	addJSONFlag(cmd, &asJSON)
	for _, f := range []string{"integrator", "amount", "reason"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

// validReference reports whether ref is empty (a random reference) or an
// operator's reference the ledger can keep as it is.
func validReference(ref string) bool {
	if len(ref) > 64 {
		return false
	}
	for _, r := range ref {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:-", r)
		if !ok {
			return false
		}
	}
	return true
}
