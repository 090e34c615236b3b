package postback

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
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

// ErrSecret refuses a webhook secret that is not "whsec_" and base64.
var ErrSecret = errors.New("postback: webhook secret is not whsec_ followed by base64")

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
