package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/sandbox/pgstore"
	"github.com/pixgate/pixgate/storage"
)

func (c *cli) sandboxCommand() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run the sandbox settlement provider alone (the provider's v2 contract)",
		Long: `Run the sandbox provider: OAuth tokens, QR charges, payments, refunds,
consult-transaction and balance, with notifications and control endpoints under
/sandbox/ to pay charges, settle or fail payments and inject faults. Its charges,
payments, refunds and balance live in schema sandbox of PIXGATE_DATABASE_URL
(PIXGATE_SANDBOX_STORE=postgres, the default) or in memory (memory).
See docs/provider.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if addr == "" {
				addr = c.cfg.SandboxAddr
			}
			sb, stop, err := c.openSandbox(cmd.Context(), addr)
			if err != nil {
				return err
			}
			serve, err := serveHTTP(cmd.Context(), sb.Handler(), addr, stop)
			if err != nil {
				stop()
				return err
			}
			c.log.Info("sandbox provider listening", "addr", addr, "store", strings.ToLower(c.cfg.SandboxStore))
			return serve()
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "", "listen address (default PIXGATE_SANDBOX_ADDR)")
	return cmd
}

// openSandbox builds the sandbox provider on the store PIXGATE_SANDBOX_STORE
// names; stop closes it, then its store. With postgres it creates the
// database when missing (the sandbox's schema is its own business, not
// PixGate's migrations).
func (c *cli) openSandbox(ctx context.Context, addr string) (sb *sandbox.Sandbox, stop func(), err error) {
	cfg := c.sandboxConfig(addr)
	if strings.EqualFold(c.cfg.SandboxStore, "memory") {
		sb := sandbox.New(cfg)
		return sb, sb.Close, nil
	}
	if err := storage.EnsureDatabase(ctx, c.cfg.DatabaseURL); err != nil {
		return nil, nil, fmt.Errorf("sandbox store (PIXGATE_SANDBOX_STORE=postgres): %w", err)
	}
	st, err := pgstore.Open(ctx, pgstore.Config{URL: c.cfg.DatabaseURL})
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
		ClientID:     c.cfg.SandboxClientID,
		ClientSecret: c.cfg.SandboxClientSecret,
		SettleDelay:  c.cfg.SandboxSettleDelay,
		PublicHost:   orDefault(c.cfg.SandboxPublicHost, addr),
		Logger:       c.log.With("component", "sandbox"),
	}
}
