package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// receiver is the integrators' postback endpoint, /pb/{integrator index}.
// It verifies every signature with the integrator's webhook secret, fails
// a share of the deliveries on purpose (500) so that PixGate's retries
// run, and notes under which webhook ids each event arrived.
type receiver struct {
	failShare float64
	// hung, while set, is the integrator whose deliveries the receiver
	// holds unanswered until the hang ends or PixGate gives up on them:
	// an endpoint that hangs.
	hung atomic.Pointer[hang]

	mu        sync.Mutex
	keys      map[string][]byte // integrator index → HMAC key
	events    map[eventKey]*delivery
	attempts  int
	failed    int // answered 500 on purpose
	forged    []string
	malformed []string
	srv       *http.Server
}

func newReceiver(failShare float64) *receiver {
	return &receiver{failShare: failShare, keys: map[string][]byte{}, events: map[eventKey]*delivery{}}
}

// addSecret registers integrator index's webhook secret ("whsec_...").
func (rc *receiver) addSecret(index int, secret string) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return err
	}
	rc.mu.Lock()
	rc.keys[strconv.Itoa(index)] = key
	rc.mu.Unlock()
	return nil
}

// hang is one integrator's endpoint hanging, until release is closed.
type hang struct {
	integrator string
	release    chan struct{}
}

// hangOn makes integrator index's endpoint hang; hangOff ends it, and
// the held deliveries are answered 503.
func (rc *receiver) hangOn(index int) {
	rc.hung.Store(&hang{integrator: strconv.Itoa(index), release: make(chan struct{})})
}

func (rc *receiver) hangOff() {
	if h := rc.hung.Swap(nil); h != nil {
		close(h.release)
	}
}

func (rc *receiver) serve(ln net.Listener) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /pb/{integrator}", rc.handle)
	rc.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = rc.srv.Serve(ln) }()
}

func (rc *receiver) close() {
	if rc.srv != nil {
		_ = rc.srv.Close()
	}
}

func (rc *receiver) handle(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return
	}
	if h := rc.hung.Load(); h != nil && h.integrator == r.PathValue("integrator") {
		select {
		case <-h.release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	rc.mu.Lock()
	key := rc.keys[r.PathValue("integrator")]
	rc.mu.Unlock()
	id := r.Header.Get("webhook-id")
	if err := verifySignature(key, id, r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature"), body, time.Now()); err != nil {
		rc.note(&rc.forged, id+": "+err.Error())
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var pb struct {
		RequestBody struct {
			TransactionType string `json:"transactionType"`
			ID              string `json:"id"`
			Status          string `json:"status"`
			PixID           string `json:"pix_id"`
		} `json:"requestBody"`
	}
	if err := json.Unmarshal(body, &pb); err != nil || pb.RequestBody.ID == "" || pb.RequestBody.Status == "" {
		rc.note(&rc.malformed, id+": no requestBody.id or status")
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if pb.RequestBody.TransactionType == "REFUND" && pb.RequestBody.PixID == "" {
		// Not refused: the body is fixed when the postback is created, so
		// retries would bring the same; noted as a problem instead.
		rc.note(&rc.malformed, id+": a REFUND without the refunded charge's pix_id")
	}
	ev := eventKey{pb.RequestBody.TransactionType, pb.RequestBody.ID, pb.RequestBody.Status}
	fail := rand.Float64() < rc.failShare
	rc.mu.Lock()
	rc.attempts++
	d := rc.events[ev]
	if d == nil {
		d = &delivery{ids: map[string]bool{}, first: arrived}
		rc.events[ev] = d
	}
	d.ids[id] = true
	if fail {
		rc.failed++
	} else {
		d.delivered = true
	}
	rc.mu.Unlock()
	if fail {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) note(list *[]string, s string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(*list) < 20 {
		*list = append(*list, s)
	}
}

// snapshot copies what the receiver saw.
func (rc *receiver) snapshot() (events map[eventKey]*delivery, attempts, failed int, forged, malformed []string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	events = make(map[eventKey]*delivery, len(rc.events))
	for k, d := range rc.events {
		ids := make(map[string]bool, len(d.ids))
		for id := range d.ids {
			ids[id] = true
		}
		events[k] = &delivery{ids: ids, delivered: d.delivered, first: d.first}
	}
	return events, rc.attempts, rc.failed, append([]string(nil), rc.forged...), append([]string(nil), rc.malformed...)
}

// verifySignature checks a Standard Webhooks signature as
// docs/postbacks.md tells integrators to: HMAC-SHA256 of id.timestamp.body
// with the decoded secret, one of the space-separated v1 signatures equal,
// the timestamp within 5 minutes of now.
func verifySignature(key []byte, id, ts, sigs string, body []byte, now time.Time) error {
	if len(key) == 0 {
		return errors.New("no secret for this integrator")
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || id == "" {
		return errors.New("missing webhook-id or webhook-timestamp")
	}
	if d := now.Sub(time.Unix(unix, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return errors.New("timestamp outside tolerance")
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(sigs) {
		version, value, _ := strings.Cut(sig, ",")
		got, err := base64.StdEncoding.DecodeString(value)
		if version == "v1" && err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return errors.New("no valid signature")
}
