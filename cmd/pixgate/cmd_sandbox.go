package main

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/sandbox/pgstore"
	"github.com/pixgate/pixgate/storage"
)

func (c *cli) sandboxCommand() *cobra.Command {
	var addr, contract string
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run the sandbox settlement provider alone, speaking one provider contract",
		Long: `Run the sandbox provider: charges, PIX sent, refunds, reads and balance, with
notifications, and control endpoints under /sandbox/ to pay charges, settle or
fail transfers and inject faults. --contract picks the contract it speaks:
family (the default: the BSPay / PixUp family's /v2 on PIXGATE_SANDBOX_ADDR)
efi (the BCB API Pix as Efí serves it, over mutual TLS on
PIXGATE_SANDBOX_TLS_ADDR with certificates in PIXGATE_SANDBOX_TLS_DIR; its
control endpoints stay on PIXGATE_SANDBOX_ADDR) or woovi (Woovi's API on
PIXGATE_SANDBOX_ADDR, its webhooks signed with a key kept in
PIXGATE_SANDBOX_TLS_DIR and sent to PIXGATE_SANDBOX_WEBHOOK_URL). Sandboxes of different
contracts run side by side. Their state lives in schema sandbox (family) or
sandbox_<contract> of PIXGATE_DATABASE_URL (PIXGATE_SANDBOX_STORE=postgres,
the default) or in memory (memory). See docs/provider.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			setting := "--addr"
			if addr == "" {
				setting, addr = settingSandboxAddr, c.cfg.SandboxAddr
			}
			if contract != "" {
				if !slices.Contains(connectors.Kinds, strings.ToLower(contract)) {
					return fmt.Errorf("--contract: %q is not one of %s", contract, strings.Join(connectors.Kinds, ", "))
				}
				c.cfg.SandboxContract = contract
			}
			// Every address before the store's database is created; the
			// error names each one taken.
			specs := []listenSpec{{setting: setting, addr: addr}}
			if c.sandboxContract() == sandbox.ContractEfi {
				specs = append(specs, listenSpec{setting: settingSandboxTLSAddr, addr: c.cfg.SandboxTLSAddr})
			}
			lns, err := listenAll(specs...)
			if err != nil {
				return err
			}
			ln, tlsLn := lns[0], net.Listener(nil)
			if len(lns) > 1 {
				tlsLn = lns[1]
			}
			ctx := cmd.Context()
			sb, stop, err := c.openSandbox(ctx, addr)
			if err != nil {
				ln.Close()
				if tlsLn != nil {
					tlsLn.Close()
				}
				return err
			}
			g, gctx := errgroup.WithContext(ctx)
			if err := c.serveSandbox(gctx, g, sb, ln, tlsLn, stop); err != nil {
				stop()
				return err
			}
			c.log.Info("sandbox provider listening", "addr", ln.Addr().String(), "contract", sb.Contract(), "store", strings.ToLower(c.cfg.SandboxStore))
			// As api and worker do: the stop asked for, then done, whatever
			// the contract (the efi sandbox serves two listeners).
			saidStop := c.sayWhenStopRequested(ctx)
			err = ignoreCanceled(g.Wait())
			saidStop()
			c.logStopped("sandbox ("+sb.Contract()+")", err)
			return err
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "", "listen address (default PIXGATE_SANDBOX_ADDR)")
	cmd.Flags().StringVar(&contract, "contract", "", "the contract to speak: family, efi or woovi (default PIXGATE_SANDBOX_CONTRACT, else family)")
	return cmd
}

// openSandbox builds the sandbox provider on the store PIXGATE_SANDBOX_STORE
// names; stop closes it, then its store. With postgres it creates the
// database when missing (the sandbox's schema is its own business, not
// PixGate's migrations).
func (c *cli) openSandbox(ctx context.Context, addr string) (sb *sandbox.Sandbox, stop func(), err error) {
	if c.sandboxContract() == sandbox.ContractWoovi && c.wooviKey == nil {
		if c.wooviKey, err = c.sandboxWooviKey(); err != nil {
			return nil, nil, err
		}
	}
	cfg := c.sandboxConfig(addr)
	if strings.EqualFold(c.cfg.SandboxStore, "memory") {
		sb := sandbox.New(cfg)
		return sb, sb.Close, nil
	}
	if err := storage.EnsureDatabase(ctx, c.cfg.DatabaseURL); err != nil {
		return nil, nil, fmt.Errorf("sandbox store (PIXGATE_SANDBOX_STORE=postgres): %w", postgresError(err))
	}
	schema := pgstore.DefaultSchema
	if cfg.Contract != sandbox.ContractFamily {
		schema += "_" + cfg.Contract // sandboxes of different contracts side by side
	}
	st, err := pgstore.Open(ctx, pgstore.Config{URL: c.cfg.DatabaseURL, Schema: schema})
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox store (PIXGATE_SANDBOX_STORE=postgres): %w", err)
	}
	if sb, err = sandbox.Open(ctx, cfg, st); err != nil {
		st.Close()
		return nil, nil, err
	}
	return sb, func() { sb.Close(); st.Close() }, nil
}

func (c *cli) sandboxConfig(addr string) sandbox.Config {
	return sandbox.Config{
		Contract:     c.sandboxContract(),
		WebhookURL:   orDefault(c.cfg.SandboxWebhookURL, c.webhookURL()),
		SigningKey:   c.wooviKey,
		PixKey:       orDefault(c.cfg.ProviderPixKey, sandbox.DefaultPixKey),
		ClientID:     c.cfg.SandboxClientID,
		ClientSecret: c.cfg.SandboxClientSecret,
		SettleDelay:  c.cfg.SandboxSettleDelay,
		PublicHost:   orDefault(c.cfg.SandboxPublicHost, addr),
		Logger:       c.log.With("component", "sandbox"),
	}
}
