package sandbox

import (
	"maps"
	"net/http"
	"sync"
)

// Stats are the sandbox's counters since New or the last ResetStats.
type Stats struct {
	// Requests counts every request that reached a /v2 route, by path
	// ("/v2/pix/payment"), whatever its answer, faults included.
	Requests map[string]int `json:"requests"`
	// TokensIssued counts successful /v2/oauth/token answers.
	TokensIssued int `json:"tokens_issued"`
	// ChargesCreated, PaymentsCreated and RefundsCreated count new
	// transactions; replays of a known external_id are not counted.
	ChargesCreated  int `json:"charges_created"`
	PaymentsCreated int `json:"payments_created"`
	RefundsCreated  int `json:"refunds_created"`
	// NotificationAttempts counts POSTs to postback URLs (retries and
	// duplicates included); NotificationsDelivered those answered 2xx.
	NotificationAttempts   int `json:"notification_attempts"`
	NotificationsDelivered int `json:"notifications_delivered"`
}

type counters struct {
	mu       sync.Mutex
	requests map[string]int
	tokensIssued, charges, payments, refunds,
	notifyAttempts, notifyDelivered int
}

func (c *counters) add(field *int) {
	c.mu.Lock()
	*field++
	c.mu.Unlock()
}

// count records a request to path before anything else can answer it.
func (s *Sandbox) count(path string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.stats.mu.Lock()
		s.stats.requests[path]++
		s.stats.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// Stats returns a copy of the counters.
func (s *Sandbox) Stats() Stats {
	c := &s.stats
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{
		Requests:               maps.Clone(c.requests),
		TokensIssued:           c.tokensIssued,
		ChargesCreated:         c.charges,
		PaymentsCreated:        c.payments,
		RefundsCreated:         c.refunds,
		NotificationAttempts:   c.notifyAttempts,
		NotificationsDelivered: c.notifyDelivered,
	}
}

// ResetStats sets every counter back to zero.
func (s *Sandbox) ResetStats() {
	c := &s.stats
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.requests)
	c.tokensIssued, c.charges, c.payments, c.refunds, c.notifyAttempts, c.notifyDelivered = 0, 0, 0, 0, 0, 0
}

func (s *Sandbox) handleStats(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Stats())
}

func (s *Sandbox) handleResetStats(w http.ResponseWriter, _ *http.Request) {
	s.ResetStats()
	writeJSON(w, http.StatusOK, s.Stats())
}
