package family

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
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

const (
	userAgent = "pixgate-providerclient/1"
	// maxAnswer caps how much of an answer is read.
	maxAnswer = 1 << 20
)

// baseClient speaks HTTP to the provider: token, per-call timeout, error
// classification. It neither retries nor breaks circuits.
type baseClient struct {
	cfg    providerclient.Config
	tokens *tokenSource
}

// NewBase returns the HTTP layer alone: token cache and refresh, per-call
// timeout and typed errors, without breaker or retries. New wraps it.
func NewBase(cfg providerclient.Config) Client {
	cfg = cfg.WithDefaults()
	return &baseClient{cfg: cfg, tokens: &tokenSource{cfg: cfg}}
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
	var out Payment
	if err := c.call(ctx, opPayment, "/v2/pix/payment", req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func (c *baseClient) CreateRefund(ctx context.Context, req RefundRequest) (*Refund, error) {
	var out Refund
	if err := c.call(ctx, opRefund, "/v2/pix/refund", req, &out); err != nil {
		return nil, err
	}
	return &out, nil
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
	body, err := json.Marshal(in)
	if err != nil {
		return &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Message: "cannot encode the request", Err: err}
	}
	var res *answer
	for attempt := 0; attempt < 2; attempt++ {
		tok, err := c.tokens.get(ctx)
		if err != nil {
			return err
		}
		if res, err = c.send(ctx, path, tok, body); err != nil {
			err.(*providerclient.Error).Op = op
			return err
		}
		if res.status != http.StatusUnauthorized {
			break
		}
		c.tokens.invalidate(tok)
	}
	if res.status < 200 || res.status > 299 {
		return res.failure(op)
	}
	if err := json.Unmarshal(res.body, out); err != nil {
		return &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.status, Message: "unreadable answer", Err: err}
	}
	return nil
}

func (c *baseClient) send(ctx context.Context, path, token string, body []byte) (*answer, error) {
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
	return roundTrip(c.cfg.HTTPClient, req)
}

// answer is a provider HTTP answer, read in full.
type answer struct {
	status int
	body   []byte
}

// roundTrip sends req and reads the answer. A failure before the request was
// fully written is providerclient.ErrUnavailable; after it, providerclient.ErrUnknownOutcome.
func roundTrip(hc *http.Client, req *http.Request) (*answer, error) {
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{WroteRequest: func(i httptrace.WroteRequestInfo) {
		if i.Err == nil {
			wrote.Store(true)
		}
	}}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := hc.Do(req)
	if err == nil {
		defer resp.Body.Close()
		var body []byte
		if body, err = io.ReadAll(io.LimitReader(resp.Body, maxAnswer)); err == nil {
			return &answer{status: resp.StatusCode, body: body}, nil
		}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the URL
	}
	if wrote.Load() {
		return nil, &providerclient.Error{Kind: providerclient.ErrUnknownOutcome, Err: err}
	}
	return nil, &providerclient.Error{Kind: providerclient.ErrUnavailable, Err: err}
}

// failure classifies a non-2xx answer: 5xx, 408 and 429 are unavailable,
// 404 not found, other statuses rejected.
func (a *answer) failure(op string) *providerclient.Error {
	e := &providerclient.Error{Op: op, StatusCode: a.status, Message: a.message()}
	switch {
	case a.status >= 500, a.status == http.StatusRequestTimeout, a.status == http.StatusTooManyRequests:
		e.Kind = providerclient.ErrUnavailable
	case a.status == http.StatusNotFound:
		e.Kind = providerclient.ErrNotFound
	case a.status >= 400:
		e.Kind = providerclient.ErrRejected
	default:
		e.Kind, e.Message = providerclient.ErrUnavailable, fmt.Sprintf("unexpected answer: %s", e.Message)
	}
	return e
}

// message is the provider's "message", or a short snippet of the answer.
func (a *answer) message() string {
	var body struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(a.body, &body) == nil && body.Message != "" {
		return body.Message
	}
	s := strings.TrimSpace(string(a.body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		s = http.StatusText(a.status)
	}
	return s
}
