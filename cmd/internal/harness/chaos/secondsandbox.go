package chaos

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// secondProvider is the name PixGate knows the second sandbox by. It
// speaks another contract than the default one (efi, the BCB API Pix over
// mutual TLS), keeps its state beside the default sandbox's in the
// provider's Postgres cluster (schema sandbox_efi), and takes money only
// when a route names it: every scenario before two-providers routes by
// the built-in route, the default provider alone.
const secondProvider = "b"

// startSecond starts sandbox b with its control endpoints on control and
// its API on tlsAddr, with certificates of its own, and registers it as
// provider b, as an operator would: pixgate migrate, then pixgate provider
// add. Its notifications go to provider b's own webhook path through the
// balancer (PixGate registers it at the sandbox, as at Efí).
func (c *cluster) startSecond(ctx context.Context, control, tlsAddr string) error {
	dir, err := os.MkdirTemp("", "pixgate-chaos-b-")
	if err != nil {
		return err
	}
	c.secondDir, c.secondURL = dir, "http://"+control
	hook := c.publicURL + "/webhooks/provider/" + secondProvider + "/" + api.ProviderWebhookToken(c.hookToken, secondProvider)
	c.second = c.proc("sandbox-b", []string{"sandbox", "--contract", sandbox.ContractEfi}, []string{
		"PIXGATE_SANDBOX_STORE=postgres", "PIXGATE_DATABASE_URL=" + c.providerPG.URL("provider"),
		"PIXGATE_SANDBOX_ADDR=" + control, "PIXGATE_SANDBOX_TLS_ADDR=" + tlsAddr, "PIXGATE_SANDBOX_TLS_DIR=" + dir,
		"PIXGATE_SANDBOX_WEBHOOK_URL=" + hook}, c.secondURL+"/sandbox/faults")
	if err := c.second.Start(ctx); err != nil {
		return err
	}
	// The client secret the sandbox accepts (its default), in a file the
	// provider record names: secrets are never stored in the database.
	secret := filepath.Join(dir, "client-secret")
	if err := os.WriteFile(secret, []byte("sandbox\n"), 0o600); err != nil {
		return err
	}
	if _, err := c.pixgate(ctx, "migrate"); err != nil {
		return err
	}
	_, err = c.pixgate(ctx, "provider", "add", "--name", secondProvider, "--kind", sandbox.ContractEfi, "--url", "https://"+tlsAddr,
		"--client-id", "sandbox", "--client-secret-file", secret,
		"--cert-file", filepath.Join(dir, sandbox.FileClientCert), "--key-file", filepath.Join(dir, sandbox.FileClientKey),
		"--ca-file", filepath.Join(dir, sandbox.FileCACert), "--pix-key", sandbox.DefaultPixKey)
	return err
}

// The charge routes of the scenarios of two providers: the default, then
// b (failoverRoute); or both, each first for half the charges
// (weightedRoute).
const (
	failoverRoute = "default," + secondProvider
	weightedRoute = "default:50," + secondProvider + ":50"
)

// routeEveryIntegrator sets every driven integrator's route: charges as
// charges says (failoverRoute, weightedRoute), withdrawals to the default
// provider, then b.
func (c *cluster) routeEveryIntegrator(ctx context.Context, charges string) error {
	for _, id := range c.integrators {
		if _, err := c.pixgate(ctx, "route", "set", "--integrator", fmt.Sprint(id),
			"--charges", charges, "--withdrawals", "default,"+secondProvider); err != nil {
			return err
		}
	}
	return nil
}
