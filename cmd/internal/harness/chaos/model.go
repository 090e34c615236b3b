package chaos

import (
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"
)

// kind is what a record is.
type kind string

const (
	chargeKind     kind = "charge"
	withdrawalKind kind = "withdrawal"
	refundKind     kind = "refund"
)

// answer is what the harness learnt from PixGate about a create request.
type answer int

const (
	// unanswered: no definitive answer (errors, timeouts); whether the
	// record exists is looked up at the end.
	unanswered answer = iota
	// created: 200 or 201, the record exists.
	created
	// refused: a definitive 4xx; nothing was written.
	refused
)

// fee is an integrator's fee rule as the operator gave it to `pixgate
// integrator create` ("percent:1.5", "fixed:0.50"), computed here
// independently of PixGate, as docs/ledger.md describes it: percentages
// (up to four decimals) of the amount in centavos rounded half-up, or a
// fixed amount.
type fee struct {
	ppm   int64 // percent rules: millionths of the amount
	fixed int64 // fixed rules: centavos
	pct   bool
}

func parseFee(s string) (fee, error) {
	k, v, ok := strings.Cut(s, ":")
	r, okNum := new(big.Rat).SetString(v)
	if !ok || !okNum || r.Sign() < 0 {
		return fee{}, fmt.Errorf("fee %q: want percent:N or fixed:N", s)
	}
	switch k {
	case "percent":
		ppm := new(big.Rat).Mul(r, big.NewRat(10_000, 1))
		if !ppm.IsInt() {
			return fee{}, fmt.Errorf("fee %q: at most four decimals", s)
		}
		return fee{pct: true, ppm: ppm.Num().Int64()}, nil
	case "fixed":
		c := new(big.Rat).Mul(r, big.NewRat(100, 1))
		if !c.IsInt() {
			return fee{}, fmt.Errorf("fee %q: at most two decimals", s)
		}
		return fee{fixed: c.Num().Int64()}, nil
	}
	return fee{}, fmt.Errorf("fee %q: kind must be percent or fixed", s)
}

// on is the fee on amount centavos.
func (f fee) on(amount int64) int64 {
	if !f.pct {
		return f.fixed
	}
	return (amount*f.ppm + 500_000) / 1_000_000
}

// integrator is one integrator the load drives: its fees as created, the
// float credited to it, and its credentials.
type integrator struct {
	name, email      string
	cashIn, cashOut  string // CLI notation
	hold             string // --cashin-hold
	credit           int64  // centavos credited before the load
	in, out          fee
	id               int64 // PixGate's id
	publicID, secret string
	webhookSecret    string
	postbackURL      string
}

// record is one charge, withdrawal or refund the load asked for, with
// what the harness knows of it. Fields are read and written under the
// model's lock.
type record struct {
	kind       kind
	integrator int // index in model.integrators
	externalID string
	amount     int64
	scenario   int
	started    time.Time
	answeredAt time.Time // when its create request got its last answer (or none)
	surface    string    // "v1", "v2"
	answer     answer
	pixID      string // a charge's provider id; a transfer's PixGate pix_id
	// createFailures: attempts of the create request answered other than
	// 2xx, or not at all (the client retries them).
	createFailures int
	// provider: where the charge is, as v1 answered it or the sandbox
	// that took its payment ("" while unknown).
	provider string

	// Charges: the payment at the sandbox.
	payAttempted time.Time
	paidAt       time.Time // the sandbox confirmed it
	payUnknown   bool      // asked, no definitive answer
	refundable   bool      // may be picked for a refund

	failKey bool    // withdrawals: to the key the sandbox fails
	charge  *record // refunds: the refunded charge
}

// model is every integrator and every record of the run.
type model struct {
	mu          sync.Mutex
	integrators []*integrator
	records     []*record
	byExt       map[string]*record // kind:integrator:external_id
}

func newModel(ins []*integrator) *model {
	return &model{integrators: ins, byExt: map[string]*record{}}
}

func extKey(k kind, integrator int, ext string) string {
	return fmt.Sprintf("%s:%d:%s", k, integrator, ext)
}

// add registers a new record.
func (m *model) add(r *record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.records = append(m.records, r)
	m.byExt[extKey(r.kind, r.integrator, r.externalID)] = r
}

// update changes records under the lock.
func (m *model) update(f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f()
}

// snapshot copies every record (refunds point at their charge's copy).
func (m *model) snapshot() []record {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]record, len(m.records))
	idx := make(map[*record]int, len(m.records))
	for i, r := range m.records {
		out[i], idx[r] = *r, i
	}
	for i := range out {
		if c := out[i].charge; c != nil {
			out[i].charge = &out[idx[c]]
		}
	}
	return out
}

// pickRefundable takes one of the latest charges paid at least minAge ago
// and not yet picked, for a refund; nil when there is none.
func (m *model) pickRefundable(now time.Time, minAge time.Duration, pick func(n int) int) *record {
	m.mu.Lock()
	defer m.mu.Unlock()
	var cands []*record
	for i := len(m.records) - 1; i >= 0 && len(cands) < 64; i-- {
		r := m.records[i]
		if r.kind == chargeKind && r.refundable && !r.paidAt.IsZero() && now.Sub(r.paidAt) >= minAge {
			cands = append(cands, r)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	r := cands[pick(len(cands))]
	r.refundable = false
	return r
}

// recentCreated is one of the latest 500 records PixGate confirmed, nil
// when there is none.
func (m *model) recentCreated(pick func(n int) int) *record {
	m.mu.Lock()
	defer m.mu.Unlock()
	var cands []*record
	for i := len(m.records) - 1; i >= 0 && i >= len(m.records)-500; i-- {
		if r := m.records[i]; r.answer == created {
			cands = append(cands, r)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	return cands[pick(len(cands))]
}
