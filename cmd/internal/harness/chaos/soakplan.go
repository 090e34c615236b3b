package chaos

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// The randomized run (-soak) follows a plan drawn from one seed before it
// starts: every operation (what, for whom, how much, when, and what the
// payer, the provider's MED desk or the harness does with it afterwards),
// every fault (which, on which provider or process, when, for how long)
// and every change of an integrator's routes. The same seed, operation
// count and rate draw the same plan; what the machine's timing makes of it
// (which answer a fault meets, which provider a failover lands on) is not
// replayed.

// soakProvider is one provider of the randomized run: the name PixGate
// knows it by and the contract its sandbox speaks.
type soakProvider struct{ name, contract string }

// soakProviders are the randomized run's providers, by the index plans use.
var soakProviders = []soakProvider{{"default", "family"}, {secondProvider, "efi"}, {thirdProvider, "woovi"}}

// opKind is what a planned operation does.
type opKind uint8

const (
	opCharge     opKind = iota // a charge, paid by its payer or left to expire
	opWithdrawal               // a withdrawal to a key
	opSweep                    // the lean integrator withdraws all it has
	opRefund                   // part or all of a paid charge back to its payer
	opInfraction               // a MED infraction on a paid charge, closed later
	opLookup                   // one record read back
	opBalance                  // a balance read
	numOpKinds
)

var opNames = [numOpKinds]string{"charge", "withdrawal", "sweep", "refund", "infraction", "lookup", "balance"}

func (k opKind) String() string { return opNames[k] }

// keyKind is what a withdrawal's key does at the sandboxes.
type keyKind uint8

const (
	keyGood    keyKind = iota // paid
	keyFailing                // accepted, then FAILED (fail_keys)
	keyRefused                // refused at once: not in the sandbox's key directory
)

// Infraction results as the sandbox closes them.
const (
	resultAgreed    = "AGREED"
	resultDisagreed = "DISAGREED"
	resultCancelled = "CANCELLED"
)

// planOp is one planned operation.
type planOp struct {
	At         time.Duration // from the start of the load
	Kind       opKind
	Integrator int  // index among the run's integrators (refunds, infractions: the target's)
	V2         bool // through v2 (else v1)
	Amount     int64
	Key        keyKind // withdrawals
	KeyN       int     // withdrawals: which of the keys of its kind
	// Pay: a charge's payer pays it Delay after it was issued; without,
	// the charge expires after Expiration seconds. An infraction is closed
	// with Result Delay after it was opened (0: at the end of the run).
	Pay        bool
	Delay      time.Duration
	Expiration int
	Result     string
	Target     int // refunds, infractions, lookups: the op whose record they concern; -1: none
}

// faultKind is one kind of planned fault.
type faultKind uint8

const (
	faultLostAnswers            faultKind = iota // creates done, answers never sent (timeout_rate on the create routes)
	faultSlow                                    // every call answered late, beyond the read timeout (latency_ms)
	faultErrors                                  // a share of calls answered 5xx, nothing done (error_rate)
	faultOutage                                  // every call 503 (outage)
	faultReadsFailing                            // reads answered 5xx (error_rate on the read routes)
	faultDropNotifications                       // notifications never sent
	faultDuplicateNotifications                  // each notification sent several times
	faultReorderNotifications                    // copies shuffled, a stale one after the final one
	faultKillAPI                                 // an API process killed, started again at the end
	faultKillWorker                              // a worker process killed, started again at the end
	faultRestartSandbox                          // a sandbox process killed, started again (its store survives)
	numFaultKinds
)

var faultNames = [numFaultKinds]string{
	"answers lost after the work was done", "calls answered late", "calls failing 5xx", "provider down",
	"reads failing 5xx", "notifications dropped", "notifications duplicated", "notifications reordered",
	"API killed", "worker killed", "sandbox killed and restarted",
}

func (k faultKind) String() string { return faultNames[k] }

// onProvider tells whether a fault is set on a provider (else on a
// PixGate process).
func (k faultKind) onProvider() bool { return k != faultKillAPI && k != faultKillWorker }

// planFault is one planned fault.
type planFault struct {
	At, For time.Duration
	Kind    faultKind
	Target  int // a provider's index, or the API's or worker's
	Rate    float64
	Latency time.Duration
	Copies  int
}

// plan is everything a randomized run does, drawn from its seed.
type plan struct {
	Seed     uint64
	Rate     float64
	Duration time.Duration // of the load
	Ops      []planOp
	Faults   []planFault
	Routes   []planRoute // the first len(integrators) set every integrator's at the start
}

// planShape is what a plan is drawn for.
type planShape struct {
	ops         int
	rate        float64
	integrators int
	lean        int // the integrator whose withdrawals are sweeps, -1: none
}

// The operations' mix, in parts of 1000.
var soakMix = []weighted[opKind]{
	{opCharge, 340}, {opWithdrawal, 260}, {opRefund, 100}, {opInfraction, 15}, {opLookup, 185}, {opBalance, 100},
}

// The faults' mix, in parts of 100.
var faultMix = []weighted[faultKind]{
	{faultLostAnswers, 14}, {faultSlow, 8}, {faultErrors, 12}, {faultOutage, 10}, {faultReadsFailing, 10},
	{faultDropNotifications, 8}, {faultDuplicateNotifications, 6}, {faultReorderNotifications, 6},
	{faultKillAPI, 8}, {faultKillWorker, 10}, {faultRestartSandbox, 8},
}

// How the sandboxes' MED desk closes the infractions, in parts of 10.
var infractionResults = []weighted[string]{{resultAgreed, 5}, {resultDisagreed, 3}, {resultCancelled, 2}}

const (
	faultWarmUp      = 20 * time.Second // load before the first fault
	refundMinAge     = 5 * time.Second  // a refund comes at least this long after its charge's payment
	infractionAge    = 10 * time.Second // an infraction, at least this long after
	recentOps        = 3000             // how far back targets are drawn from
	refundsPerCharge = 2
)

// newPlan draws the plan of seed.
func newPlan(seed uint64, sh planShape) plan {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	p := plan{Seed: seed, Rate: sh.rate, Duration: time.Duration(float64(sh.ops) / sh.rate * float64(time.Second))}
	p.Ops = drawOps(rng, sh)
	p.Faults = drawFaults(rng, p.Duration)
	p.Routes = drawRoutes(rng, p.Duration, sh.integrators)
	return p
}

// weighted is one choice of a mix and its weight.
type weighted[T any] struct {
	v      T
	weight int
}

// pick draws one of mix by weight.
func pick[T any](rng *rand.Rand, mix []weighted[T]) T {
	total := 0
	for _, m := range mix {
		total += m.weight
	}
	n := rng.IntN(total)
	for _, m := range mix {
		if n < m.weight {
			return m.v
		}
		n -= m.weight
	}
	return mix[len(mix)-1].v
}

func between(rng *rand.Rand, lo, hi time.Duration) time.Duration {
	return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
}

func drawOps(rng *rand.Rand, sh planShape) []planOp {
	ops := make([]planOp, sh.ops)
	var (
		refunds     = map[int]int{}
		infractions = map[int]bool{}
	)
	for i := range ops {
		at := time.Duration(float64(i) / sh.rate * float64(time.Second))
		op := planOp{At: at, Kind: pick(rng, soakMix), Integrator: rng.IntN(sh.integrators), V2: rng.IntN(2) == 1, Target: -1}
		switch op.Kind {
		case opCharge:
			op.Amount = 500 + rng.Int64N(29_500)
			switch n := rng.IntN(100); {
			case n < 70:
				op.Pay, op.Delay = true, between(rng, 200*time.Millisecond, 3*time.Second)
			case n < 90:
				op.Pay, op.Delay = true, between(rng, 3*time.Second, 40*time.Second)
			default:
				op.Expiration = 60 + rng.IntN(61)
			}
		case opWithdrawal:
			if op.Integrator == sh.lean {
				op.Kind = opSweep
				break
			}
			op.Amount = 100 + rng.Int64N(7_900)
			switch n := rng.IntN(10); {
			case n == 0:
				op.Key = keyFailing
			case n == 1:
				op.Key = keyRefused
				op.KeyN = rng.IntN(5)
			default:
				op.KeyN = rng.IntN(50)
			}
		case opRefund:
			c := drawCharge(rng, ops, i, at, -1, refundMinAge, func(j int) bool { return refunds[j] < refundsPerCharge })
			if c < 0 {
				op.Kind = opBalance
				break
			}
			refunds[c]++
			op.Target, op.Integrator = c, ops[c].Integrator
			op.Amount = ops[c].Amount
			if rng.IntN(5) != 0 {
				op.Amount = 1 + rng.Int64N(max(ops[c].Amount/2, 1))
			}
		case opInfraction:
			prefer := -1
			if rng.IntN(5) < 2 {
				prefer = sh.lean // its money has mostly left: a shortfall
			}
			c := drawCharge(rng, ops, i, at, prefer, infractionAge, func(j int) bool { return !infractions[j] })
			if c < 0 {
				op.Kind = opBalance
				break
			}
			infractions[c] = true
			op.Target, op.Integrator = c, ops[c].Integrator
			if rng.IntN(2) == 0 {
				op.Amount = 1 + rng.Int64N(ops[c].Amount)
			} // else 0: all the charge has not given back
			switch n := rng.IntN(10); {
			case n < 6:
				op.Delay = between(rng, 5*time.Second, time.Minute)
			case n < 9:
				op.Delay = between(rng, time.Minute, 3*time.Minute)
			} // else left open until the end
			op.Result = pick(rng, infractionResults)
		case opLookup:
			for range 8 {
				j := i - 1 - rng.IntN(min(i, 500)+1)
				if j >= 0 && (ops[j].Kind == opCharge || ops[j].Kind == opWithdrawal || ops[j].Kind == opRefund || ops[j].Kind == opSweep) {
					op.Target, op.Integrator = j, ops[j].Integrator
					break
				}
			}
			if op.Target < 0 {
				op.Kind = opBalance
			}
		}
		ops[i] = op
	}
	return ops
}

// drawCharge draws a charge among the recent ops before op i, which
// starts at at, whose payer pays it at least age before and which ok
// accepts; prefer (when not -1) is the integrator tried first. -1 when
// there is none.
func drawCharge(rng *rand.Rand, ops []planOp, i int, at time.Duration, prefer int, age time.Duration, ok func(int) bool) int {
	var cands, preferred []int
	for j := i - 1; j >= 0 && j >= i-recentOps; j-- {
		c := ops[j]
		if c.Kind != opCharge || !c.Pay || c.At+c.Delay+age > at || !ok(j) {
			continue
		}
		cands = append(cands, j)
		if c.Integrator == prefer {
			preferred = append(preferred, j)
		}
	}
	if len(preferred) > 0 {
		return preferred[rng.IntN(len(preferred))]
	}
	if len(cands) == 0 {
		return -1
	}
	return cands[rng.IntN(len(cands))]
}

// drawFaults lays faults one after another over the load, after a warm-up,
// each after a quiet gap, the last ending before the load does.
func drawFaults(rng *rand.Rand, d time.Duration) []planFault {
	var out []planFault
	at := faultWarmUp
	for {
		at += between(rng, 5*time.Second, 30*time.Second)
		f := planFault{At: at, For: between(rng, 3*time.Second, 30*time.Second)}
		f.Kind = pick(rng, faultMix)
		switch f.Kind {
		case faultKillAPI, faultKillWorker:
			f.Target = rng.IntN(2)
		default:
			f.Target = rng.IntN(len(soakProviders))
		}
		switch f.Kind {
		case faultLostAnswers:
			f.Rate = 0.2 + 0.6*rng.Float64()
		case faultErrors:
			f.Rate = 0.3 + 0.6*rng.Float64()
		case faultReadsFailing:
			f.Rate = 0.5 + 0.5*rng.Float64()
		case faultSlow:
			f.Latency = between(rng, 4*time.Second, 12*time.Second).Round(time.Millisecond)
		case faultDuplicateNotifications:
			f.Copies = 2 + rng.IntN(3)
		case faultReorderNotifications:
			f.Copies = 2 + rng.IntN(2)
		}
		f.Rate = float64(int(f.Rate*100)) / 100
		if f.At+f.For > d-10*time.Second {
			return out
		}
		out = append(out, f)
		at += f.For
	}
}

// counts sums a plan for the report: operations by kind and faults by kind
// with their total duration.
func (p plan) counts() (ops [numOpKinds]int, faults [numFaultKinds]int, held [numFaultKinds]time.Duration) {
	for _, o := range p.Ops {
		ops[o.Kind]++
	}
	for _, f := range p.Faults {
		faults[f.Kind]++
		held[f.Kind] += f.For
	}
	return ops, faults, held
}

// String names a fault as the report and the log do.
func (f planFault) String() string {
	var on string
	switch f.Kind {
	case faultKillAPI:
		on = fmt.Sprintf("api-%d", f.Target+1)
	case faultKillWorker:
		on = fmt.Sprintf("worker-%d", f.Target+1)
	default:
		on = "provider " + soakProviders[f.Target].name
	}
	s := f.Kind.String() + " on " + on
	switch {
	case f.Rate > 0:
		s += fmt.Sprintf(" (%.0f%%)", 100*f.Rate)
	case f.Latency > 0:
		s += fmt.Sprintf(" (%s)", seconds(f.Latency))
	case f.Copies > 0:
		s += fmt.Sprintf(" (%d copies)", f.Copies)
	}
	return s + " for " + seconds(f.For)
}
