package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// floatAdjustView is what provider adjust posted and the float after it.
type floatAdjustView struct {
	Provider      string      `json:"provider"`
	Adjusted      money.Money `json:"adjusted"`
	Float         money.Money `json:"float"`
	TransactionID int64       `json:"transaction_id"`
	// Day is the day whose reconciliation counts the adjustment as a
	// movement; empty when it names none.
	Day string `json:"day,omitempty"`
}

func (c *cli) providerAdjustCommand() *cobra.Command {
	var (
		amount, reason, reference, date string
		asJSON                          bool
	)
	cmd := &cobra.Command{
		Use:   "adjust NAME",
		Short: "Correct the money PixGate expects a provider to hold (a balanced posting against the adjustments account)",
		Long: `Tell the ledger about money at a provider that no charge or transfer explains:
what its account held before PixGate's first transaction (the difference pixgate
provider balance shows from the start), a tariff it charged outside any
transaction, a difference a reconciliation found unexplained. --amount is
positive when the provider holds that much more than PixGate expects, negative
(e.g. --amount=-12.34) when less. The posting moves the provider's float against
the platform adjustments account and is checked by pixgate audit.

--date names the day the money moved at the provider outside any line of its
statement (a tariff, a deposit: the day a reconciliation found unexplained);
that day's reconciliation counts the adjustment as a movement of the day, so
it reconciles when run again. Without --date the adjustment is no day's
movement: what the account held before PixGate's first transaction is in
every statement's opening balance, and from now on PixGate expects it too.`,
		Example: `  pixgate provider adjust b --amount 5000.00 --reason "balance before PixGate" --reference OPS-17
  pixgate provider adjust default --amount=-12.34 --date 2026-03-01 --reason "monthly tariff" --reference OPS-18`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			digits, negative := strings.CutPrefix(amount, "-")
			amt, err := money.ParseAmount([]byte(digits))
			if err != nil || amt == 0 {
				return fmt.Errorf("--amount %q: a non-zero amount in reais, e.g. 100.00 or -12.34", amount)
			}
			if negative {
				amt = -amt
			}
			if strings.TrimSpace(reason) == "" {
				return fmt.Errorf("--reason must say why the float is adjusted")
			}
			if !validReference(reference) {
				return fmt.Errorf("--reference must be 1 to 64 letters, digits or . _ : -")
			}
			day, err := adjustDay(date)
			if err != nil {
				return err
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				posted, err := db.AdjustFloatOn(cmd.Context(), name, day, amt, reason, reference)
				if errors.Is(err, ledger.ErrDuplicate) {
					return fmt.Errorf("reference %q was already posted (an earlier run of this adjustment took effect); nothing was changed", reference)
				}
				if err != nil {
					return providerError(name, err)
				}
				floats, err := db.FloatBalances(cmd.Context())
				if err != nil {
					return err
				}
				v := floatAdjustView{Provider: name, Adjusted: amt, Float: floats[name], TransactionID: posted.ID, Day: day}
				if asJSON {
					return printJSON(c.stdout, v)
				}
				c.printf("adjusted provider %s's float by R$ %s (ledger transaction %d)\n", name, amt, posted.ID)
				c.printf("  PixGate now expects %s to hold R$ %s\n", name, v.Float)
				if day != "" {
					c.printf("  counted in the reconciliation of %s; run it again: pixgate reconcile run --provider %s --date %s\n", day, name, day)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&amount, "amount", "", "reais the provider holds beyond (positive) or short of (negative) what PixGate expects (required)")
	cmd.Flags().StringVar(&reason, "reason", "", "why (kept in the ledger; required)")
	cmd.Flags().StringVar(&date, "date", "", "the day the money moved at the provider, YYYY-MM-DD (America/Sao_Paulo), today or yesterday; none for what it held before PixGate")
	cmd.Flags().StringVar(&reference, "reference", "", "your reference (e.g. a ticket id): a second run with the same reference is refused, so a retry never posts twice")
	addJSONFlag(cmd, &asJSON)
	for _, f := range []string{"amount", "reason"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

// adjustDay reads provider adjust's --date: empty (the adjustment names no
// day), or a day no later than today in the providers' clock, since money
// cannot have moved on a day still to come.
func adjustDay(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	day, err := reconcileDay(s)
	if err != nil {
		return "", err
	}
	if today := providerclient.DayOf(time.Now()); today.Start().Before(day.Start()) {
		return "", fmt.Errorf("--date %s is after today (%s): name the day the money moved", day, today)
	}
	return day.String(), nil
}
