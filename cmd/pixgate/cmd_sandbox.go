package main

import (
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/providerclient/sandbox"
)

func (c *cli) sandboxCommand() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run the sandbox settlement provider alone (the provider's v2 contract, in memory)",
		Long: `Run the sandbox provider: OAuth tokens, QR charges, payments, refunds,
consult-transaction and balance, with notifications and control endpoints under
/sandbox/ to pay charges, settle or fail payments and inject faults.
See docs/provider.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if addr == "" {
				addr = c.cfg.SandboxAddr
			}
			sb := c.newSandbox(addr)
			serve, err := serveHTTP(cmd.Context(), sb.Handler(), addr, sb.Close)
			if err != nil {
				return err
			}
			c.log.Info("sandbox provider listening", "addr", addr)
			return serve()
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "", "listen address (default PIXGATE_SANDBOX_ADDR)")
	return cmd
}

func (c *cli) newSandbox(addr string) *sandbox.Sandbox {
	return sandbox.New(sandbox.Config{
		ClientID:     c.cfg.SandboxClientID,
		ClientSecret: c.cfg.SandboxClientSecret,
		SettleDelay:  c.cfg.SandboxSettleDelay,
		PublicHost:   orDefault(c.cfg.SandboxPublicHost, addr),
		Logger:       c.log.With("component", "sandbox"),
	})
}
