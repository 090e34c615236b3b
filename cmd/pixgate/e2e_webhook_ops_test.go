package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// payCharges creates n charges to the stack's receiver, as token's
// integrator, pays each through the sandbox and waits until all are PAID.
func (s *devStack) payCharges(token, postbackURL string, n int) {
	s.t.Helper()
	ids := make([]string, n)
	for i := range ids {
		code, v := doJSON(s.t, http.MethodPost, s.api+"/api/v1/charges", "Bearer "+token,
			map[string]any{"amount": 10.00, "payer": payer, "postbackUrl": postbackURL})
		if code != http.StatusCreated {
			s.t.Fatalf("create charge: %d %v", code, v)
		}
		ids[i] = v["id"].(string)
		if c, paid := s.control(http.MethodPost, "/sandbox/charges/"+v["pix_id"].(string)+"/pay", nil); c != http.StatusOK {
			s.t.Fatalf("pay: %d %v", c, paid)
		}
	}
	for _, id := range ids {
		s.eventually("charge PAID", 10*time.Second, func() bool {
			_, v := doJSON(s.t, http.MethodGet, s.api+"/api/v1/charges/"+id, "Bearer "+token, nil)
			return v["status"] == "PAID"
		})
	}
}

// Webhook operations end to end: a paused endpoint's postbacks wait
// (nothing attempted, nothing lost) and after the resume all arrive, oldest
// first; another integrator's endpoint that never answers holds only its
// own slots, and this integrator's postbacks are still delivered promptly.
func TestE2EWebhookEndpointPauseResume(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	url := s.receiver.URL + "/pix"
	integrator := fmt.Sprint(s.integratorID)
	var paused struct{ Status string }
	s.pg.json(&paused, "postbacks", "pause", "--integrator", integrator, "--url", url)
	if paused.Status != "PAUSED" {
		t.Fatalf("pause: %+v", paused)
	}
	s.payCharges(s.token, url, 20)
	time.Sleep(time.Second) // a delivery would arrive by now
	if n := len(s.receiver.deliveries()); n != 0 {
		t.Fatalf("a paused endpoint got %d postbacks", n)
	}
	var resumed struct {
		Status string
		Queued int
	}
	s.pg.json(&resumed, "postbacks", "resume", "--integrator", integrator, "--url", url)
	if resumed.Status != "ACTIVE" || resumed.Queued != 20 {
		t.Fatalf("resume: %+v", resumed)
	}
	took := s.eventually("20 postbacks after the resume", 60*time.Second, func() bool { return len(s.receiver.deliveries()) >= 20 })
	t.Logf("20 waiting postbacks delivered %v after the resume", took)
	var ids []string
	for _, d := range s.receiver.deliveries() {
		ids = append(ids, d.header.Get("webhook-id"))
	}
	// Postback ids are UUIDv7: in creation order, the order of the payments.
	if len(ids) != 20 || !slices.IsSorted(ids) {
		t.Fatalf("after the resume: %d deliveries, in order %v: %v", len(ids), slices.IsSorted(ids), ids)
	}
	s.receiver.verified(t, s.webhookSecret)

	// Another integrator whose endpoint never answers.
	release := make(chan struct{})
	hanging := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	t.Cleanup(hanging.Close)
	t.Cleanup(func() { close(release) }) // before Close, which waits for the handlers
	var other struct {
		Token string `json:"token"`
	}
	s.pg.json(&other, "integrator", "create", "--name", "Loja Lenta", "--email", "lenta@loja.example")
	s.payCharges(other.Token, hanging.URL+"/pix", 6)
	start := time.Now()
	s.payCharges(s.token, url, 5)
	s.eventually("this integrator's 5 postbacks while the other's endpoint hangs", 5*time.Second,
		func() bool { return len(s.receiver.deliveries()) >= 25 })
	t.Logf("5 postbacks delivered %v after their charges were created, beside a hanging endpoint", time.Since(start))
}
