package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

const demoEmail = "demo@pixgate.local"

func (c *cli) devCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "dev",
		Short: "Run the whole service in one process for development, with a demo integrator",
		Long: `Run migrations, then the sandbox provider, the API and the workers in one
process, and print a demo integrator's credentials. This is what make run starts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := c.devDefaults(); err != nil {
				return err
			}
			c.servesAPI = true
			ctx := cmd.Context()
			// Every address first: a taken port stops dev before it
			// creates or migrates the database.
			addrs := []string{settingSandboxAddr, settingHTTPAddr, settingWorkerAddr}
			if c.sandboxContract() == sandbox.ContractEfi {
				addrs = append(addrs, settingSandboxTLSAddr)
			}
			if err := c.bind(addrs...); err != nil {
				return err
			}
			defer c.closeListeners()
			var demo demoIntegrator
			settings, forget := "", func() {}
			err := c.runStack(ctx, func(*stack) error {
				settings, forget = c.keepDevSettings() // for the operator commands beside it
				c.printBanner(demo, settings)
				return nil
			}, c.prepareDemo(&demo), c.startSandbox, c.startAPI, c.startWorker)
			forget()
			c.logStopped("pixgate dev", err)
			return err
		},
	}
}

// prepareDemo is dev's first component: the demo integrator, its key kept
// in its file, before the API serves, so that pixgate demo run as soon as
// /healthz or /readyz answers finds the key the banner will show.
func (c *cli) prepareDemo(demo *demoIntegrator) component {
	return func(ctx context.Context, _ *errgroup.Group, st *stack) (err error) {
		*demo, err = c.ensureDemo(ctx, st.db)
		return err
	}
}

// startSandbox runs the sandbox provider in-process. Its store has a
// connection of its own, apart from the stack's pool, so PixGate's load on
// that pool never holds up the provider PixGate is waiting for.
func (c *cli) startSandbox(ctx context.Context, g *errgroup.Group, _ *stack) error {
	ln, err := c.listener(settingSandboxAddr)
	if err != nil {
		return err
	}
	var tlsLn net.Listener
	if c.sandboxContract() == sandbox.ContractEfi {
		if tlsLn, err = c.listener(settingSandboxTLSAddr); err != nil {
			ln.Close()
			return err
		}
	}
	sb, stop, err := c.openSandbox(ctx, c.cfg.SandboxAddr)
	if err != nil {
		ln.Close()
		if tlsLn != nil {
			tlsLn.Close()
		}
		return err
	}
	if err := c.serveSandbox(ctx, g, sb, ln, tlsLn, stop); err != nil {
		stop()
		return err
	}
	c.devToday = sb.Today
	return nil
}

// devDefaults adjusts settings for a developer's machine where the operator
// left them unset: readable logs, the in-process sandbox as the provider
// (speaking the contract of PIXGATE_PROVIDER_KIND, with its certificates for
// efi), http and private postback URLs allowed, generated secrets.
func (c *cli) devDefaults() error {
	set := func(name string) bool { _, ok := c.environ[name]; return ok }
	if !set("PIXGATE_LOG_FORMAT") {
		c.cfg.LogFormat = "text"
		c.setLogger(newLogger(c.stderr, c.cfg.LogLevel, c.cfg.LogFormat))
	}
	if !set("PIXGATE_SANDBOX_CONTRACT") {
		c.cfg.SandboxContract = strings.ToLower(c.cfg.ProviderKind)
	}
	efiSandbox := c.sandboxContract() == sandbox.ContractEfi
	if !set("PIXGATE_PROVIDER_URL") {
		c.cfg.ProviderURL = "http://" + c.cfg.SandboxAddr
		if efiSandbox {
			c.cfg.ProviderURL = "https://" + c.cfg.SandboxTLSAddr
		}
	}
	if !set("PIXGATE_PROVIDER_EXTENSIONS") && !set("PIXGATE_PROVIDER_URL") {
		c.cfg.ProviderExtensions = true // its own sandbox serves them
	}
	if efiSandbox && !set("PIXGATE_PROVIDER_PIX_KEY") {
		c.cfg.ProviderPixKey = sandbox.DefaultPixKey
	}
	if !set("PIXGATE_PUBLIC_BASE_URL") {
		c.cfg.PublicBaseURL = "http://" + c.cfg.HTTPAddr
	}
	if !set("PIXGATE_POSTBACK_ALLOW_HTTP") {
		c.cfg.PostbackAllowHTTP = true
	}
	if !set("PIXGATE_POSTBACK_ALLOW_PRIVATE") {
		c.cfg.PostbackAllowPrivate = true
	}
	if c.cfg.ProviderWebhookToken == "" {
		c.cfg.ProviderWebhookToken = c.devWebhookToken()
	}
	if c.cfg.MonitoringPassword == "" {
		c.cfg.MonitoringPassword = c.devMonitoringPassword()
	}
	if efiSandbox && strings.EqualFold(c.cfg.ProviderKind, sandbox.ContractEfi) {
		return c.useSandboxTLS()
	}
	if c.sandboxContract() == sandbox.ContractWoovi && strings.EqualFold(c.cfg.ProviderKind, sandbox.ContractWoovi) &&
		!set("PIXGATE_PROVIDER_WEBHOOK_KEY") {
		// PixGate checks the sandbox's webhook signatures as Woovi's.
		key, err := c.sandboxWooviKey()
		if err != nil {
			return err
		}
		c.wooviKey, c.cfg.ProviderWebhookKey = key, publicKeyPEM(key)
	}
	return nil
}

// invokedAs is how this binary was started ("./bin/pixgate" by make run),
// for commands the banner suggests; "pixgate" when it was found on the PATH.
func invokedAs() string {
	if strings.Contains(os.Args[0], "/") {
		return os.Args[0]
	}
	return "pixgate"
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

type demoIntegrator struct {
	integrator storage.Integrator
	creds      storage.Credentials
	created    bool
	wallet     storage.Wallet
}

// ensureDemo creates the demo integrator on the first run (with R$ 1,000.00
// credited so withdrawals can be tried at once) and gives it the same API key
// on every run (see demoCredentials).
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
		c.keepDemoKey(demoKey{IntegratorID: in.ID, PublicID: d.creds.PublicID, Secret: d.creds.Secret})
		d.created = true
	case err != nil:
		return d, err
	default:
		if d.creds, err = c.demoCredentials(ctx, db, in); err != nil {
			return d, err
		}
	}
	d.integrator = in
	d.wallet, err = db.Wallet(ctx, in.ID)
	return d, err
}

// printBanner says where everything is and how to try it; settings is
// where dev keeps its settings for the operator commands beside it ("":
// nowhere).
func (c *cli) printBanner(d demoIntegrator, settings string) {
	base, sbx := "http://"+c.cfg.HTTPAddr, "http://"+c.cfg.SandboxAddr
	c.printf("\nPixGate is running (development mode)\n\n")
	c.printf("  API             %s   (/docs, /healthz, /readyz)\n", base)
	c.printf("  sandbox         %s   (the settlement provider; docs/provider.md)\n", sbx)
	c.printf("  queues          http://%s/monitoring/   user %s, password %s\n", c.cfg.WorkerAddr, c.cfg.MonitoringUser, c.cfg.MonitoringPassword)
	c.printf("  metrics         http://%s/metrics\n", c.cfg.WorkerAddr)
	c.printf("\nDemo integrator %d: %s <%s>", d.integrator.ID, d.integrator.Name, d.integrator.Email)
	if d.created {
		c.printf(" (created; wallet credited with R$ 1000.00)")
	}
	c.printf("\n  public_id       %s\n  secret          %s\n  webhook secret  %s\n", d.creds.PublicID, d.creds.Secret, d.integrator.WebhookSecret)
	c.printf("  wallet          available R$ %s, pending R$ %s, reserved R$ %s\n", d.wallet.Available, d.wallet.Pending, d.wallet.Reserved)
	c.printf("  fees            cash-in %s, cash-out %s\n", d.integrator.CashIn, d.integrator.CashOut)
	auth := "Authorization: Bearer " + d.creds.Token()
	c.printf("\nTry (the key stays the same from one run to the next):\n")
	c.printf("  export PIXGATE_AUTH='%s'\n", auth)
	c.printf("  curl -s %s/api/v1/balance -H \"$PIXGATE_AUTH\"\n", base)
	c.printf("  %s demo     # the README's tour: a charge paid, a withdrawal completed, every request and answer shown\n", invokedAs())
	c.printf("  # v2, as the provider family's clients call it (docs/api-v2.md):\n")
	c.printf("  curl -s -X POST %s/v2/oauth/token -u '%s:%s'\n", base, d.creds.PublicID, d.creds.Secret)
	c.printf("  curl -s -X POST %s/v2/balance -H 'Authorization: Bearer <access_token>'\n", base)
	c.printf("  %s/docs   # the API, for people (OpenAPI at /openapi.yaml)\n", base)
	if settings != "" {
		c.printf("  %s provider balance   # operator commands in another terminal take this run's settings, from %s\n", invokedAs(), settings)
	}
	c.printf("\nStop with Ctrl-C.\n\n")
}
