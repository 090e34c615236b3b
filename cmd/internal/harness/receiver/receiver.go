// Package receiver is the harness's postback endpoint: it verifies each
// postback with its integrator's webhook secret (the Go SDK's
// verification), fails a share of the deliveries on purpose so that
// PixGate's retries run, can hang one integrator's endpoint, and records
// what arrived: every event under the webhook ids it came with, and when
// the first postback about each resource arrived, waking whoever waits
// for it.
package receiver

import (
	"encoding/base64"
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

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

// Event names one status change as postbacks tell it.
type Event struct{ Type, ID, Status string }

// Delivery is what the receiver saw of one event: the webhook ids it came
// under, whether one of its deliveries was answered 2xx, and when the
// first arrived.
type Delivery struct {
	IDs       map[string]bool
	Delivered bool
	First     time.Time
}

// Receiver serves POST /pb/{integrator index}, verified with that
// integrator's secret, and any other path unverified (integrators whose
// secret the harness does not keep).
type Receiver struct {
	failShare float64
	hung      atomic.Pointer[hang]

	mu        sync.Mutex
	secrets   map[string]string // integrator index → webhook secret
	ignored   map[string]bool
	events    map[Event]*Delivery
	first     map[string]time.Time // resource id or "ext:"+external_id → first arrival
	waiters   map[string]chan struct{}
	attempts  int
	failed    int // answered 500 on purpose
	resources int
	forged    []string
	malformed []string
	srv       *http.Server
}

// New is a receiver that answers 500 to failShare of the deliveries.
func New(failShare float64) *Receiver {
	return &Receiver{failShare: failShare, secrets: map[string]string{}, ignored: map[string]bool{},
		events: map[Event]*Delivery{}, first: map[string]time.Time{}, waiters: map[string]chan struct{}{}}
}

// Start listens on addr and serves.
func Start(addr string, failShare float64) (*Receiver, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	r := New(failShare)
	r.Serve(ln)
	return r, nil
}

// AddSecret registers integrator index's webhook secret ("whsec_...").
func (r *Receiver) AddSecret(index int, secret string) error {
	if key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_")); err != nil || len(key) == 0 {
		return pixgate.ErrWebhookSecret
	}
	r.mu.Lock()
	r.secrets[strconv.Itoa(index)] = secret
	r.mu.Unlock()
	return nil
}

// Ignore answers the deliveries to path 204 without recording them: the
// programs that send there wait for them on their own.
func (r *Receiver) Ignore(path string) {
	r.mu.Lock()
	r.ignored[path] = true
	r.mu.Unlock()
}

// Handler is the receiver's HTTP handler.
func (r *Receiver) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /pb/{integrator}", r.handle)
	mux.HandleFunc("POST /", r.handle)
	return mux
}

// Serve serves on ln until Close.
func (r *Receiver) Serve(ln net.Listener) {
	r.srv = &http.Server{Handler: r.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
}

// Close stops serving.
func (r *Receiver) Close() {
	if r.srv != nil {
		_ = r.srv.Close()
	}
}

func (r *Receiver) handle(w http.ResponseWriter, req *http.Request) {
	arrived := time.Now()
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		return
	}
	r.mu.Lock()
	ignored := r.ignored[req.URL.Path]
	r.mu.Unlock()
	if ignored {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	integrator := req.PathValue("integrator")
	if h := r.hung.Load(); h != nil && integrator != "" && h.integrator == integrator {
		select {
		case <-h.release:
		case <-req.Context().Done():
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	id := req.Header.Get("webhook-id")
	if integrator != "" {
		r.mu.Lock()
		secret, known := r.secrets[integrator]
		r.mu.Unlock()
		err := errors.New("no secret for this integrator")
		if known {
			err = pixgate.VerifyPostback(secret, req.Header, body)
		}
		if err != nil {
			r.note(&r.forged, id+": "+err.Error())
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
	}
	p, err := pixgate.ParsePostback(body)
	if err != nil || p.ID == "" || p.Status == "" {
		r.note(&r.malformed, id+": no requestBody.id or status")
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if p.TransactionType == pixgate.TypeRefund && p.PixID == "" {
		// Not refused: the body is fixed when the postback is created, so
		// retries would bring the same; noted as a problem instead.
		r.note(&r.malformed, id+": a REFUND without the refunded charge's pix_id")
	}
	fail := rand.Float64() < r.failShare
	r.record(Event{p.TransactionType, p.ID, p.Status}, id, p.ExternalID, arrived, fail)
	if fail {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
