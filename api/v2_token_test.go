package api

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// TestV2TokenWays: every way the spec and the provider family's clients
// send client credentials buys a token that /v2 accepts.
func TestV2TokenWays(t *testing.T) {
	e := newEnv(t, noTokenRateLimit)
	in, v1 := e.integrator("Loja Tokens", money.Percent(0), money.Fixed(0))
	e.fund(in.ID, 12_34)
	id, secret := keyPair(v1)
	form := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v.Encode()
	}
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	_ = mw.WriteField("grant_type", "client_credentials")
	_ = mw.WriteField("client_id", id)
	_ = mw.WriteField("client_secret", secret)
	_ = mw.Close()

	tests := []struct {
		name    string
		body    any
		headers []string
	}{
		{"Basic, empty body", nil, []string{"Authorization", basicAuth(id, secret), "Content-Type", ""}},
		{"Basic, form grant_type", form("grant_type", "client_credentials"), []string{"Authorization", basicAuth(id, secret), "Content-Type", ctForm}},
		{"Basic, JSON grant_type", `{"grant_type":"client_credentials"}`, []string{"Authorization", basicAuth(id, secret)}},
		{"Basic, stray padding", nil, []string{"Authorization", basicAuth(id, secret) + "==", "Content-Type", ""}},
		{"Basic, lower-case scheme", nil, []string{"Authorization", "basic " + strings.TrimPrefix(basicAuth(id, secret), "Basic "), "Content-Type", ""}},
		{"JSON body", map[string]string{"grant_type": "client_credentials", "public_id": id, "secret": secret}, nil},
		{"JSON body, aliases", map[string]string{"grant_type": "client_credentials", "client_id": id, "client_secret": secret}, nil},
		{"JSON body, no grant_type", map[string]string{"public_id": id, "secret": secret}, nil},
		{"JSON body, charset, extra members", `{"grant_type":"client_credentials","public_id":"` + id + `","secret":"` + secret + `","scope":"x","n":1}`,
			[]string{"Content-Type", "application/json; charset=utf-8"}},
		{"JSON body without Content-Type", map[string]string{"grant_type": "client_credentials", "public_id": id, "secret": secret}, []string{"Content-Type", ""}},
		{"form body", form("grant_type", "client_credentials", "public_id", id, "secret", secret), []string{"Content-Type", ctForm}},
		{"form body, aliases", form("grant_type", "client_credentials", "client_id", id, "client_secret", secret), []string{"Content-Type", ctForm}},
		{"multipart body, aliases", mp.String(), []string{"Content-Type", mw.FormDataContentType()}},
		{"Basic wins over body", map[string]string{"public_id": "pk_other", "secret": "wrong"}, []string{"Authorization", basicAuth(id, secret)}},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.on(t).postToken(tt.body, tt.headers...).expect(t, http.StatusOK)
			tok := r.str("access_token")
			if !strings.HasPrefix(tok, "pgat_") || r.str("token_type") != "Bearer" || r.get("expires_in") != "3600" || len(r.body) != 3 {
				t.Fatalf("token answer %s", r.raw)
			}
			if r.header.Get("Cache-Control") != "no-store" || r.header.Get("Pragma") != "no-cache" {
				t.Fatalf("cache headers %v", r.header)
			}
			if seen[tok] {
				t.Fatal("the same token twice")
			}
			seen[tok] = true
			b := e.on(t).call(http.MethodPost, "/v2/balance", tok, nil).expect(t, http.StatusOK)
			if b.get("available") != "12.34" {
				t.Fatalf("balance with the token: %s", b.raw)
			}
		})
	}
	if strings.Contains(e.logs.String(), secret) {
		t.Fatal("a secret reached the logs")
	}
	for tok := range seen {
		if strings.Contains(e.logs.String(), tok) {
			t.Fatal("an access token reached the logs")
		}
	}
}

// TestV2TokenMistakes: each credential mistake gets its RFC 6749 error in
// PixGate's error shape, echoes nothing that was sent, and issues nothing.
func TestV2TokenMistakes(t *testing.T) {
	e := newEnv(t, noTokenRateLimit)
	in, v1 := e.integrator("Loja Erros", money.Percent(0), money.Fixed(0))
	id, secret := keyPair(v1)
	_, revoked, err := e.db.CreateKey(context.Background(), newKeyFor(in.ID))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.db.RevokeKey(context.Background(), revoked.PublicID); err != nil {
		t.Fatal(err)
	}
	const unknownID, wrongSecret = "pk_nosuchkeyatall", "sk_wrongwrongwrongwrong"
	jsonCreds := func(idField, id, secretField, secret string) map[string]string {
		return map[string]string{"grant_type": "client_credentials", idField: id, secretField: secret}
	}
	basic := func(id, secret string) []string {
		return []string{"Authorization", basicAuth(id, secret), "Content-Type", ""}
	}

	tests := []struct {
		name    string
		body    any
		headers []string
		status  int
		oauth   string
		field   string // names the field in errors
	}{
		{"unknown id, Basic", nil, basic(unknownID, secret), 401, "invalid_client", ""},
		{"unknown id, JSON", jsonCreds("public_id", unknownID, "secret", secret), nil, 401, "invalid_client", ""},
		{"wrong secret, Basic", nil, basic(id, wrongSecret), 401, "invalid_client", ""},
		{"wrong secret, JSON", jsonCreds("public_id", id, "secret", wrongSecret), nil, 401, "invalid_client", ""},
		{"wrong secret, form aliases", "grant_type=client_credentials&client_id=" + id + "&client_secret=" + wrongSecret, []string{"Content-Type", ctForm}, 401, "invalid_client", ""},
		{"revoked key, Basic", nil, basic(revoked.PublicID, revoked.Secret), 401, "invalid_client", ""},
		{"revoked key, JSON", jsonCreds("client_id", revoked.PublicID, "client_secret", revoked.Secret), nil, 401, "invalid_client", ""},
		{"id that cannot be a key", jsonCreds("public_id", "pk_\x00'; --", "secret", secret), nil, 401, "invalid_client", ""},
		{"Basic not base64", nil, []string{"Authorization", "Basic %%%" + secret, "Content-Type", ""}, 401, "invalid_client", ""},
		{"Basic without secret", nil, basic(id, ""), 401, "invalid_client", ""},
		{"Basic without colon", nil, []string{"Authorization", "Basic " + strings.TrimPrefix(basicAuth(id, secret), "Basic ")[:8], "Content-Type", ""}, 401, "invalid_client", ""},
		{"no credentials at all", nil, []string{"Content-Type", ""}, 400, "invalid_request", "public_id"},
		{"grant_type only", map[string]string{"grant_type": "client_credentials"}, nil, 400, "invalid_request", "secret"},
		{"secret missing", map[string]string{"grant_type": "client_credentials", "public_id": id}, nil, 400, "invalid_request", "secret"},
		{"id missing, form", "grant_type=client_credentials&secret=" + secret, []string{"Content-Type", ctForm}, 400, "invalid_request", "public_id"},
		{"empty strings", jsonCreds("public_id", "", "secret", ""), nil, 400, "invalid_request", "public_id"},
		{"v1 key pair as Bearer", nil, []string{"Authorization", "Bearer " + v1, "Content-Type", ""}, 400, "invalid_request", "secret"},
		{"non-string member", `{"grant_type":"client_credentials","public_id":"` + id + `","secret":12345}`, nil, 400, "invalid_request", "secret"},
		{"malformed JSON", `{"grant_type":"client_credentials","public_id":"` + id + `","secret":"` + secret, nil, 400, "invalid_request", ""},
		{"JSON array", `["` + id + `"]`, nil, 400, "invalid_request", ""},
		{"parameter twice", "grant_type=client_credentials&client_id=" + id + "&client_id=" + id + "&client_secret=" + secret, []string{"Content-Type", ctForm}, 400, "invalid_request", "client_id"},
		{"password grant", map[string]string{"grant_type": "password", "public_id": id, "secret": secret}, nil, 400, "unsupported_grant_type", ""},
		{"authorization_code grant, Basic", "grant_type=authorization_code&code=x", []string{"Authorization", basicAuth(id, secret), "Content-Type", ctForm}, 400, "unsupported_grant_type", ""},
		{"unsupported grant with wrong secret", map[string]string{"grant_type": "refresh_token", "public_id": id, "secret": wrongSecret}, nil, 400, "unsupported_grant_type", ""},
	}
	var invalidClient string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.on(t).postToken(tt.body, tt.headers...).expectError(t, tt.status, tt.oauth)
			if r.str("error") != tt.oauth || r.str("error_description") != r.str("message") {
				t.Fatalf("RFC 6749 members: %s", r.raw)
			}
			if r.header.Get("Cache-Control") != "no-store" || r.header.Get("Pragma") != "no-cache" {
				t.Fatalf("cache headers %v", r.header)
			}
			for _, cred := range []string{secret, wrongSecret, revoked.Secret, id, unknownID, revoked.PublicID} {
				if strings.Contains(r.raw, cred) {
					t.Fatalf("the answer echoes a credential: %s", r.raw)
				}
			}
			if tt.field != "" && r.fieldErrors()[tt.field] == nil {
				t.Fatalf("errors do not name %s: %s", tt.field, r.raw)
			}
			if tt.status == 401 {
				if ch := r.header.Get("WWW-Authenticate"); !strings.HasPrefix(ch, "Basic realm=") {
					t.Fatalf("WWW-Authenticate %q", ch)
				}
				// Unknown id, wrong secret, revoked key: one answer.
				if invalidClient == "" {
					invalidClient = r.str("message")
				} else if r.str("message") != invalidClient {
					t.Fatalf("invalid_client answers differ: %q vs %q", r.str("message"), invalidClient)
				}
			}
		})
	}
	if keys, _ := e.rdb.Keys(t.Context(), "pixgate:v2:token:*").Result(); len(keys) != 0 {
		t.Fatalf("tokens issued by refused requests: %v", keys)
	}
	if strings.Contains(e.logs.String(), secret) || strings.Contains(e.logs.String(), wrongSecret) {
		t.Fatal("a secret reached the logs")
	}
	// The route takes POST only.
	e.call(http.MethodGet, "/v2/oauth/token", "", nil).expectError(t, 405, codeMethodNotAllowed)
}
