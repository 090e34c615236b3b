package pixgate

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Standard Webhooks reference vector, from the specification's tests.
const (
	refSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	refID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	refTS     = 1614265330
	refBody   = `{"test": 2432232314}`
	refSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func refHeader(ts int64, sig string) http.Header {
	h := http.Header{}
	h.Set("webhook-id", refID)
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", sig)
	return h
}

func TestVerifyPostback(t *testing.T) {
	at := time.Unix(refTS, 0).Add(10 * time.Second)
	for _, tt := range []struct {
		name   string
		secret string
		header http.Header
		body   string
		want   error
	}{
		{"the reference vector", refSecret, refHeader(refTS, refSig), refBody, nil},
		{"one of several signatures (a rotation)", refSecret, refHeader(refTS, "v1,bm9wZQ== v2,x "+refSig), refBody, nil},
		{"a changed body", refSecret, refHeader(refTS, refSig), `{"test": 2432232315}`, ErrPostbackSignature},
		{"another secret", "whsec_QUJD", refHeader(refTS, refSig), refBody, ErrPostbackSignature},
		{"a replay 6 minutes late", refSecret, refHeader(refTS-6*60, refSig), refBody, ErrPostbackTimestamp},
		{"a timestamp from the future", refSecret, refHeader(refTS+6*60, refSig), refBody, ErrPostbackTimestamp},
		{"no signature", refSecret, refHeader(refTS, ""), refBody, ErrPostbackHeaders},
		{"a secret that is not base64", "whsec_***", refHeader(refTS, refSig), refBody, ErrWebhookSecret},
	} {
		if err := verifyPostbackAt(at, tt.secret, tt.header, []byte(tt.body)); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestParsePostback(t *testing.T) {
	p, err := ParsePostback([]byte(`{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "k3v9",
		"amount": 197143.76, "status": "PAID", "creditParty": {"name": "Fulano", "taxId": "52998224725"},
		"debitParty": {"bank": "Banco X", "taxId": "11222333000181"}, "id": "0195", "fee": 0.23, "net_amount": 14.77}}`))
	if err != nil || p.TransactionType != TypeReceivePix || p.Amount != 19714376 || p.Fee != 23 || p.NetAmount != 1477 ||
		p.CreditParty.Name != "Fulano" || p.DebitParty.Bank != "Banco X" || p.ID != "0195" {
		t.Fatalf("%+v, %v", p, err)
	}
	for _, body := range []string{`{}`, `{"requestBody": {}}`, `[]`, `{"requestBody": {"transactionType": "PAYMENT", "amount": 1.234}}`} {
		if _, err := ParsePostback([]byte(body)); err == nil {
			t.Errorf("%s parsed", body)
		}
	}
}

// The handler lets through only what verifies, and answers as PixGate's
// delivery expects: 2xx delivered, anything else retried later.
func TestPostbackHandler(t *testing.T) {
	var got []string
	h := PostbackHandler(refSecret, func(_ context.Context, id string, p *Postback) error {
		got = append(got, id+" "+p.Status)
		if p.Status == "FAILED" {
			return errors.New("not now")
		}
		return nil
	})
	body := `{"requestBody": {"transactionType": "PAYMENT", "transactionId": "t", "amount": 1.00, "status": "COMPLETED"}}`
	for _, tt := range []struct {
		name   string
		body   string
		sign   bool
		status int
	}{
		{"signed", body, true, http.StatusNoContent},
		{"unsigned", body, false, http.StatusUnauthorized},
		{"handler fails", strings.Replace(body, "COMPLETED", "FAILED", 1), true, http.StatusInternalServerError},
		{"not a postback", `{"hello": 1}`, true, http.StatusBadRequest},
	} {
		ts := time.Now().Unix()
		sig := "v1,bm9wZQ=="
		if tt.sign {
			sig = signForTest(t, refSecret, refID, ts, tt.body)
		}
		req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(tt.body))
		req.Header = refHeader(ts, sig)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("%s: %d, want %d", tt.name, rec.Code, tt.status)
		}
	}
	if len(got) != 2 || got[0] != refID+" COMPLETED" {
		t.Fatalf("handled %v", got)
	}
}
