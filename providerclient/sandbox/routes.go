package sandbox

import (
	"net/http"
	"strings"
	"time"
)

// routes wires the face's API routes and the control endpoints.
func (s *Sandbox) routes() http.Handler {
	mux := http.NewServeMux()
	s.apiRoutes(mux)
	s.controlRoutes(mux)
	return mux
}

// apiRoutes wires the face's contract: each route counted, behind the
// faults and, when it needs one, an access token.
func (s *Sandbox) apiRoutes(mux *http.ServeMux) {
	for _, rt := range s.face.routes() {
		h := rt.handler
		if rt.auth {
			h = s.requireBearer(h)
		}
		mux.Handle(rt.method+" "+rt.pattern, s.count(rt.pattern, s.withFaults(rt.pattern, h)))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.face.writeError(w, http.StatusNotFound, "no route for "+r.Method+" "+r.URL.Path)
	})
}

// controlRoutes wires the /sandbox control endpoints (no auth, no faults).
func (s *Sandbox) controlRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /sandbox/charges/{id}/pay", s.handlePay)
	mux.HandleFunc("POST /sandbox/charges/{id}/expire", s.handleExpire)
	mux.HandleFunc("POST /sandbox/charges/{id}/infraction", s.handleOpenInfraction)
	mux.HandleFunc("POST /sandbox/infractions/{id}/close", s.handleCloseInfraction)
	mux.HandleFunc("POST /sandbox/recurrences/{id}/approve", s.handleApproveRecurrence)
	mux.HandleFunc("POST /sandbox/recurrences/{id}/reject", s.handleRejectRecurrence)
	mux.HandleFunc("POST /sandbox/recurrences/{id}/expire", s.handleExpireRecurrence)
	mux.HandleFunc("POST /sandbox/recurrences/{id}/cancel", s.handlePayerCancelRecurrence)
	mux.HandleFunc("GET /sandbox/recurrences/{id}", s.handleInspectRecurrence)
	mux.HandleFunc("POST /sandbox/cycles/{id}/accept", s.handleAcceptCycle)
	mux.HandleFunc("POST /sandbox/cycles/{id}/pay", s.handlePayCycle)
	mux.HandleFunc("POST /sandbox/cycles/{id}/reject", s.handleRejectCycle)
	mux.HandleFunc("POST /sandbox/cycles/{id}/expire", s.handleExpireCycle)
	mux.HandleFunc("POST /sandbox/cycles/{id}/cancel", s.handlePayerCancelCycle)
	mux.HandleFunc("GET /sandbox/cycles/{id}", s.handleInspectCycle)
	mux.HandleFunc("GET /sandbox/clock", s.handleGetClock)
	mux.HandleFunc("POST /sandbox/clock", s.handleSetClock)
	mux.HandleFunc("POST /sandbox/keys/lookup", s.handleDirectory)
	mux.HandleFunc("POST /sandbox/transactions/{id}/settle", s.handleSettle)
	mux.HandleFunc("POST /sandbox/transactions/{id}/fail", s.handleFail)
	mux.HandleFunc("GET /sandbox/transactions", s.handleList)
	mux.HandleFunc("GET /sandbox/transactions/{id}", s.handleInspect)
	mux.HandleFunc("POST /sandbox/discrepancies", s.handleDiscrepancy)
	mux.HandleFunc("POST /sandbox/faults", s.handleSetFaults)
	mux.HandleFunc("GET /sandbox/faults", s.handleGetFaults)
	mux.HandleFunc("DELETE /sandbox/faults", s.handleResetFaults)
	mux.HandleFunc("GET /sandbox/stats", s.handleStats)
	mux.HandleFunc("DELETE /sandbox/stats", s.handleResetStats)
}

// APIHandler serves the face's contract alone (for a listener of its own,
// such as the mutual-TLS one of the efi face).
func (s *Sandbox) APIHandler() http.Handler {
	mux := http.NewServeMux()
	s.apiRoutes(mux)
	return mux
}

// ControlHandler serves the /sandbox control endpoints alone; other paths
// are 404.
func (s *Sandbox) ControlHandler() http.Handler {
	mux := http.NewServeMux()
	s.controlRoutes(mux)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no route for "+r.Method+" "+r.URL.Path)
	})
	return mux
}

// requireBearer answers 401 unless the request carries a live access token.
func (s *Sandbox) requireBearer(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || !s.validToken(strings.TrimSpace(token), time.Now()) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sandbox"`)
			s.face.writeError(w, http.StatusUnauthorized, "missing, invalid or expired access token")
			return
		}
		next(w, r)
	}
}
