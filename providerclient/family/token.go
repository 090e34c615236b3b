package family

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

const (
	opToken = providerclient.OpToken
	// defaultTokenTTL applies when the provider gives no usable expires_in.
	defaultTokenTTL = time.Minute
)

// newTokenSource caches and shares the provider's access token (see
// providerclient.TokenSource), fetched by requestToken.
func newTokenSource(cfg providerclient.Config) *providerclient.TokenSource {
	return &providerclient.TokenSource{Timeout: cfg.Timeout,
		Fetch: func(ctx context.Context) (string, time.Duration, error) { return requestToken(ctx, cfg) }}
}

// requestToken asks /v2/oauth/token for a token with HTTP Basic. Every failure is
// providerclient.ErrUnavailable (nothing of consequence happened) except a 4xx, which means
// the credentials are wrong: providerclient.ErrRejected.
func requestToken(ctx context.Context, cfg providerclient.Config) (string, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.BaseURL+"/v2/oauth/token",
		strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		return "", 0, &providerclient.Error{Op: opToken, Kind: providerclient.ErrUnavailable, Err: err}
	}
	req.SetBasicAuth(cfg.ClientID, cfg.ClientSecret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	res, err := providerclient.RoundTrip(cfg.HTTPClient, req)
	if err != nil {
		err.(*providerclient.Error).Op, err.(*providerclient.Error).Kind = opToken, providerclient.ErrUnavailable
		return "", 0, err
	}
	if !res.OK() {
		e := failure(res, opToken)
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
		return "", 0, &providerclient.Error{Op: opToken, Kind: providerclient.ErrUnavailable, StatusCode: res.Status, Message: "answer without access_token"}
	}
	ttl := defaultTokenTTL
	if secs, err := strconv.Atoi(strings.Trim(string(body.ExpiresIn), "\" ")); err == nil && secs > 0 {
		ttl = time.Duration(secs) * time.Second
	}
	return body.AccessToken, ttl, nil
}
