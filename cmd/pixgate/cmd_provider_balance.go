package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// floatView is a provider's reported balance beside its float.
type floatView struct {
	Provider string `json:"provider"`
	// Reported is what the provider says its account holds (available
	// plus pending); nil when it could not be read (Error says why).
	Reported  *money.Money `json:"reported"`
	Available *money.Money `json:"available"`
	Pending   *money.Money `json:"pending"`
	// Float is the money PixGate expects the provider to hold; Difference
	// is Reported less Float.
	Float      money.Money  `json:"float"`
	Difference *money.Money `json:"difference"`
	Error      string       `json:"error,omitempty"`
}

func (c *cli) providerBalanceCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "balance [NAME]",
		Short: "Compare each provider's reported balance with its float account",
		Long: `Read each provider's balance through its connector and print it beside its
float account (the money PixGate's ledger expects that provider to hold) and the
difference. A difference that stays the same is money the account held before
PixGate or that moved outside it; one that changes is worth a reconciliation
(pixgate reconcile). Exits 1 when a provider's balance could not be read.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				views, err := c.balanceReads(cmd.Context(), db, args)
				if err != nil {
					return err
				}
				floats, err := db.FloatBalances(cmd.Context())
				if err != nil {
					return err
				}
				failed := false
				for i, v := range views {
					views[i].Float = floats[v.Provider]
					if v.Reported != nil {
						d := *v.Reported - views[i].Float
						views[i].Difference = &d
					}
					failed = failed || v.Error != ""
				}
				if err := c.printBalances(views, asJSON); err != nil {
					return err
				}
				if failed {
					return exitError{code: 1}
				}
				return nil
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

// balanceReads reads the balance of name's provider alone, or of the
// default one and every record, each through a connector built as api and
// worker build it. A provider whose connector cannot be built (its secret
// unreadable) is reported, not skipped.
func (c *cli) balanceReads(ctx context.Context, db *storage.DB, names []string) ([]floatView, error) {
	var records []storage.Provider
	switch {
	case len(names) == 1 && names[0] == storage.DefaultProvider:
	case len(names) == 1:
		p, err := db.ProviderByName(ctx, names[0])
		if err != nil {
			return nil, providerError(names[0], err)
		}
		records = []storage.Provider{p}
	default:
		all, err := db.Providers(ctx)
		if err != nil {
			return nil, err
		}
		records = all
	}
	var views []floatView
	if len(names) == 0 || names[0] == storage.DefaultProvider {
		m, err := c.defaultProvider()
		views = append(views, readBalance(ctx, storage.DefaultProvider, m, err))
	}
	for _, p := range records {
		m, err := c.recordProvider(p)
		views = append(views, readBalance(ctx, p.Name, m, err))
	}
	return views, nil
}

// readBalance asks one provider for its balance; a failure (to build its
// connector, built, or to answer) is the view's Error, worded by the
// connector, which never quotes a secret.
func readBalance(ctx context.Context, name string, m fleet.Member, built error) floatView {
	v := floatView{Provider: name}
	if built != nil {
		v.Error = built.Error()
		return v
	}
	b, err := m.Connector.Balance(ctx)
	if err != nil {
		v.Error = err.Error()
		return v
	}
	reported := b.Available + b.Pending
	v.Reported, v.Available, v.Pending = &reported, &b.Available, &b.Pending
	return v
}

func (c *cli) printBalances(views []floatView, asJSON bool) error {
	if asJSON {
		return printJSON(c.stdout, map[string]any{"providers": views})
	}
	tw := table(c.stdout)
	c.printfTo(tw, "PROVIDER\tREPORTED\tFLOAT\tDIFFERENCE\n")
	for _, v := range views {
		if v.Error != "" {
			c.printfTo(tw, "%s\t-\t%s\t-\t(%s)\n", v.Provider, v.Float, v.Error)
			continue
		}
		c.printfTo(tw, "%s\t%s\t%s\t%s\n", v.Provider, *v.Reported, v.Float, *v.Difference)
	}
	return tw.Flush()
}
