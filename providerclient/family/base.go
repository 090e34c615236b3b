package family

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// Operation names, used in errors.
const (
	opCharge  = "create charge"
	opPayment = "create payment"
	opRefund  = "create refund"
	opConsult = "consult transaction"
	opBalance = "balance"
)

const userAgent = "pixgate-providerclient/1"

// baseClient speaks HTTP to the provider: token, per-call timeout, error
// classification. It neither retries nor breaks circuits.
type baseClient struct {
	cfg    providerclient.Config
	tokens *providerclient.TokenSource
}

// NewBase returns the HTTP layer alone: token cache and refresh, per-call
// timeout and typed errors, without breaker or retries. New wraps it.
func NewBase(cfg providerclient.Config) Client {
	cfg = cfg.WithDefaults()
	return &baseClient{cfg: cfg, tokens: newTokenSource(cfg)}
}

func (c *baseClient) CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	var out Charge
	if err := c.call(ctx, opCharge, "/v2/pix/qrcode", req, &out); err != nil {
		return nil, err
	}
	out.setExpiry(time.Now())
	return &out, nil
}

func (c *baseClient) CreatePayment(ctx context.Context, req PaymentRequest) (*Payment, error) {
	out, _, err := c.createPayment(ctx, req)
	return out, err
}

// createPayment is CreatePayment, with the provider's answer when it
// failed: the connector judges what a refusal proves by it.
func (c *baseClient) createPayment(ctx context.Context, req PaymentRequest) (*Payment, *providerclient.Answer, error) {
	var out Payment
	if res, err := c.do(ctx, opPayment, "/v2/pix/payment", req, &out); err != nil {
		return nil, res, err
	}
	return &out, nil, nil
}

func (c *baseClient) CreateRefund(ctx context.Context, req RefundRequest) (*Refund, error) {
	out, _, err := c.createRefund(ctx, req)
	return out, err
}

// createRefund is CreateRefund, with the provider's answer when it failed.
func (c *baseClient) createRefund(ctx context.Context, req RefundRequest) (*Refund, *providerclient.Answer, error) {
	var out Refund
	if res, err := c.do(ctx, opRefund, "/v2/pix/refund", req, &out); err != nil {
		return nil, res, err
	}
	return &out, nil, nil
}

func (c *baseClient) ConsultTransaction(ctx context.Context, pixID string) (*Transaction, error) {
	var raw json.RawMessage
	if err := c.call(ctx, opConsult, "/v2/consult-transaction", map[string]string{"pix_id": pixID}, &raw); err != nil {
		return nil, err
	}
	t, err := DecodeTransaction(raw)
	if err != nil {
		return nil, &providerclient.Error{Op: opConsult, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK, Err: err}
	}
	return t, nil
}

func (c *baseClient) Balance(ctx context.Context) (*Balance, error) {
	var out Balance
	if err := c.call(ctx, opBalance, "/v2/balance", struct{}{}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// call POSTs in as JSON with the bearer token and decodes a 2xx answer into
// out. A 401 drops the token, fetches a new one and repeats the call once.
func (c *baseClient) call(ctx context.Context, op, path string, in, out any) error {
	_, err := c.do(ctx, op, path, in, out)
	return err
}

// do is call, returning also the provider's answer when it is not 2xx.
func (c *baseClient) do(ctx context.Context, op, path string, in, out any) (*providerclient.Answer, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Message: "cannot encode the request", Err: err}
	}
	var res *providerclient.Answer
	for attempt := 0; attempt < 2; attempt++ {
		tok, err := c.tokens.Get(ctx)
		if err != nil {
			return nil, err
		}
		if res, err = c.send(ctx, path, tok, body); err != nil {
			err.(*providerclient.Error).Op = op
			return nil, err
		}
		if res.Status != http.StatusUnauthorized {
			break
		}
		c.tokens.Invalidate(tok)
	}
	if !res.OK() {
		return res, failure(res, op)
	}
	if err := json.Unmarshal(res.Body, out); err != nil {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status, Message: "unreadable answer", Err: err}
	}
	return nil, nil
}

func (c *baseClient) send(ctx context.Context, path, token string, body []byte) (*providerclient.Answer, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return nil, &providerclient.Error{Kind: providerclient.ErrUnavailable, Err: err}
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	return providerclient.RoundTrip(c.cfg.HTTPClient, req)
}

// failure classifies a non-2xx answer (see providerclient.Answer.Failure),
// in the provider's own words when its body has a "message".
func failure(a *providerclient.Answer, op string) *providerclient.Error {
	var body struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(a.Body, &body)
	return a.Failure(op, body.Message)
}
