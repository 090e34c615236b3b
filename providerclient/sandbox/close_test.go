package sandbox

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"
)

// Close stops settlement timers and notification senders, and releases
// requests held by the timeout fault: no goroutine outlives it.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()

	hang := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
		w.WriteHeader(500)
	}))
	sb := New(Config{SettleDelay: time.Hour})
	srv := httptest.NewServer(sb.Handler())
	e := &env{t: t, sb: sb, srv: srv}
	_, tok := e.call("/v2/oauth/token", "", "client_id=sandbox&client_secret=sandbox", func(r *http.Request) {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	})
	e.token = tok["access_token"].(string)

	// A payment waiting for its settlement timer, a notification stuck on a
	// receiver that never answers, and a request held by the timeout fault.
	e.post("/v2/pix/payment", validPayment("timer"))
	_, charge := e.post("/v2/pix/qrcode", map[string]any{"amount": 1, "postbackUrl": slow.URL})
	if _, err := sb.PayCharge(charge["transactionId"].(string), Payer{}); err != nil {
		t.Fatal(err)
	}
	sb.SetFaults(Faults{TimeoutRate: 1})
	held := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Post(srv.URL+"/v2/oauth/token", "application/x-www-form-urlencoded", nil)
		if err == nil {
			resp.Body.Close()
		}
		held <- err
	}()
	waitFor(t, "the held request", func() bool { return sb.Stats().Requests["/v2/oauth/token"] == 2 })

	done := make(chan struct{})
	go func() { sb.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Close did not return")
	}
	if err := <-held; err == nil {
		t.Fatal("the held request got an answer")
	}
	close(hang)
	srv.Close()
	slow.Close()
	srv.Client().CloseIdleConnections()
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}
