package chaos

import (
	"context"
	"os"
	"path/filepath"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// thirdProvider is the name PixGate knows the randomized run's third
// sandbox by: a pixgate sandbox --contract woovi (Woovi's API over plain
// HTTP, its control endpoints on the same address), keeping its state
// beside the others' in the provider's Postgres cluster (schema
// sandbox_woovi). Only the randomized run starts it.
const thirdProvider = "c"

// startThird starts sandbox c on addr and registers it as provider c, as
// an operator would: pixgate provider add --kind woovi, the AppID as its
// client id. Its webhooks go to provider c's own webhook path through the
// balancer; PixGate reads back whatever they claim.
func (c *cluster) startThird(ctx context.Context, addr string) error {
	dir, err := os.MkdirTemp("", "pixgate-chaos-c-")
	if err != nil {
		return err
	}
	c.thirdDir, c.thirdURL = dir, "http://"+addr
	hook := c.publicURL + "/webhooks/provider/" + thirdProvider + "/" + api.ProviderWebhookToken(c.hookToken, thirdProvider)
	c.third = c.proc("sandbox-c", []string{"sandbox", "--contract", sandbox.ContractWoovi}, []string{
		"PIXGATE_SANDBOX_STORE=postgres", "PIXGATE_DATABASE_URL=" + c.providerPG.URL("provider"),
		"PIXGATE_SANDBOX_ADDR=" + addr, "PIXGATE_SANDBOX_TLS_DIR=" + dir, "PIXGATE_SANDBOX_WEBHOOK_URL=" + hook},
		c.thirdURL+"/sandbox/faults")
	if err := c.third.Start(ctx); err != nil {
		return err
	}
	secret := filepath.Join(dir, "client-secret")
	if err := os.WriteFile(secret, []byte("sandbox\n"), 0o600); err != nil {
		return err
	}
	_, err = c.pixgate(ctx, "provider", "add", "--name", thirdProvider, "--kind", sandbox.ContractWoovi, "--url", c.thirdURL,
		"--client-id", "sandbox", "--client-secret-file", secret)
	return err
}
