package pixgate

import (
	"context"
	"net/http"
	"sync"
	"time"
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
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	body := map[string]string{"grant_type": "client_credentials", "public_id": v.c.publicID, "secret": v.c.secret}
	none := credential{header: func(context.Context) (string, error) { return "", nil }}
	if _, err := v.c.do(ctx, call{method: http.MethodPost, path: "/v2/oauth/token", auth: none, body: body, out: &tok}); err != nil {
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
	var b V2Balance
	_, err := v.c.do(ctx, call{method: http.MethodPost, path: "/v2/balance", auth: v.auth(), out: &b})
	return unlessErr(&b, err)
}

// CreateCharge is POST /v2/pix/qrcode (scope charges:write): the same
// charge as v1's, in the family's shape. req.ExternalID is set when empty.
func (v *V2) CreateCharge(ctx context.Context, req ChargeRequest) (*V2Charge, error) {
	if req.ExternalID == "" {
		req.ExternalID = NewExternalID("chg-")
	}
	var ch V2Charge
	_, err := v.c.do(ctx, call{method: http.MethodPost, path: "/v2/pix/qrcode", auth: v.auth(), body: req, out: &ch})
	return unlessErr(&ch, err)
}

// CreatePayment is POST /v2/pix/payment (scope withdrawals:write).
// req.ExternalID is set when empty.
func (v *V2) CreatePayment(ctx context.Context, req WithdrawalRequest) (*V2Payment, error) {
	if req.ExternalID == "" {
		req.ExternalID = NewExternalID("wdr-")
	}
	var p V2Payment
	_, err := v.c.do(ctx, call{method: http.MethodPost, path: "/v2/pix/payment", auth: v.auth(), body: req, out: &p})
	return unlessErr(&p, err)
}

// CreateRefund is POST /v2/pix/refund (scope refunds:write): part or all
// of a paid charge back to its payer. req.ExternalID is set when empty.
func (v *V2) CreateRefund(ctx context.Context, req RefundRequest) (*V2Refund, error) {
	if req.ExternalID == "" {
		req.ExternalID = NewExternalID("rfd-")
	}
	var f V2Refund
	_, err := v.c.do(ctx, call{method: http.MethodPost, path: "/v2/pix/refund", auth: v.auth(), body: req, out: &f})
	return unlessErr(&f, err)
}

// Consult is POST /v2/consult-transaction (scope transactions:read): the
// charge, payment or refund whose transactionId is pixID.
func (v *V2) Consult(ctx context.Context, pixID string) (*Transaction, error) {
	var env struct {
		RequestBody Transaction `json:"requestBody"`
	}
	_, err := v.c.do(ctx, call{method: http.MethodPost, path: "/v2/consult-transaction", auth: v.auth(),
		body: map[string]string{"pix_id": pixID}, out: &env})
	return unlessErr(&env.RequestBody, err)
}
