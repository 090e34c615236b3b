// Package postbacktest verifies PixGate's postbacks as an integrator
// does, following Standard Webhooks (https://www.standardwebhooks.com) and
// docs/postbacks.md: the tests check what package postback signs and what
// the workers send against it. It is written apart from the signer, so the
// two cannot share a misreading of the scheme.
package postbacktest

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

// The Standard Webhooks headers.
const (
	headerID        = "webhook-id"
	headerTimestamp = "webhook-timestamp"
	headerSignature = "webhook-signature"
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
	id, tsText, sigs := headers.Get(headerID), headers.Get(headerTimestamp), headers.Get(headerSignature)
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
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return ErrSecret
	}
	h := hmac.New(sha256.New, key)
	h.Write([]byte(id + "." + strconv.FormatInt(ts, 10) + "."))
	h.Write(body)
	want := h.Sum(nil)
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
