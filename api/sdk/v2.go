package pixgate

import (
	"context"
	"sync"
	"time"

	"github.com/pixgate/pixgate/api/sdk/internal/gen"
)

// V2 calls PixGate's /v2 surface, the provider family's contract, with
// access tokens bought by the Client's key. Get it from Client.V2.
type V2 struct {
	c *Client

	mu      sync.Mutex // held while a token is bought: one purchase for all callers
	token   string
	renewAt time.Time
}

// V2 is the client of the /v2 surface; it shares this Client's settings
// and its access token.
func (c *Client) V2() *V2 { return c.v2 }

// Token is the current access token: the cached one until shortly before
// it expires (a tenth of its lifetime, at most a minute), else a new one
// from POST /v2/oauth/token.
func (v *V2) Token(ctx context.Context) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.token != "" && v.c.now().Before(v.renewAt) {
		return v.token, nil
	}
	grant := gen.ClientCredentials
	body := gen.TokenRequest{GrantType: &grant, PublicId: &v.c.publicID, Secret: &v.c.secret}
	none := credential{header: func(context.Context) (string, error) { return "", nil }}
	tok, err := call[gen.AccessToken](ctx, v.c, none, at(v.c.gen.CreateAccessToken, body))
	if err != nil {
		return "", err
	}
	life := time.Duration(tok.ExpiresIn) * time.Second
	v.token, v.renewAt = tok.AccessToken, v.c.now().Add(life-min(life/10, time.Minute))
	return v.token, nil
}

// forget drops the cached token when it is the one refused (expired or
// revoked early), so the retry buys another.
func (v *V2) forget(refused string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if "Bearer "+v.token == refused {
		v.token = ""
	}
	return true
}

func (v *V2) auth() credential {
	return credential{
		header: func(ctx context.Context) (string, error) {
			tok, err := v.Token(ctx)
			return "Bearer " + tok, err
		},
		refresh: v.forget,
	}
}

// Balance is POST /v2/balance (scope balance:read).
func (v *V2) Balance(ctx context.Context) (*V2Balance, error) {
	return call[V2Balance](ctx, v.c, v.auth(), v.c.gen.GetV2Balance)
}

// CreateCharge is POST /v2/pix/qrcode (scope charges:write): the same
// charge as v1's, in the family's shape. req.ExternalID is set when empty.
func (v *V2) CreateCharge(ctx context.Context, req ChargeRequest) (*V2Charge, error) {
	ensureID(&req.ExternalID, "chg-")
	return call[V2Charge](ctx, v.c, v.auth(), withJSON(req, v.c.gen.CreateV2ChargeWithBody))
}

// CreatePayment is POST /v2/pix/payment (scope withdrawals:write).
// req.ExternalID is set when empty.
func (v *V2) CreatePayment(ctx context.Context, req WithdrawalRequest) (*V2Payment, error) {
	ensureID(&req.ExternalID, "wdr-")
	return call[V2Payment](ctx, v.c, v.auth(), withJSON(req, v.c.gen.CreateV2PaymentWithBody))
}

// CreateRefund is POST /v2/pix/refund (scope refunds:write): part or all
// of a paid charge back to its payer. req.ExternalID is set when empty.
func (v *V2) CreateRefund(ctx context.Context, req RefundRequest) (*V2Refund, error) {
	ensureID(&req.ExternalID, "rfd-")
	return call[V2Refund](ctx, v.c, v.auth(), withJSON(req, v.c.gen.CreateV2RefundWithBody))
}

// Consult is POST /v2/consult-transaction (scope transactions:read): the
// charge, payment or refund whose transactionId is pixID.
func (v *V2) Consult(ctx context.Context, pixID string) (*Transaction, error) {
	var env struct {
		RequestBody Transaction `json:"requestBody"`
	}
	_, err := v.c.do(ctx, v.auth(), at(v.c.gen.ConsultTransaction, gen.ConsultRequest{PixId: pixID}), &env)
	return unlessErr(&env.RequestBody, err)
}
