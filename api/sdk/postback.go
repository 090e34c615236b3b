package pixgate

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Postbacks are signed with Standard Webhooks
// (https://www.standardwebhooks.com): webhook-id, webhook-timestamp and
// webhook-signature, "v1," + base64 HMAC-SHA256 of id.timestamp.body keyed
// with the base64-decoded part of the integrator's secret after "whsec_".

// PostbackTolerance is how far a postback's timestamp may be from the
// receiver's clock: the Standard Webhooks replay window.
const PostbackTolerance = 5 * time.Minute

// Verification errors; VerifyPostback wraps them.
var (
	ErrPostbackHeaders   = errors.New("pixgate: postback without webhook-id, webhook-timestamp or webhook-signature")
	ErrPostbackTimestamp = errors.New("pixgate: postback timestamp malformed or outside the tolerance")
	ErrPostbackSignature = errors.New("pixgate: no postback signature matches")
	ErrWebhookSecret     = errors.New("pixgate: webhook secret is not whsec_ followed by base64")
)

// VerifyPostback checks a received postback against the integrator's
// webhook secret: its timestamp within PostbackTolerance of now, and one
// of its signatures (several are sent while a secret is rotated) matching
// the body exactly as received, compared in constant time. Verify before
// parsing, and deduplicate on the webhook-id header: a postback may come
// more than once.
func VerifyPostback(secret string, header http.Header, body []byte) error {
	return verifyPostbackAt(time.Now(), secret, header, body)
}

func verifyPostbackAt(now time.Time, secret string, header http.Header, body []byte) error {
	id, tsText, sigs := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || tsText == "" || sigs == "" {
		return ErrPostbackHeaders
	}
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return ErrPostbackTimestamp
	}
	if skew := now.Sub(time.Unix(ts, 0)); skew > PostbackTolerance || skew < -PostbackTolerance {
		return fmt.Errorf("%w (%s away)", ErrPostbackTimestamp, skew.Round(time.Second))
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return ErrWebhookSecret
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, ts)
	mac.Write(body)
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(sigs) {
		version, value, ok := strings.Cut(sig, ",")
		if !ok || version != "v1" {
			continue
		}
		if got, err := base64.StdEncoding.DecodeString(value); err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrPostbackSignature
}

// Postback is what a postback body carries: the family's notification
// (Transaction, under "requestBody") and PixGate's additions.
type Postback struct {
	Transaction
	// ID is PixGate's id of the charge, withdrawal or refund.
	ID string `json:"id"`
	// Fee is the cash-in fee of a charge, the cash-out fee of a payment or
	// refund; NetAmount what a paid charge credited.
	Fee       Amount `json:"fee"`
	NetAmount Amount `json:"net_amount"`
	// FailureReason says why a payment or refund FAILED.
	FailureReason string `json:"failure_reason"`
}

// ParsePostback reads a postback body (verify it first).
func ParsePostback(body []byte) (*Postback, error) {
	var env struct {
		RequestBody *Postback `json:"requestBody"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("pixgate: postback body: %w", err)
	}
	if env.RequestBody == nil || env.RequestBody.TransactionType == "" {
		return nil, errors.New("pixgate: postback body without requestBody.transactionType")
	}
	return env.RequestBody, nil
}

// PostbackHandler is an http.Handler for a postbackUrl: it verifies each
// postback with secret (401 when it does not verify: PixGate keeps
// retrying, and nothing forged reaches handle), parses it, and calls
// handle with the webhook-id to deduplicate on. handle's nil answers 204;
// an error answers 500 and PixGate retries later with backoff. Answer
// quickly: do long work after handle returns.
func PostbackHandler(secret string, handle func(ctx context.Context, webhookID string, p *Postback) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		if err := VerifyPostback(secret, r.Header, body); err != nil {
			http.Error(w, "signature does not verify", http.StatusUnauthorized)
			return
		}
		p, err := ParsePostback(body)
		if err != nil {
			http.Error(w, "not a postback", http.StatusBadRequest)
			return
		}
		if err := handle(r.Context(), r.Header.Get("webhook-id"), p); err != nil {
			http.Error(w, "not processed", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
