package sandbox

import (
	"io"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/pix"
)

// Faults is the set of misbehaviours the sandbox injects. The zero value is
// a healthy provider that settles on its own.
type Faults struct {
	// Latency is added before every /v2 answer.
	Latency time.Duration
	// ErrorRate is the share (0..1) of /v2 requests answered 500 without
	// being processed.
	ErrorRate float64
	// TimeoutRate is the share (0..1) of /v2 requests that are processed and
	// then never answered: the sandbox holds the connection until the client
	// gives up, and then drops it. This is how a client meets an unknown
	// outcome.
	TimeoutRate float64
	// Outage answers every /v2 request 503.
	Outage bool
	// Routes limits Latency, ErrorRate, TimeoutRate and Outage to these /v2
	// paths ("/v2/pix/payment"); empty means every /v2 route.
	Routes []string
	// DuplicateNotifications sends each notification this many times (0 and
	// 1 both mean once).
	DuplicateNotifications int
	// OutOfOrderNotifications delivers the copies concurrently in a shuffled
	// order, then sends a stale earlier-status copy (PENDING, PROCESSING)
	// after the final one.
	OutOfOrderNotifications bool
	// DropNotifications sends no notification at all.
	DropNotifications bool
	// FailKeys are PIX keys whose payments settle as FAILED.
	FailKeys []string
	// ManualSettle stops automatic settlement: payments and refunds stay
	// PROCESSING until settled or failed through the control endpoints.
	// (On the wire: "auto_settle": false.)
	ManualSettle bool
	// SettleDelay overrides Config.SettleDelay when positive.
	SettleDelay time.Duration
}

// SetFaults replaces the fault set.
func (s *Sandbox) SetFaults(f Faults) {
	f.FailKeys = slices.Clone(f.FailKeys)
	f.Routes = slices.Clone(f.Routes)
	s.mu.Lock()
	s.faults = f
	s.mu.Unlock()
}

// Faults returns the current fault set.
func (s *Sandbox) Faults() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults
	f.FailKeys = slices.Clone(f.FailKeys)
	f.Routes = slices.Clone(f.Routes)
	return f
}

// ResetFaults goes back to a healthy provider.
func (s *Sandbox) ResetFaults() { s.SetFaults(Faults{}) }

func (f Faults) appliesTo(path string) bool {
	return len(f.Routes) == 0 || slices.Contains(f.Routes, path)
}

// failsKey reports whether payments to the (normalized) key of the given
// type must fail. A fail key matches as written or once normalized, so
// "(11) 99876-5432" matches "+5511998765432".
func (f Faults) failsKey(keyType, key string) bool {
	for _, fk := range f.FailKeys {
		if strings.EqualFold(strings.TrimSpace(fk), key) {
			return true
		}
		if n, err := pix.NormalizeKey(pix.KeyType(keyType), fk); err == nil && n == key {
			return true
		}
	}
	return false
}

// withFaults applies latency, outage, errors and timeouts to a /v2 route.
func (s *Sandbox) withFaults(path string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f := s.Faults()
		if !f.appliesTo(path) {
			next(w, r)
			return
		}
		if f.Latency > 0 && !s.wait(r, f.Latency) {
			return
		}
		switch {
		case f.Outage:
			s.face.writeError(w, http.StatusServiceUnavailable, "service unavailable (sandbox outage)")
		case f.ErrorRate > 0 && s.draw() < f.ErrorRate:
			s.face.writeError(w, http.StatusInternalServerError, "internal error (sandbox fault)")
		case f.TimeoutRate > 0 && s.draw() < f.TimeoutRate:
			next(discardWriter{header: http.Header{}}, r)
			s.wait(r, maxHold)
			// Drop the connection without an answer.
			panic(http.ErrAbortHandler)
		default:
			next(w, r)
		}
	}
}

// draw is a number in [0, 1) for a fault's roll: from the seeded sequence
// when Config.FaultSeed is set, at random otherwise.
func (s *Sandbox) draw() float64 {
	if s.draws == nil {
		return mrand.Float64()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draws.Float64()
}

// maxHold bounds how long the timeout fault holds a connection for a client
// that never gives up.
const maxHold = 2 * time.Minute

// wait sleeps d, and reports false if the client went away or the sandbox
// closed first.
func (s *Sandbox) wait(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.ctx.Done():
	}
	return false
}

// discardWriter swallows the answer of a request the timeout fault holds.
type discardWriter struct{ header http.Header }

func (d discardWriter) Header() http.Header         { return d.header }
func (d discardWriter) Write(b []byte) (int, error) { return io.Discard.Write(b) }
func (d discardWriter) WriteHeader(int)             {}
