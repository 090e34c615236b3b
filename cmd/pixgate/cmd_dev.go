package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

const demoEmail = "demo@pixgate.local"

func (c *cli) devCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "dev",
		Short: "Run the whole service in one process for development, with a demo integrator",
		Long: `Run migrations, then the API, the workers and the sandbox provider in one
process, and print a demo integrator's credentials. This is what make run starts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c.devDefaults()
			ctx := cmd.Context()
			db, err := c.openDB(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			demo, err := c.ensureDemo(ctx, db)
			if err != nil {
				return err
			}
			srv := api.New(api.Config{}, api.Deps{DB: db, Logger: c.log})
			serveAPI, err := serveFiber(ctx, srv.App(), c.cfg.HTTPAddr)
			if err != nil {
				return err
			}
			c.printBanner(demo)
			g, gctx := errgroup.WithContext(ctx)
			_ = gctx
			g.Go(serveAPI)
			err = g.Wait()
			if errors.Is(err, context.Canceled) {
				err = nil
			}
			c.log.Info("pixgate dev stopped")
			return err
		},
	}
}

// devDefaults adjusts settings for a developer's machine where the operator
// left them unset: readable logs and a generated webhook token.
func (c *cli) devDefaults() {
	if _, set := c.environ["PIXGATE_LOG_FORMAT"]; !set {
		c.cfg.LogFormat = "text"
		c.log = newLogger(c.stderr, c.cfg.LogLevel, c.cfg.LogFormat)
	}
	if c.cfg.ProviderWebhookToken == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		c.cfg.ProviderWebhookToken = hex.EncodeToString(b)
	}
}

type demoIntegrator struct {
	integrator storage.Integrator
	creds      storage.Credentials
	created    bool
	wallet     storage.Wallet
}

// ensureDemo creates the demo integrator on the first run (with R$ 1,000.00
// credited so withdrawals can be tried at once) and a fresh API key on every
// run, since stored secrets cannot be shown again.
func (c *cli) ensureDemo(ctx context.Context, db *storage.DB) (demoIntegrator, error) {
	var d demoIntegrator
	in, err := db.IntegratorByEmail(ctx, demoEmail)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		in, d.creds, err = db.CreateIntegrator(ctx, storage.NewIntegrator{Name: "Demo Store", Email: demoEmail,
			CashIn: money.Percent(15000), CashOut: money.Fixed(50)})
		if err != nil {
			return d, fmt.Errorf("create demo integrator: %w", err)
		}
		if _, err := db.CreditWallet(ctx, in.ID, money.FromReais(1000, 0), "demo float for pixgate dev"); err != nil {
			return d, err
		}
		d.created = true
	case err != nil:
		return d, err
	default:
		if _, d.creds, err = db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID}); err != nil {
			return d, err
		}
	}
	d.integrator = in
	d.wallet, err = db.Wallet(ctx, in.ID)
	return d, err
}

func (c *cli) printBanner(d demoIntegrator) {
	base := "http://" + c.cfg.HTTPAddr
	c.printf("\nPixGate is running (development mode)\n\n")
	c.printf("  API            %s   (health: %s/healthz)\n", base, base)
	c.printf("\nDemo integrator %d — %s <%s>", d.integrator.ID, d.integrator.Name, d.integrator.Email)
	if d.created {
		c.printf(" (created; wallet credited with R$ 1000.00)")
	}
	c.printf("\n  public_id      %s\n  secret         %s\n  webhook secret %s\n", d.creds.PublicID, d.creds.Secret, d.integrator.WebhookSecret)
	c.printf("  wallet         available R$ %s, pending R$ %s, reserved R$ %s\n", d.wallet.Available, d.wallet.Pending, d.wallet.Reserved)
	c.printf("  fees           cash-in %s, cash-out %s\n", d.integrator.CashIn, d.integrator.CashOut)
	c.printf("\nTry:\n  curl -s %s/healthz\n\nStop with Ctrl-C.\n\n", base)
}
