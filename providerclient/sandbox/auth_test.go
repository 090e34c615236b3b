package sandbox

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTokenCredentialForms(t *testing.T) {
	e := newEnv(t, Config{ClientID: "id-1", ClientSecret: "s3cret"})
	form := func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") }
	basic := func(id, secret string) func(*http.Request) {
		return func(r *http.Request) { r.SetBasicAuth(id, secret) }
	}
	tests := []struct {
		name   string
		body   any
		edit   func(*http.Request)
		status int
	}{
		{"basic, empty body", nil, basic("id-1", "s3cret"), 200},
		{"basic and form grant", "grant_type=client_credentials", func(r *http.Request) { basic("id-1", "s3cret")(r); form(r) }, 200},
		{"form credentials", "grant_type=client_credentials&client_id=id-1&client_secret=s3cret", form, 200},
		{"json credentials", map[string]string{"grant_type": "client_credentials", "client_id": "id-1", "client_secret": "s3cret"}, nil, 200},
		{"wrong secret", nil, basic("id-1", "nope"), 401},
		{"wrong id", "client_id=x&client_secret=s3cret", form, 401},
		{"no credentials", nil, nil, 401},
		{"other grant", "grant_type=password&client_id=id-1&client_secret=s3cret", form, 400},
		{"malformed json", "{", nil, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.call("/v2/oauth/token", "", tt.body, tt.edit)
			if status != tt.status {
				t.Fatalf("status %d, want %d (%v)", status, tt.status, body)
			}
			if status == 200 {
				if tok, _ := body["access_token"].(string); len(tok) < 20 || body["token_type"] != "Bearer" || num(body["expires_in"]) != "3600" {
					t.Fatalf("token answer %v", body)
				}
				return
			}
			if num(body["statusCode"]) != strconv.Itoa(status) || body["message"] == "" {
				t.Fatalf("error shape %v", body)
			}
			if strings.Contains(body["message"].(string), "s3cret") {
				t.Fatal("error echoes the secret")
			}
		})
	}
	if got := e.sb.Stats().Requests["/v2/oauth/token"]; got != len(tests)+1 {
		t.Fatalf("token requests counted %d, want %d", got, len(tests)+1)
	}
}

func TestBearerRequired(t *testing.T) {
	e := newEnv(t, Config{TokenTTL: 300 * time.Millisecond})
	for _, path := range []string{"/v2/pix/qrcode", "/v2/pix/payment", "/v2/pix/refund", "/v2/consult-transaction", "/v2/balance"} {
		for _, token := range []string{"", "unknown-token"} {
			status, body := e.call(path, token, map[string]any{}, nil)
			if status != 401 || num(body["statusCode"]) != "401" {
				t.Fatalf("%s with token %q: %d %v", path, token, status, body)
			}
		}
	}
	if status, _ := e.post("/v2/balance", nil); status != 200 {
		t.Fatalf("balance with a fresh token: %d", status)
	}
	waitFor(t, "the token to expire", func() bool {
		status, _ := e.post("/v2/balance", nil)
		return status == 401
	})
}

func TestExpireTokens(t *testing.T) {
	e := newEnv(t, Config{})
	e.sb.ExpireTokens()
	if status, _ := e.post("/v2/balance", nil); status != 401 {
		t.Fatalf("status %d after ExpireTokens, want 401", status)
	}
	e2 := newEnv(t, Config{})
	if status, _ := e2.call("/sandbox/faults", "", map[string]any{"expire_tokens": true}, nil); status != 200 {
		t.Fatalf("faults: %d", status)
	}
	if status, _ := e2.post("/v2/balance", nil); status != 401 {
		t.Fatalf("status %d after expire_tokens, want 401", status)
	}
}
