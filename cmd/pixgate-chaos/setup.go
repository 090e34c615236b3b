package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// float is what each integrator is credited before the load: enough for
// every withdrawal and refund of the run.
const float = 1_000_000_00

// integratorSpecs are the driven integrators, with fees of every kind and
// one with a settlement hold.
var integratorSpecs = []integrator{
	{name: "Loja Percentual", email: "percentual@chaos.example", cashIn: "percent:1.5", cashOut: "fixed:0.50", hold: "0", credit: float},
	{name: "Loja Fixa", email: "fixa@chaos.example", cashIn: "fixed:0.99", cashOut: "percent:1.2", hold: "0", credit: float},
	{name: "Loja Retida", email: "retida@chaos.example", cashIn: "percent:2.75", cashOut: "fixed:1.00", hold: "10s", credit: float},
	{name: "Loja Isenta", email: "isenta@chaos.example", cashIn: "percent:0", cashOut: "fixed:0", hold: "0", credit: float},
}

// setupIntegrators creates the integrators of specs and credits their
// wallets with the operator commands, as an operator would.
func setupIntegrators(ctx context.Context, c *cluster, specs []integrator) ([]*integrator, error) {
	ins := make([]*integrator, len(specs))
	for i, spec := range specs {
		in := spec
		var err error
		if in.in, err = parseFee(in.cashIn); err != nil {
			return nil, err
		}
		if in.out, err = parseFee(in.cashOut); err != nil {
			return nil, err
		}
		out, err := c.pixgate(ctx, "integrator", "create", "--name", in.name, "--email", in.email,
			"--cashin-fee", in.cashIn, "--cashout-fee", in.cashOut, "--cashin-hold", in.hold, "--json")
		if err != nil {
			return nil, err
		}
		var v struct {
			ID            int64  `json:"id"`
			PublicID      string `json:"public_id"`
			Secret        string `json:"secret"`
			Token         string `json:"token"`
			WebhookSecret string `json:"webhook_secret"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			return nil, fmt.Errorf("integrator create: %w", err)
		}
		in.id, in.publicID, in.secret, in.v1Token, in.webhookSecret = v.ID, v.PublicID, v.Secret, v.Token, v.WebhookSecret
		c.integrators = append(c.integrators, v.ID)
		if in.credit > 0 {
			if _, err := c.pixgate(ctx, "wallet", "credit", "--integrator", strconv.FormatInt(v.ID, 10),
				"--amount", reais(in.credit), "--reason", "float for the reliability run"); err != nil {
				return nil, err
			}
		}
		in.postbackURL = fmt.Sprintf("%s/pb/%d", c.recvURL, i)
		if err := c.recv.AddSecret(i, in.webhookSecret); err != nil {
			return nil, fmt.Errorf("webhook secret of %s: %w", in.name, err)
		}
		ins[i] = &in
	}
	return ins, nil
}
