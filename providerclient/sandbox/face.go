package sandbox

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// Contracts a sandbox can speak (Config.Contract): one core (state,
// settlement, faults, persistence) behind one face per contract.
const (
	ContractFamily = "family" // the BSPay / PixUp family's legacy /v2
	ContractEfi    = "efi"    // the BCB API Pix as Efí serves it, with Efí's send and balance
	ContractWoovi  = "woovi"  // Woovi's (OpenPix) API, with RSA-signed webhooks
)

// face is one contract: its API routes, its error body and the
// notifications it sends.
type face interface {
	// routes are the contract's API routes.
	routes() []route
	// writeError answers status with the contract's error body.
	writeError(w http.ResponseWriter, status int, msg string)
	// notification is where and what the sandbox sends when r reaches its
	// current state: url "" sends nothing; stale, when the
	// out-of-order fault asks for it, is an earlier state sent last.
	// Callers hold s.mu.
	notification(r *record, now time.Time) (url string, body, stale []byte)
}

// signer is a face whose contract signs its notifications: sign returns
// the headers that carry the signature of body.
type signer interface {
	sign(body []byte) http.Header
}

// route is one API route of a face.
type route struct {
	method, pattern string
	auth            bool // needs a live access token
	handler         http.HandlerFunc
}

// familyFace is the family's legacy /v2 contract.
type familyFace struct{ s *Sandbox }

func (f familyFace) routes() []route {
	s := f.s
	return []route{
		{"POST", "/v2/oauth/token", false, s.handleToken},
		{"POST", "/v2/pix/qrcode", true, s.handleCreateCharge},
		{"POST", "/v2/pix/payment", true, s.handleCreatePayment},
		{"POST", "/v2/pix/refund", true, s.handleCreateRefund},
		{"POST", "/v2/consult-transaction", true, s.handleConsult},
		{"POST", "/v2/balance", true, s.handleBalance},
		{"POST", contract.PathKeyLookup, true, s.handleKeyLookup},
		{"POST", contract.PathInfractions, true, s.handleInfractions},
		{"POST", contract.PathStatement, true, s.handleStatement},
		{"POST", contract.PathRecurrence, true, s.handleCreateRecurrence},
		{"POST", contract.PathRecurrenceCancel, true, s.handleCancelRecurrence},
		{"POST", contract.PathRecurrenceCycle, true, s.handleCreateCycle},
		{"POST", contract.PathRecurrenceCycleRetry, true, s.handleRetryCycle},
		{"POST", contract.PathRecurrenceCycleCancel, true, s.handleCancelCycle},
	}
}

func (familyFace) writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, contract.Error{StatusCode: status, Message: msg})
}

func (f familyFace) notification(r *record, now time.Time) (string, []byte, []byte) {
	switch r.kind {
	case contract.TypeRecurrence:
		return recurrenceNotification(r, now)
	case cycleKind:
		return cycleNotification(r)
	}
	t := f.s.view(r, now)
	body, _ := json.Marshal(contract.Envelope[Transaction]{RequestBody: t})
	stale, _ := json.Marshal(contract.Envelope[Transaction]{RequestBody: staleView(t)})
	return r.postbackURL, body, stale
}
