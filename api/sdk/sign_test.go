package pixgate

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// signForTest signs as PixGate does (checked against the reference vector).
func signForTest(t *testing.T, secret, id string, ts int64, body string) string {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.%s", id, ts, body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func TestSignForTestMatchesTheReference(t *testing.T) {
	if got := signForTest(t, refSecret, refID, refTS, refBody); got != refSig {
		t.Fatalf("%s, want %s", got, refSig)
	}
}
