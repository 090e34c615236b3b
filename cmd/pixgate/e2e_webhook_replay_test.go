package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// A range replay through the v1 route: postbacks delivered once are
// delivered again, each with the same webhook-id (what receivers
// deduplicate on) and the same body, and the delivery log shows both
// attempts of each.
func TestE2EWebhookReplayRange(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	url := s.receiver.URL + "/pix"
	since := time.Now().Add(-time.Second).UTC()
	s.payCharges(s.token, url, 3)
	s.eventually("3 postbacks", 20*time.Second, func() bool { return len(s.receiver.deliveries()) >= 3 })
	until := time.Now().Add(time.Second).UTC()

	code, v := doJSON(t, http.MethodPost, s.api+"/api/v1/postbacks/replay", "Bearer "+s.token,
		map[string]any{"since": since.Format(time.RFC3339Nano), "until": until.Format(time.RFC3339Nano)})
	if code != http.StatusAccepted || fmt.Sprint(v["queued"]) != "3" {
		t.Fatalf("replay: %d %v", code, v)
	}
	s.eventually("3 postbacks again", 20*time.Second, func() bool { return len(s.receiver.deliveries()) >= 6 })

	bodies := map[string][]string{}
	for _, d := range s.receiver.deliveries() {
		id := d.header.Get("webhook-id")
		bodies[id] = append(bodies[id], string(d.body))
	}
	if len(bodies) != 3 {
		t.Fatalf("%d webhook-ids in 6 deliveries: %v", len(bodies), bodies)
	}
	for id, b := range bodies {
		if len(b) != 2 || b[0] != b[1] {
			t.Fatalf("postback %s arrived %d times, bodies %v", id, len(b), b)
		}
		// The receiver has the request before the worker records its answer.
		var p map[string]any
		s.eventually("postback "+id+" logged twice", 10*time.Second, func() bool {
			_, p = doJSON(t, http.MethodGet, s.api+"/api/v1/postbacks/"+id, "Bearer "+s.token, nil)
			attempts, _ := p["attempt_list"].([]any)
			return p["status"] == "DELIVERED" && len(attempts) == 2
		})
		attempts := p["attempt_list"].([]any)
		for i, a := range attempts {
			if a := a.(map[string]any); !strings.HasPrefix(fmt.Sprint(a["status_code"]), "2") || fmt.Sprint(a["attempt"]) != fmt.Sprint(i+1) {
				t.Fatalf("postback %s attempt %d: %v", id, i+1, a)
			}
		}
	}
	s.receiver.verified(t, s.webhookSecret)
}
