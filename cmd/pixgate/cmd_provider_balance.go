package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/connectors"
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
				cfgs, err := c.balanceConfigs(cmd.Context(), db, args)
				if err != nil {
					return err
				}
				floats, err := db.FloatBalances(cmd.Context())
				if err != nil {
					return err
				}
				views, failed := make([]floatView, 0, len(cfgs)), false
				for _, cfg := range cfgs {
					v := readBalance(cmd.Context(), cfg)
					v.Float = floats[cfg.Name]
					if v.Reported != nil {
						d := *v.Reported - v.Float
						v.Difference = &d
					}
					failed = failed || v.Error != ""
					views = append(views, v)
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

// balanceConfigs are the configurations of the providers to read: name's
// alone, or the default one and every record.
func (c *cli) balanceConfigs(ctx context.Context, db *storage.DB, names []string) ([]providerclient.Config, error) {
	var records []storage.Provider
	switch {
	case len(names) == 1 && names[0] == storage.DefaultProvider:
		return []providerclient.Config{c.providerConfig()}, nil
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
	cfgs := []providerclient.Config{}
	if len(names) == 0 {
		cfgs = append(cfgs, c.providerConfig())
	}
	for _, p := range records {
		cfg, err := c.recordConfig(p)
		if err != nil {
			return nil, err
		}
		cfgs = append(cfgs, cfg)
	}
	return cfgs, nil
}

// readBalance asks one provider for its balance; a failure is the view's
// Error, worded by the connector (which never quotes a secret).
func readBalance(ctx context.Context, cfg providerclient.Config) floatView {
	v := floatView{Provider: cfg.Name}
	conn, err := connectors.Bare(cfg)
	if err != nil {
		v.Error = err.Error()
		return v
	}
	b, err := conn.Balance(ctx)
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
