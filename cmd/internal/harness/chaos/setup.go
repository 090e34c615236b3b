package chaos

import (
	"context"
	"fmt"

	"github.com/pixgate/pixgate/cmd/internal/harness/fixture"
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
		fx, err := fixture.ByCommands(ctx, c.pixgate, fixture.Spec{Name: in.name, Email: in.email, CashIn: in.cashIn,
			CashOut: in.cashOut, Hold: in.hold, Credit: in.credit, Reason: "float for the reliability run"})
		if err != nil {
			return nil, err
		}
		in.id, in.publicID, in.secret, in.webhookSecret = fx.ID, fx.PublicID, fx.Secret, fx.WebhookSecret
		c.integrators = append(c.integrators, fx.ID)
		in.postbackURL = fmt.Sprintf("%s/pb/%d", c.recvURL, i)
		if err := c.recv.AddSecret(i, in.webhookSecret); err != nil {
			return nil, fmt.Errorf("webhook secret of %s: %w", in.name, err)
		}
		ins[i] = &in
	}
	return ins, nil
}
