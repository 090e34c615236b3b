package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Standard Webhooks test vector, as docs/postbacks.md gives it.
func TestVerifySignatureStandardWebhooksVector(t *testing.T) {
	key, _ := base64.StdEncoding.DecodeString("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	id, ts, body := "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", []byte(`{"test": 2432232314}`)
	sig := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
	now := time.Unix(1614265330, 0).Add(time.Minute)
	if err := verifySignature(key, id, ts, "v1,bm90IGl0 "+sig, body, now); err != nil {
		t.Fatalf("the vector does not verify: %v", err)
	}
	for name, c := range map[string]struct {
		id, ts, sigs string
		body         []byte
		now          time.Time
	}{
		"another body":    {id, ts, sig, []byte(`{"test": 2432232315}`), now},
		"another id":      {"msg_x", ts, sig, body, now},
		"too old":         {id, ts, sig, body, now.Add(10 * time.Minute)},
		"v2 only":         {id, ts, strings.Replace(sig, "v1,", "v2,", 1), body, now},
		"no timestamp":    {id, "", sig, body, now},
		"no signature":    {id, ts, "", body, now},
		"undecodable sig": {id, ts, "v1,%%%", body, now},
	} {
		if err := verifySignature(key, c.id, c.ts, c.sigs, c.body, c.now); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
}

func sign(key []byte, id string, at time.Time, body string) (string, string) {
	ts := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + body))
	return ts, "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func TestReceiverNotesEventsAndFailsOnPurpose(t *testing.T) {
	for _, share := range []float64{0, 1} {
		rc := newReceiver(share)
		secret := "whsec_" + base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
		if err := rc.addSecret(0, secret); err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("POST /pb/{integrator}", rc.handle)
		srv := httptest.NewServer(mux)
		key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		post := func(path, id, body string, key []byte) int {
			ts, sig := sign(key, id, time.Now(), body)
			req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
			req.Header.Set("webhook-id", id)
			req.Header.Set("webhook-timestamp", ts)
			req.Header.Set("webhook-signature", sig)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		body := `{"requestBody":{"transactionType":"PAYMENT","id":"w-1","status":"COMPLETED"}}`
		want := map[float64]int{0: http.StatusNoContent, 1: http.StatusInternalServerError}[share]
		if code := post("/pb/0", "pb-1", body, key); code != want {
			t.Fatalf("share %v: answered %d, want %d", share, code, want)
		}
		post("/pb/0", "pb-2", body, key) // the same event under another id
		if code := post("/pb/0", "pb-3", body, []byte("wrong key")); code != http.StatusUnauthorized {
			t.Fatalf("a forged postback answered %d", code)
		}
		if code := post("/pb/7", "pb-4", body, key); code != http.StatusUnauthorized {
			t.Fatalf("a postback for an unknown integrator answered %d", code)
		}
		post("/pb/0", "pb-5", `{"requestBody":{"transactionType":"REFUND","id":"r-1","status":"COMPLETED"}}`, key)
		srv.Close()
		events, attempts, failed, forged, malformed := rc.snapshot()
		d := events[eventKey{"PAYMENT", "w-1", "COMPLETED"}]
		if d == nil || len(d.ids) != 2 || d.delivered != (share == 0) || attempts != 3 || failed != int(share*3) {
			t.Fatalf("share %v: %+v, %d attempts, %d failed", share, d, attempts, failed)
		}
		if len(forged) != 2 || len(malformed) != 1 || !strings.Contains(malformed[0], "REFUND without") {
			t.Fatalf("share %v: forged %v, malformed %v", share, forged, malformed)
		}
	}
}
