package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func (c *cli) demoCommand() *cobra.Command {
	var (
		t          tour
		printToken bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the README's tour against a running pixgate dev, printing each request and answer",
		Long: `Take the tour of the API as the demo integrator of a running pixgate dev (make
run): the balance, a charge paid through the sandbox provider, a withdrawal
sent and completed, the balance again; then v2, as the provider family's
clients call it: a token, the balance, a charge paid and partly refunded.
Each request and its answer are printed. Every run uses new external ids, so it can be run again and again.

The demo key is the one pixgate dev keeps (PIXGATE_DEMO_KEY_FILE); the
addresses are PIXGATE_HTTP_ADDR and PIXGATE_SANDBOX_ADDR unless given.`,
		Example: `  pixgate demo
  export PIXGATE_AUTH="Authorization: Bearer $(pixgate demo --print-token)"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t.api = strings.TrimRight(orDefault(t.api, "http://"+c.cfg.HTTPAddr), "/")
			if t.token == "" {
				k, err := c.readDemoKey()
				if errors.Is(err, fs.ErrNotExist) {
					path, _ := c.demoKeyFile()
					return c.noDemoKey(path, hostPortOf(t.api))
				}
				if err != nil {
					return err
				}
				t.token = k.token()
			}
			if printToken {
				c.printf("%s\n", t.token)
				return nil
			}
			t.sandbox = strings.TrimRight(orDefault(t.sandbox, "http://"+c.cfg.SandboxAddr), "/")
			t.out = c.stdout
			t.http = &http.Client{Timeout: 15 * time.Second}
			t.now = time.Now
			return t.run(cmd.Context())
		},
	}
	cmd.Flags().StringVar(&t.api, "api", "", "PixGate's base URL (default http://PIXGATE_HTTP_ADDR)")
	cmd.Flags().StringVar(&t.sandbox, "sandbox", "", "the sandbox provider's base URL (default http://PIXGATE_SANDBOX_ADDR)")
	cmd.Flags().StringVar(&t.token, "token", "", "a v1 API key, public_id.secret (default: pixgate dev's demo key)")
	cmd.Flags().BoolVar(&printToken, "print-token", false, "print the demo key's v1 token and exit")
	return cmd
}

// hostPortOf is the host:port of a base URL, with the scheme's port when
// it names none.
func hostPortOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	if u.Port() != "" {
		return u.Host
	}
	return net.JoinHostPort(u.Hostname(), map[bool]string{true: "443", false: "80"}[u.Scheme == "https"])
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// run is the tour. Each step prints what it does, the request and the answer,
// and stops the tour when the answer is not the expected one.
func (t *tour) run(ctx context.Context) error {
	stamp := t.now().UTC().Format("20060102-150405.000")
	stamp = strings.ReplaceAll(stamp, ".", "")

	t.say("The demo integrator's balance and fees.")
	if _, err := t.do(ctx, http.MethodGet, t.api+"/api/v1/balance", nil, http.StatusOK); err != nil {
		return err
	}

	t.say("A charge of R$ 25.00: the answer carries the BR Code (qrcode) and the provider's pix_id.")
	charge, err := t.do(ctx, http.MethodPost, t.api+"/api/v1/charges", map[string]any{
		"amount": jsonAmount("25.00"), "external_id": "demo-" + stamp,
		"payer": map[string]any{"name": "Fulano de Tal", "document": "52998224725"},
	}, http.StatusCreated)
	if err != nil {
		return err
	}
	t.say("The payer pays it (the sandbox provider plays the payer's bank).")
	if _, err := t.do(ctx, http.MethodPost, t.sandbox+"/sandbox/charges/"+charge.str("pix_id")+"/pay", nil, http.StatusOK); err != nil {
		return err
	}
	t.say("Within a second the charge is PAID and its net is in the wallet; it is found by its external_id too.")
	if err := t.await(ctx, t.api+"/api/v1/charges/"+charge.str("external_id"), "PAID"); err != nil {
		return err
	}

	t.say("A withdrawal of R$ 10.00: amount + fee are reserved at once, and a worker sends the PIX.")
	w, err := t.do(ctx, http.MethodPost, t.api+"/api/v1/withdrawals", map[string]any{
		"amount": jsonAmount("10.00"), "external_id": "demo-saque-" + stamp,
		"creditParty": map[string]any{"name": "Beltrano", "keyType": "EMAIL", "key": "beltrano@example.com", "taxId": "52998224725"},
	}, http.StatusCreated)
	if err != nil {
		return err
	}
	t.say("The provider settles it: COMPLETED, with its end_to_end_id.")
	if err := t.await(ctx, t.api+"/api/v1/withdrawals/"+w.str("id"), "COMPLETED"); err != nil {
		return err
	}

	t.say("The balance again: + 24.62 (25.00 less the 1.5% cash-in fee), − 10.50 (10.00 plus the R$ 0.50 cash-out fee).")
	if _, err := t.do(ctx, http.MethodGet, t.api+"/api/v1/balance", nil, http.StatusOK); err != nil {
		return err
	}
	if err := t.v2(ctx); err != nil {
		return err
	}
	fmt.Fprintf(t.out, "\nThe tour is done. The API's documentation: %s/docs\n", t.api)
	return nil
}

// v2 shows the provider family's surface with the same key: an access
// token by HTTP Basic, as the family's clients ask for it, then the v2
// balance with that token, and a charge paid and partly refunded, each
// followed by consult-transaction.
func (t *tour) v2(ctx context.Context) error {
	t.say("v2, the provider family's contract: the same key buys an access token (HTTP Basic)...")
	publicID, secret, _ := strings.Cut(t.token, ".")
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(publicID+":"+secret))
	tok, err := t.doAs(ctx, basic, http.MethodPost, t.api+"/v2/oauth/token", nil, http.StatusOK)
	if err != nil {
		return err
	}
	t.say("... which every other v2 call sends as its Bearer credential.")
	bearer := "Bearer " + tok.str("access_token")
	if _, err := t.doAs(ctx, bearer, http.MethodPost, t.api+"/v2/balance", nil, http.StatusOK); err != nil {
		return err
	}
	t.say("A v2 charge of R$ 15.50: transactionId is its pix_id.")
	charge, err := t.doAs(ctx, bearer, http.MethodPost, t.api+"/v2/pix/qrcode", map[string]any{
		"amount": jsonAmount("15.50"), "payer": map[string]any{"name": "Fulano de Tal", "document": "52998224725"},
	}, http.StatusOK)
	if err != nil {
		return err
	}
	if _, err := t.do(ctx, http.MethodPost, t.sandbox+"/sandbox/charges/"+charge.str("transactionId")+"/pay", nil, http.StatusOK); err != nil {
		return err
	}
	t.say("Paid, as consult-transaction tells.")
	if err := t.awaitV2(ctx, bearer, charge.str("transactionId"), "PAID"); err != nil {
		return err
	}
	t.say("A refund of R$ 5.00 of it: amount + cash-out fee are reserved at once, and a worker sends it.")
	refund, err := t.doAs(ctx, bearer, http.MethodPost, t.api+"/v2/pix/refund", map[string]any{
		"pix_id": charge.str("transactionId"), "amount": jsonAmount("5.00"),
	}, http.StatusOK)
	if err != nil {
		return err
	}
	t.say("The provider settles it: COMPLETED.")
	return t.awaitV2(ctx, bearer, refund.str("transactionId"), "COMPLETED")
}
