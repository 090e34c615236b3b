package chaos

import (
	"fmt"
	"time"

	"github.com/pixgate/pixgate/cmd/internal/harness/receiver"
)

// pgRecord is a record as PixGate's database has it after the drain.
type pgRecord struct {
	kind       kind
	externalID string
	id         string
	status     string
	amount     int64
	fee        int64
	effect     int64     // the sum of its postings on its integrator's own accounts
	createdAt  time.Time // PixGate's creation time
	finalAt    time.Time // when its final status was written (with its postback)
	provider   string    // the provider PixGate records it at
}

// providerTxn is one transaction of a sandbox's ledger.
type providerTxn struct {
	typ, externalID, status string
	amount                  int64
	provider                string // the sandbox's provider name
}

// eventKey names one status change as postbacks tell it.
type eventKey = receiver.Event

// delivery is what the receiver saw of one event (one held by a hang is
// not seen until it ends).
type delivery = receiver.Delivery

type wallet struct{ available, pending, reserved int64 }

// facts is everything the checks compare the model with.
type facts struct {
	pg       map[string]*pgRecord // by extKey(kind, integrator index, external id)
	provider []providerTxn        // nil: the sandbox keeps no ledger to compare
	events   map[eventKey]*delivery
	wallets  []wallet // by integrator index
}

// verdict is one record judged.
type verdict struct {
	scenario   int
	name       string // "withdrawal w-1 of Loja", for the problems
	kind       kind
	provider   string        // where PixGate recorded it ("" when it has no record)
	failures   int           // attempts of its create request that failed
	answer     answer        // whether it was created
	requested  time.Time     // when the load asked for it
	took       time.Duration // a charge: from the request to its last answer
	paidAt     time.Time     // a charge: when the payer paid it
	finalAt    time.Time     // when PixGate wrote its final status
	diff       int64         // PixGate's effect on the wallet minus the expected one
	duplicated int64         // paid more than once at the provider
	latency    time.Duration
	// integrator is the record's integrator (its index); postbackLag, from
	// its final status written to the first attempt of that status's
	// postback (0 when none arrived).
	integrator  int
	postbackLag time.Duration
	nonFinal    bool
	missing     int // postbacks never delivered
	problems    []string
}

var eventType = map[kind]string{chargeKind: "RECEIVEPIX", withdrawalKind: "PAYMENT", refundKind: "REFUND"}

// moneyStatus is the status that moves money at the provider.
var moneyStatus = map[string]string{"RECEIVEPIX": "PAID", "PAYMENT": "COMPLETED", "REFUND": "COMPLETED"}

// evaluate judges every record against what PixGate and the provider
// hold, and returns the problems no single record explains.
func evaluate(recs []record, ins []*integrator, f facts) ([]verdict, []string) {
	prov := map[[2]string][]providerTxn{} // across every sandbox
	for _, t := range f.provider {
		k := [2]string{t.typ, plainID(t.externalID)}
		prov[k] = append(prov[k], t)
	}
	paidAtProvider := func(typ string, pg *pgRecord) int {
		return len(moved(prov[[2]string{typ, plainID(pg.id)}], typ))
	}
	refunded := map[*record]int64{} // a charge's refunds expected to complete
	verdicts := make([]verdict, len(recs))
	expected := make([]int64, len(ins))
	matched := map[string]bool{}
	var global []string
	for i := range recs {
		r := &recs[i]
		key := extKey(r.kind, r.integrator, r.externalID)
		pg := f.pg[key]
		matched[key] = pg != nil
		v := verdict{scenario: r.scenario, kind: r.kind, failures: r.createFailures, answer: r.answer, requested: r.started, integrator: r.integrator}
		if !r.answeredAt.IsZero() {
			v.took = r.answeredAt.Sub(r.started)
		}
		in := ins[r.integrator]
		typ := eventType[r.kind]
		v.name = fmt.Sprintf("%s %s of %s", r.kind, r.externalID, in.name)
		problem := func(format string, args ...any) {
			v.problems = append(v.problems, v.name+": "+fmt.Sprintf(format, args...))
		}
		switch {
		case r.answer == created && pg == nil:
			problem("answered as created, missing from PixGate")
		case r.answer == refused && pg != nil:
			problem("refused, yet recorded (%s)", pg.status)
		}
		var exp int64
		moved := false
		switch r.kind {
		case chargeKind:
			moved = !r.paidAt.IsZero()
			if f.provider != nil && pg != nil {
				if n := paidAtProvider(typ, pg); (n > 0) != moved {
					problem("paid at the provider: %v, as the payer saw it: %v", n > 0, moved)
					moved = n > 0
				}
			}
			if moved {
				exp = r.amount - in.in.on(r.amount)
				v.paidAt = r.paidAt
			}
		default:
			if pg != nil {
				if f.provider != nil {
					moved = paidAtProvider(typ, pg) > 0
				} else {
					moved = !r.failKey
				}
			}
			if moved {
				exp = -(r.amount + in.out.on(r.amount))
				if r.kind == refundKind {
					refunded[r.charge] += r.amount
				}
			}
		}
		expected[r.integrator] += exp
		if pg != nil {
			v.provider = pg.provider
			for _, p := range elsewhere(prov[[2]string{typ, plainID(pg.id)}], typ, pg.provider) {
				problem("%s at provider %s, PixGate records it at %s", moneyStatus[typ], p, pg.provider)
			}
			v.diff = pg.effect - exp
			if n := paidAtProvider(typ, pg); n > 1 {
				v.duplicated = int64(n-1) * pg.amount
			}
			wantFee := in.in.on(r.amount)
			if r.kind != chargeKind {
				wantFee = in.out.on(r.amount)
			}
			if pg.amount != r.amount || pg.fee != wantFee {
				problem("amount %d fee %d, want %d and %d", pg.amount, pg.fee, r.amount, wantFee)
			}
			v.nonFinal = pg.status == "PENDING" || pg.status == "PROCESSING"
			if !v.nonFinal && !statusFits(r.kind, pg.status, moved) {
				problem("%s, but the money moved at the provider: %v", pg.status, moved)
			}
			start := pg.createdAt
			if r.kind == chargeKind {
				start = r.paidAt
			}
			v.finalAt = pg.finalAt
			if !start.IsZero() && !pg.finalAt.IsZero() {
				v.latency = max(pg.finalAt.Sub(start), 0)
			}
			for _, ev := range expectedEvents(r.kind, pg) {
				d := f.events[ev]
				if d == nil || !d.Delivered {
					v.missing++
				} else if !pg.finalAt.IsZero() && v.postbackLag == 0 {
					v.postbackLag = max(d.First.Sub(pg.finalAt), time.Nanosecond)
				}
			}
		}
		verdicts[i] = v
	}
	for i := range recs {
		r := &recs[i]
		pg := f.pg[extKey(r.kind, r.integrator, r.externalID)]
		if r.kind == chargeKind && pg != nil && (pg.status == "REFUNDED") != (refunded[r] == r.amount && r.amount > 0) {
			verdicts[i].problems = append(verdicts[i].problems, fmt.Sprintf("charge %s: %s, refunds completed R$ %s of R$ %s",
				r.externalID, pg.status, reais(refunded[r]), reais(r.amount)))
		}
	}
	global = append(global, unmatched(f, matched)...)
	for i, in := range ins {
		if i >= len(f.wallets) {
			break
		}
		want := wallet{available: in.credit + expected[i]}
		if got := f.wallets[i]; got != want {
			global = append(global, fmt.Sprintf("wallet of %s: available %s pending %s reserved %s, the model says %s, 0, 0",
				in.name, reais(got.available), reais(got.pending), reais(got.reserved), reais(want.available)))
		}
	}
	return verdicts, global
}

// statusFits tells whether a final status agrees with whether the money
// moved at the provider.
func statusFits(k kind, status string, moved bool) bool {
	switch k {
	case chargeKind:
		return moved == (status == "PAID" || status == "REFUNDED")
	default:
		return moved == (status == "COMPLETED")
	}
}

// expectedEvents are the postbacks a record in its final status must have
// sent (docs/postbacks.md): a charge that was paid its PAID, an expired one
// its EXPIRED, a finished transfer its status.
func expectedEvents(k kind, pg *pgRecord) []eventKey {
	typ := eventType[k]
	switch {
	case k == chargeKind && (pg.status == "PAID" || pg.status == "REFUNDED"):
		return []eventKey{{Type: typ, ID: pg.id, Status: "PAID"}}
	case k == chargeKind && pg.status == "EXPIRED":
		return []eventKey{{Type: typ, ID: pg.id, Status: "EXPIRED"}}
	case k != chargeKind && (pg.status == "COMPLETED" || pg.status == "FAILED"):
		return []eventKey{{Type: typ, ID: pg.id, Status: pg.status}}
	}
	return nil
}

// reais renders centavos as "1234.56".
func reais(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}
