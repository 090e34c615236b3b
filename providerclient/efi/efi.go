// Package efi is the connector of the Banco Central's API Pix as Efí serves
// it (BCB API Pix 2.9.0 for charges, due-date charges, received PIX,
// refunds, Pix Automático's recurrences and webhooks; Efí's own routes for
// sending a PIX, reading a send and the balance), over mutual TLS with
// OAuth2 client credentials.
//
// PixGate's ids become the contract's: a charge's txid, a send's idEnvio
// and a refund's devolucao id are PixGate's record id without its hyphens
// (32 letters and digits, within the BCB's patterns), so a retry after an
// unknown outcome names the same charge, send or refund, and the
// provider's ids are PixGate's own. A recurrence's idRec is Efí's: PixGate's
// id goes in its vinculo.contrato, by which a repeated create finds it
// (recurrence.go).
package efi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
)

const userAgent = "pixgate-efi/1"

// connector speaks the efi contract. Create it with New.
type connector struct {
	cfg    providerclient.Config
	hc     *http.Client
	tokens *providerclient.TokenSource

	hookMu        sync.Mutex
	hookDoneAt    time.Time // when the webhook was last registered
	recHookDoneAt time.Time // when the recurrences' webhook was last registered
	// cobrHookDoneAt is when the cycle charges' webhook was last registered.
	cobrHookDoneAt time.Time
}

// hookRefresh is how often the webhook registration is repeated (it is
// idempotent), so a provider that forgot it learns it again.
const hookRefresh = 10 * time.Minute

// New returns the efi connector for cfg, without the retry, breaker and
// metrics layers (providerclient.Wrap adds them). cfg.TLS must hold the
// client certificate Efí issued; cfg.PixKey the account's PIX key.
func New(cfg providerclient.Config) (providerclient.Connector, error) {
	cfg = cfg.WithDefaults()
	if cfg.PixKey == "" {
		return nil, errors.New("efi: the account's PIX key is required")
	}
	tlsCfg, err := cfg.TLS.ClientConfig()
	if err != nil {
		return nil, errors.New("efi: mutual TLS: " + err.Error())
	}
	hc := cfg.HTTPClient
	// Without a transport of the caller's, the connector has its own: the
	// client certificate is this account's.
	if providerclient.IsDefaultTransport(cfg.HTTPClient.Transport) {
		t := providerclient.NewTransport()
		t.TLSClientConfig = tlsCfg
		hc = &http.Client{Transport: t, CheckRedirect: cfg.HTTPClient.CheckRedirect}
	}
	c := &connector{cfg: cfg, hc: hc}
	c.tokens = &providerclient.TokenSource{Fetch: c.fetchToken, Timeout: cfg.Timeout}
	return c, nil
}

func (c *connector) Name() string { return c.cfg.Name }
func (c *connector) Kind() string { return providerclient.KindEfi }

func (c *connector) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Charges: true, Payouts: true, Refunds: true, Reads: true, Balance: true,
		Notifications: true, RefundNeedsEndToEndID: true, ReadsByID: true, Infractions: true, InfractionList: true, InfractionDefense: true,
		Statement: true, PayerDocument: true, DueCharges: true, Recurrences: true, Journeys: slices.Clone(offeredJourneys)}
}

// fetchToken asks POST /oauth/token for a token: HTTP Basic client
// credentials and {"grant_type":"client_credentials"}, as Efí's SDKs send.
// Every failure is ErrUnavailable except a 4xx: wrong credentials,
// ErrRejected.
func (c *connector) fetchToken(ctx context.Context) (string, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.BaseURL+bcbpix.PathToken,
		strings.NewReader(`{"grant_type":"client_credentials"}`))
	if err != nil {
		return "", 0, &providerclient.Error{Op: providerclient.OpToken, Kind: providerclient.ErrUnavailable, Err: err}
	}
	req.SetBasicAuth(c.cfg.ClientID, c.cfg.ClientSecret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	res, err := providerclient.RoundTrip(c.hc, req)
	if err != nil {
		err.(*providerclient.Error).Op, err.(*providerclient.Error).Kind = providerclient.OpToken, providerclient.ErrUnavailable
		return "", 0, err
	}
	if !res.OK() {
		e := res.Failure(providerclient.OpToken, message(res))
		if e.Kind != providerclient.ErrUnavailable {
			e.Kind, e.Message = providerclient.ErrRejected, "provider refused the client credentials: "+e.Message
		}
		return "", 0, e
	}
	var body struct {
		AccessToken string          `json:"access_token"`
		ExpiresIn   json.RawMessage `json:"expires_in"`
	}
	if json.Unmarshal(res.Body, &body) != nil || body.AccessToken == "" {
		return "", 0, &providerclient.Error{Op: providerclient.OpToken, Kind: providerclient.ErrUnavailable,
			StatusCode: res.Status, Message: "answer without access_token"}
	}
	ttl := time.Minute
	if secs, err := strconv.Atoi(strings.Trim(string(body.ExpiresIn), `" `)); err == nil && secs > 0 {
		ttl = time.Duration(secs) * time.Second
	}
	return body.AccessToken, ttl, nil
}

// call sends in (nil: no body) with the bearer token and returns the
// answer, whatever its status; a 401 drops the token and repeats the call
// once with a new one.
func (c *connector) call(ctx context.Context, op, method, path string, in any) (*providerclient.Answer, error) {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Message: "cannot encode the request", Err: err}
		}
	}
	var res *providerclient.Answer
	for attempt := 0; attempt < 2; attempt++ {
		tok, err := c.tokens.Get(ctx)
		if err != nil {
			return nil, err
		}
		if res, err = c.send(ctx, method, path, tok, body); err != nil {
			err.(*providerclient.Error).Op = op
			return nil, err
		}
		if res.Status != http.StatusUnauthorized {
			break
		}
		c.tokens.Invalidate(tok)
	}
	return res, nil
}

func (c *connector) send(ctx context.Context, method, path, token string, body []byte) (*providerclient.Answer, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return nil, &providerclient.Error{Kind: providerclient.ErrUnavailable, Err: err}
	}
	if body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	} else {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	if (path == webhookPath(c.cfg.PixKey) || path == bcbpix.PathWebhookRec || path == bcbpix.PathWebhookCobR) && c.cfg.WebhookSkipMTLS {
		req.Header.Set("x-skip-mtls-checking", "true")
	}
	return providerclient.RoundTrip(c.hc, req)
}

// decode reads a 2xx answer into out, or classifies the failure.
func decode(op string, res *providerclient.Answer, out any) error {
	if !res.OK() {
		return res.Failure(op, message(res))
	}
	if err := json.Unmarshal(res.Body, out); err != nil {
		return &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "unreadable answer", Err: err}
	}
	return nil
}

// message is the provider's words: a BCB problem's detail (or title) and
// the fields it names, or Efí's own {nome, mensagem}.
func message(res *providerclient.Answer) string {
	var p struct {
		bcbpix.Problem
		bcbpix.EfiError
	}
	if json.Unmarshal(res.Body, &p) != nil {
		return ""
	}
	msg := p.Detail
	if msg == "" {
		msg = p.Title
	}
	for _, v := range p.Violacoes {
		msg += "; " + v.Propriedade + " " + v.Razao
	}
	if msg == "" && p.Mensagem != "" {
		msg = p.Mensagem
		if p.Nome != "" {
			msg = p.Nome + ": " + msg
		}
	}
	return strings.TrimPrefix(msg, "; ")
}
