package sandbox

import (
	"crypto/subtle"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// handleToken is POST /v2/oauth/token: client credentials from HTTP Basic,
// or client_id/client_secret in a form or JSON body.
func (s *Sandbox) handleToken(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	id, secret, grant, ok := readClientCredentials(w, r)
	if !ok {
		writeError(w, http.StatusBadRequest, "malformed token request")
		return
	}
	if grant != "" && grant != "client_credentials" {
		writeError(w, http.StatusBadRequest, "unsupported grant_type: only client_credentials")
		return
	}
	if !s.validClient(id, secret) {
		writeError(w, http.StatusUnauthorized, "invalid client credentials")
		return
	}
	token := newAccessToken()
	s.mu.Lock()
	s.tokens[token] = time.Now().Add(s.cfg.TokenTTL)
	s.mu.Unlock()
	s.stats.add(&s.stats.tokensIssued)
	writeJSON(w, http.StatusOK, contract.Token{
		AccessToken: token, TokenType: "Bearer", ExpiresIn: max(1, int((s.cfg.TokenTTL+time.Second-1)/time.Second)),
	})
}

// readClientCredentials takes HTTP Basic first, then the body's fields.
func readClientCredentials(w http.ResponseWriter, r *http.Request) (id, secret, grant string, ok bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return "", "", "", false
	}
	var fields struct {
		GrantType    string `json:"grant_type"`
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	trimmed := strings.TrimSpace(string(body))
	switch {
	case trimmed == "":
	case strings.HasPrefix(trimmed, "{"):
		if json.Unmarshal(body, &fields) != nil {
			return "", "", "", false
		}
	default:
		form, err := url.ParseQuery(trimmed)
		if err != nil {
			return "", "", "", false
		}
		fields.GrantType, fields.ClientID, fields.ClientSecret =
			form.Get("grant_type"), form.Get("client_id"), form.Get("client_secret")
	}
	if u, p, basic := r.BasicAuth(); basic {
		return u, p, fields.GrantType, true
	}
	return fields.ClientID, fields.ClientSecret, fields.GrantType, true
}

func (s *Sandbox) validClient(id, secret string) bool {
	idOK := subtle.ConstantTimeCompare([]byte(id), []byte(s.cfg.ClientID))
	secretOK := subtle.ConstantTimeCompare([]byte(secret), []byte(s.cfg.ClientSecret))
	return idOK&secretOK == 1
}

func (s *Sandbox) validToken(token string, now time.Time) bool {
	if token == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.tokens[token]
	if ok && !now.Before(exp) {
		delete(s.tokens, token)
		return false
	}
	return ok
}

// ExpireTokens invalidates every access token issued so far, as a provider
// does when it rotates keys; the next /v2 call with an old token gets 401.
func (s *Sandbox) ExpireTokens() {
	s.mu.Lock()
	clear(s.tokens)
	s.mu.Unlock()
}
