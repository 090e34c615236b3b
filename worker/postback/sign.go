package postback

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Standard Webhooks (https://www.standardwebhooks.com) headers: integrators
// verify postbacks with any of its libraries, or twenty lines of their own.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// DefaultTolerance is the Standard Webhooks replay window: a timestamp
// further than this from the receiver's clock is refused.
const DefaultTolerance = 5 * time.Minute

// Verification errors.
var (
	ErrMissingHeaders   = errors.New("postback: missing webhook-id, webhook-timestamp or webhook-signature")
	ErrTimestamp        = errors.New("postback: webhook-timestamp missing, malformed or outside the tolerance")
	ErrNoValidSignature = errors.New("postback: no signature matches")
	ErrSecret           = errors.New("postback: webhook secret is not whsec_ followed by base64")
)

// secretKey is the HMAC key of a "whsec_" + base64 secret: the decoded
// bytes, not the text, as every Standard Webhooks library does.
func secretKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return nil, ErrSecret
	}
	return key, nil
}

// Sign returns the webhook-signature value of one message:
// "v1," + base64(HMAC-SHA256(key, msgID + "." + unix seconds + "." + body)).
func Sign(secret string, msgID string, ts time.Time, body []byte) (string, error) {
	key, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	return "v1," + base64.StdEncoding.EncodeToString(mac(key, msgID, ts.Unix(), body)), nil
}

func mac(key []byte, msgID string, unix int64, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msgID))
	h.Write([]byte{'.'})
	h.Write([]byte(strconv.FormatInt(unix, 10)))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Verify checks a received postback the way an integrator should: the
// timestamp within tolerance of now (DefaultTolerance when tolerance ≤ 0),
// and one of the space-separated "v1,<base64>" signatures matching, compared
// in constant time. Several signatures appear while a secret is rotated.
func Verify(secret string, headers http.Header, body []byte, tolerance time.Duration) error {
	return verifyAt(time.Now(), secret, headers, body, tolerance)
}

func verifyAt(now time.Time, secret string, headers http.Header, body []byte, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	id, tsText, sigs := headers.Get(HeaderID), headers.Get(HeaderTimestamp), headers.Get(HeaderSignature)
	if id == "" || tsText == "" || sigs == "" {
		return ErrMissingHeaders
	}
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return ErrTimestamp
	}
	if skew := now.Sub(time.Unix(ts, 0)); skew > tolerance || skew < -tolerance {
		return fmt.Errorf("%w (%s away)", ErrTimestamp, skew.Round(time.Second))
	}
	key, err := secretKey(secret)
	if err != nil {
		return err
	}
	want := mac(key, id, ts, body)
	for _, sig := range strings.Fields(sigs) {
		version, value, ok := strings.Cut(sig, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(value)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrNoValidSignature
}
