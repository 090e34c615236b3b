package chaos

import (
	"context"
	"time"

	pixgate "github.com/pixgate/pixgate/api/sdk"
	"github.com/pixgate/pixgate/cmd/internal/harness/client"
)

// apiClient is the integrators' client of the two API processes: the Go
// SDK, each attempt sent to the next API in turn, every failed attempt
// counted against the scenario it started in.
type apiClient struct{ c *client.Client }

// reply is the last answer of a call.
type reply = client.Reply

func newAPIClient(urls [2]string, ins []*integrator, st *stats, scenario func() int) (*apiClient, error) {
	keys := make([]string, len(ins))
	for i, in := range ins {
		keys[i] = in.publicID + "." + in.secret
	}
	c, err := client.New(client.Config{APIs: urls[:], Keys: keys, Tag: scenario,
		Failed: func(f client.Failure) { st.fail(f.Tag, f.Code, f.Definitive, f.At) }})
	return &apiClient{c}, err
}

func (a *apiClient) do(ctx context.Context, idx int, call func(context.Context, *pixgate.Client) error) reply {
	return a.c.Do(ctx, idx, call)
}

func payer() pixgate.Payer {
	return pixgate.Payer{Name: "Fulano de Tal", Document: "52998224725", Email: "fulano@example.com"}
}

func (a *apiClient) createCharge(ctx context.Context, idx int, v2 bool, req pixgate.ChargeRequest) reply {
	return a.do(ctx, idx, func(ctx context.Context, s *pixgate.Client) (err error) {
		if v2 {
			_, err = s.V2().CreateCharge(ctx, req)
		} else {
			_, err = s.CreateCharge(ctx, req)
		}
		return err
	})
}

// createWithdrawal sends amount to an EMAIL key, with the description
// "repasse".
func (a *apiClient) createWithdrawal(ctx context.Context, idx int, v2 bool, ext, postbackURL string, amount int64, key string) reply {
	req := pixgate.WithdrawalRequest{Amount: pixgate.Amount(amount), ExternalID: ext, PostbackURL: postbackURL, Description: "repasse",
		CreditParty: pixgate.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: key, TaxID: "12345678909"}}
	return a.do(ctx, idx, func(ctx context.Context, s *pixgate.Client) (err error) {
		if v2 {
			_, err = s.V2().CreatePayment(ctx, req)
		} else {
			_, err = s.CreateWithdrawal(ctx, req)
		}
		return err
	})
}

// refund returns amount of a charge, on v2 by its pix_id, else on v1 by
// its external_id.
func (a *apiClient) refund(ctx context.Context, idx int, v2 bool, chargeExt, chargePix, ext string, amount int64) reply {
	req := pixgate.RefundRequest{Amount: pixgate.Amount(amount), ExternalID: ext, Description: "devolucao"}
	return a.do(ctx, idx, func(ctx context.Context, s *pixgate.Client) (err error) {
		if v2 {
			req.PixID = chargePix
			_, err = s.V2().CreateRefund(ctx, req)
		} else {
			_, err = s.RefundCharge(ctx, chargeExt, req)
		}
		return err
	})
}

// read is a charge or withdrawal on v1, by its external_id.
func (a *apiClient) read(ctx context.Context, idx int, k kind, ext string) reply {
	return a.do(ctx, idx, func(ctx context.Context, s *pixgate.Client) (err error) {
		if k == chargeKind {
			_, err = s.Charge(ctx, ext)
		} else {
			_, err = s.Withdrawal(ctx, ext)
		}
		return err
	})
}

// consult is any transaction on v2, by its pix_id.
func (a *apiClient) consult(ctx context.Context, idx int, pixID string) reply {
	return a.do(ctx, idx, func(ctx context.Context, s *pixgate.Client) error {
		_, err := s.V2().Consult(ctx, pixID)
		return err
	})
}

func (a *apiClient) balance(ctx context.Context, idx int, v2 bool) reply {
	return a.do(ctx, idx, func(ctx context.Context, s *pixgate.Client) (err error) {
		if v2 {
			_, err = s.V2().Balance(ctx)
		} else {
			_, err = s.Balance(ctx)
		}
		return err
	})
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
