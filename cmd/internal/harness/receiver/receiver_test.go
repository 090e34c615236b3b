package receiver

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

func sign(key []byte, id string, at time.Time, body string) (string, string) {
	ts := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + body))
	return ts, "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func post(t *testing.T, url, id, ts, sigs, body string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", ts)
	req.Header.Set("webhook-signature", sigs)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// The Standard Webhooks test vector's key and body, signed now (the SDK's
// own tests check the vector at its timestamp): the receiver takes it, and
// refuses every alteration of it.
func TestVerifySignatureStandardWebhooksVector(t *testing.T) {
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	rc := New(0)
	if err := rc.AddSecret(0, secret); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rc.Handler())
	defer srv.Close()
	id, body := "msg_p5jXN8AQM9LWM0D4loKWxJek", `{"requestBody":{"transactionType":"PAYMENT","id":"w-1","status":"COMPLETED"}}`
	ts, sig := sign(key, id, time.Now(), body)
	if code := post(t, srv.URL+"/pb/0", id, ts, "v1,bm90IGl0 "+sig, body); code != http.StatusNoContent {
		t.Fatalf("the vector's key does not verify: %d", code)
	}
	old, oldSig := sign(key, id, time.Now().Add(-10*time.Minute), body)
	for name, c := range map[string]struct{ id, ts, sigs, body string }{
		"another body":    {id, ts, sig, strings.Replace(body, "w-1", "w-2", 1)},
		"another id":      {"msg_x", ts, sig, body},
		"too old":         {id, old, oldSig, body},
		"v2 only":         {id, ts, strings.Replace(sig, "v1,", "v2,", 1), body},
		"no timestamp":    {id, "", sig, body},
		"no signature":    {id, ts, "", body},
		"undecodable sig": {id, ts, "v1,%%%", body},
	} {
		if code := post(t, srv.URL+"/pb/0", c.id, c.ts, c.sigs, c.body); code != http.StatusUnauthorized {
			t.Errorf("%s: answered %d", name, code)
		}
	}
}

func TestReceiverNotesEventsAndFailsOnPurpose(t *testing.T) {
	for _, share := range []float64{0, 1} {
		rc := New(share)
		secret := "whsec_" + base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
		if err := rc.AddSecret(0, secret); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(rc.Handler())
		key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		send := func(path, id, body string, key []byte) int {
			ts, sig := sign(key, id, time.Now(), body)
			return post(t, srv.URL+path, id, ts, sig, body)
		}
		body := `{"requestBody":{"transactionType":"PAYMENT","id":"w-1","status":"COMPLETED","external_id":"e-1"}}`
		want := map[float64]int{0: http.StatusNoContent, 1: http.StatusInternalServerError}[share]
		if code := send("/pb/0", "pb-1", body, key); code != want {
			t.Fatalf("share %v: answered %d, want %d", share, code, want)
		}
		send("/pb/0", "pb-2", body, key) // the same event under another id
		if code := send("/pb/0", "pb-3", body, []byte("wrong key")); code != http.StatusUnauthorized {
			t.Fatalf("a forged postback answered %d", code)
		}
		if code := send("/pb/7", "pb-4", body, key); code != http.StatusUnauthorized {
			t.Fatalf("a postback for an unknown integrator answered %d", code)
		}
		send("/pb/0", "pb-5", `{"requestBody":{"transactionType":"REFUND","id":"r-1","status":"COMPLETED"}}`, key)
		srv.Close()
		s := rc.Snapshot()
		d := s.Events[Event{"PAYMENT", "w-1", "COMPLETED"}]
		if d == nil || len(d.IDs) != 2 || d.Delivered != (share == 0) || s.Attempts != 3 || s.Failed != int(share*3) {
			t.Fatalf("share %v: %+v, %d attempts, %d failed", share, d, s.Attempts, s.Failed)
		}
		if len(s.Forged) != 2 || len(s.Malformed) != 1 || !strings.Contains(s.Malformed[0], "REFUND without") {
			t.Fatalf("share %v: forged %v, malformed %v", share, s.Forged, s.Malformed)
		}
		if _, ok := rc.ArrivalExt("e-1"); !ok {
			t.Fatalf("share %v: no arrival by external id", share)
		}
		select {
		case <-rc.WaitExt("e-1"):
		default:
			t.Fatalf("share %v: the waiter of an arrived postback is not woken", share)
		}
		if res, n := rc.Counts(); res != 2 || n != 3 {
			t.Fatalf("share %v: counts %d resources, %d deliveries", share, res, n)
		}
	}
}

// Unsigned paths (integrators whose secret the harness does not keep) are
// recorded unverified; ignored ones not at all.
func TestReceiverUnsignedAndIgnoredPaths(t *testing.T) {
	rc := New(0)
	rc.Ignore("/bare-postbacks")
	srv := httptest.NewServer(rc.Handler())
	defer srv.Close()
	body := `{"requestBody":{"transactionType":"RECEIVEPIX","id":"c-1","status":"PAID"}}`
	if code := post(t, srv.URL+"/postbacks", "x", "", "", body); code != http.StatusNoContent {
		t.Fatalf("unsigned path answered %d", code)
	}
	if code := post(t, srv.URL+"/bare-postbacks", "y", "", "", `not json`); code != http.StatusNoContent {
		t.Fatalf("ignored path answered %d", code)
	}
	if res, n := rc.Counts(); res != 1 || n != 1 {
		t.Fatalf("counts %d resources, %d deliveries", res, n)
	}
}
