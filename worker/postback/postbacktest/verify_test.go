package postbacktest

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/pixgate/pixgate/worker/postback"
)

// The Standard Webhooks reference vector, from the specification's own tests.
const (
	refSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	refID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	refTS     = 1614265330
	refBody   = `{"test": 2432232314}`
	refSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func refHeaders(ts, sig string) http.Header {
	h := http.Header{}
	h.Set(postback.HeaderID, refID)
	h.Set(postback.HeaderTimestamp, ts)
	h.Set(postback.HeaderSignature, sig)
	return h
}

func TestVerify(t *testing.T) {
	at := time.Unix(refTS, 0).Add(10 * time.Second)
	tests := []struct {
		name    string
		headers http.Header
		body    string
		now     time.Time
		want    error
	}{
		{"reference vector", refHeaders("1614265330", refSig), refBody, at, nil},
		{"one of several signatures", refHeaders("1614265330", "v1,bm9wZQ== v2,x "+refSig), refBody, at, nil},
		{"tampered body", refHeaders("1614265330", refSig), `{"test": 2432232315}`, at, ErrNoValidSignature},
		{"tampered timestamp", refHeaders("1614265331", refSig), refBody, at, ErrNoValidSignature},
		{"other version only", refHeaders("1614265330", "v1a,"+refSig[3:]), refBody, at, ErrNoValidSignature},
		{"too old", refHeaders("1614265330", refSig), refBody, at.Add(DefaultTolerance), ErrTimestamp},
		{"from the future", refHeaders("1614265330", refSig), refBody, time.Unix(refTS, 0).Add(-6 * time.Minute), ErrTimestamp},
		{"malformed timestamp", refHeaders("yesterday", refSig), refBody, at, ErrTimestamp},
		{"no signature", refHeaders("1614265330", ""), refBody, at, ErrMissingHeaders},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := verifyAt(tt.now, refSecret, tt.headers, []byte(tt.body), 0)
			if !errors.Is(err, tt.want) {
				t.Fatalf("verify = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestVerifyWithNow(t *testing.T) {
	now := time.Now()
	sig, err := postback.Sign(refSecret, refID, now, []byte(refBody))
	if err != nil {
		t.Fatal(err)
	}
	h := refHeaders(strconv.FormatInt(now.Unix(), 10), sig)
	if err := Verify(refSecret, h, []byte(refBody), time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := Verify("whsec_QUJD", h, []byte(refBody), time.Minute); !errors.Is(err, ErrNoValidSignature) {
		t.Fatalf("another secret verified: %v", err)
	}
}
