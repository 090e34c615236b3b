package sandbox

import (
	"net/http"
	"strings"
	"time"
)

// routes wires the /v2 contract (faults and bearer auth in front) and the
// /sandbox control endpoints (no auth, no faults).
func (s *Sandbox) routes() http.Handler {
	mux := http.NewServeMux()
	v2 := func(path string, auth bool, h http.HandlerFunc) {
		if auth {
			h = s.requireBearer(h)
		}
		mux.Handle("POST "+path, s.count(path, s.withFaults(path, h)))
	}
	v2("/v2/oauth/token", false, s.handleToken)
	v2("/v2/pix/qrcode", true, s.handleCreateCharge)
	v2("/v2/pix/payment", true, s.handleCreatePayment)
	v2("/v2/pix/refund", true, s.handleCreateRefund)
	v2("/v2/consult-transaction", true, s.handleConsult)
	v2("/v2/balance", true, s.handleBalance)

	mux.HandleFunc("POST /sandbox/charges/{id}/pay", s.handlePay)
	mux.HandleFunc("POST /sandbox/charges/{id}/expire", s.handleExpire)
	mux.HandleFunc("POST /sandbox/transactions/{id}/settle", s.handleSettle)
	mux.HandleFunc("POST /sandbox/transactions/{id}/fail", s.handleFail)
	mux.HandleFunc("GET /sandbox/transactions", s.handleList)
	mux.HandleFunc("GET /sandbox/transactions/{id}", s.handleInspect)
	mux.HandleFunc("POST /sandbox/faults", s.handleSetFaults)
	mux.HandleFunc("GET /sandbox/faults", s.handleGetFaults)
	mux.HandleFunc("DELETE /sandbox/faults", s.handleResetFaults)
	mux.HandleFunc("GET /sandbox/stats", s.handleStats)
	mux.HandleFunc("DELETE /sandbox/stats", s.handleResetStats)
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
			writeError(w, http.StatusUnauthorized, "missing, invalid or expired access token")
			return
		}
		next(w, r)
	}
}
