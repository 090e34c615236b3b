package postback

import (
	"errors"
	"testing"
	"time"
)

// The Standard Webhooks reference vector, from the specification's own tests.
const (
	refSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	refID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	refTS     = 1614265330
	refBody   = `{"test": 2432232314}`
	refSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func TestSignReferenceVector(t *testing.T) {
	got, err := Sign(refSecret, refID, time.Unix(refTS, 0), []byte(refBody))
	if err != nil || got != refSig {
		t.Fatalf("Sign = %q, %v; want %q", got, err, refSig)
	}
}

func TestSignRefusesAMalformedSecret(t *testing.T) {
	if _, err := Sign("whsec_***", refID, time.Now(), nil); !errors.Is(err, ErrSecret) {
		t.Fatalf("Sign with a malformed secret = %v", err)
	}
}
