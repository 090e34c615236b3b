package chaos

import (
	"fmt"
	"sort"
)

// The randomized run's checker trusts neither the harness's model nor
// PixGate's ledger alone. It takes every sandbox's ledger (what each
// provider holds and did, MED returns and infractions included) as what
// happened, follows each transaction to PixGate's record by the ids the
// contracts carry, and judges PixGate's records, its postings and its
// balances against that. Fees are computed from the integrators' rules as
// docs/ledger.md states them, amounts come from the sandboxes.

// sbTxn is one transaction of a sandbox's ledger.
type sbTxn struct {
	provider   string
	typ        string // RECEIVEPIX, PAYMENT, REFUND, MED_RETURN, INFRACTION
	id         string // the sandbox's transactionId
	externalID string // PixGate's id of it, as its contract carries it (charges, payments, refunds)
	pixID      string // a refund's, MED return's or infraction's charge: the sandbox's id of it
	status     string
	amount     int64
}

// pgRec is one of PixGate's records after the drain.
type pgRec struct {
	kind       string // charge, withdrawal, refund, med_return, infraction
	id         string
	integrator int // index among the run's integrators
	externalID string
	provider   string
	providerID string // a MED return's pix_id, an infraction's provider_id
	status     string
	amount     int64
	fee        int64
	effect     int64 // the sum of its postings on its integrator's accounts
}

// soakWallet is an integrator's balances after the drain, as pixgate
// wallet show reads them; debt is what it owes (positive).
type soakWallet struct{ available, pending, reserved, blocked, debt int64 }

// askKey names what the harness asked for: a kind, an integrator's index
// and an external_id.
type askKey struct {
	kind       kind
	integrator int
	externalID string
}

// askedRec is what the harness asked PixGate for and whether PixGate
// answered it as created.
type askedRec struct {
	amount  int64
	created bool
}

// checkIntegrator is one integrator as the checker needs it.
type checkIntegrator struct {
	name    string
	credit  int64
	in, out fee
}

// checkInput is everything the checker compares.
type checkInput struct {
	integrators []checkIntegrator
	asked       map[askKey]askedRec
	sandbox     []sbTxn
	records     []pgRec
	wallets     []soakWallet            // by integrator index
	start, end  map[string]floatReading // pixgate provider balance before the load and after the drain
	floats      map[string]int64        // each provider's float account, from PixGate's ledger after the drain
	stray       map[string]int64        // postings on integrators' accounts whose reference names no record
}

// findingKind is one thing the checker looks for; every count must be 0.
type findingKind int

const (
	findPaidTwice  findingKind = iota // a withdrawal, refund or MED return completed more than once across the sandboxes
	findLost                          // a sandbox transaction of PixGate's its records do not reflect
	findCreated                       // PixGate completed or credited what no sandbox holds
	findFailedPaid                    // PixGate FAILED, a sandbox completed it
	findFloat                         // a provider's float is not its balance less what it held at the start
	findWallet                        // an integrator's wallet is not what the sandboxes' ledgers imply
	findNotFinal                      // still moving after the drain
	findNotAsked                      // a record the harness never asked for, or not as asked
	numFindings
)

var findingNames = [numFindings]string{
	"paid twice", "lost", "created", "FAILED but paid", "float ≠ balance", "wallet ≠ the sandboxes' ledgers",
	"not final", "not as asked",
}

func (k findingKind) String() string { return findingNames[k] }

// providerTotals are what one sandbox's ledger holds, for the report.
type providerTotals struct {
	txns                             int
	chargesPaid, chargesUnpaid       int
	paidIn                           int64
	payouts, payoutsFailed           int
	refunds, refundsFailed           int
	medReturns                       int
	paidOut, returned                int64 // payouts and refunds completed; MED returns completed
	infractions                      map[string]int
	balanceStart, balanceEnd, moved  int64
	floatStart, floatEnd, floatMoved int64
}

// walletLine is one integrator's wallet against what the sandboxes imply.
type walletLine struct {
	name    string
	implied int64
	got     soakWallet
}

// checkResult is the checker's verdict and the totals it compared.
type checkResult struct {
	found     [numFindings][]string
	money     [numFindings]int64 // centavos, where the finding is about money
	providers map[string]*providerTotals
	records   map[string]int // PixGate's records by kind
	wallets   []walletLine
}

func (r checkResult) clean() bool { return r.count() == 0 }

// count is how many findings there are.
func (r *checkResult) count() int {
	n := 0
	for _, f := range r.found {
		n += len(f)
	}
	return n
}

func (r *checkResult) add(k findingKind, centavos int64, format string, args ...any) {
	r.found[k] = append(r.found[k], fmt.Sprintf(format, args...))
	r.money[k] += centavos
}

// sandboxKind is the kind of PixGate record a sandbox transaction type
// is.
var sandboxKind = map[string]string{"RECEIVEPIX": "charge", "PAYMENT": "withdrawal", "REFUND": "refund", "MED_RETURN": "med_return", "INFRACTION": "infraction"}

// check judges a drained run.
func check(in checkInput) checkResult {
	res := checkResult{providers: map[string]*providerTotals{}, records: map[string]int{}}
	byID := map[string]*pgRec{}       // charges, withdrawals, refunds by kind:plain id
	byProvider := map[string]*pgRec{} // MED returns, infractions by kind:provider:provider id
	for i := range in.records {
		r := &in.records[i]
		res.records[r.kind]++
		switch r.kind {
		case "med_return", "infraction":
			byProvider[r.kind+":"+r.provider+":"+r.providerID] = r
		default:
			byID[r.kind+":"+plainID(r.id)] = r
		}
	}
	sbCharges := map[string]*sbTxn{} // provider:the sandbox's id
	for i := range in.sandbox {
		if t := &in.sandbox[i]; t.typ == "RECEIVEPIX" {
			sbCharges[t.provider+":"+t.id] = t
		}
	}
	// chargeOf is the PixGate charge of a sandbox's charge.
	chargeOf := func(provider, sbID string) *pgRec {
		if t := sbCharges[provider+":"+sbID]; t != nil {
			return byID["charge:"+plainID(t.externalID)]
		}
		return nil
	}
	moves := map[*pgRec][]*sbTxn{}
	returned := map[*pgRec]int64{} // what the sandboxes gave a charge's payer back
	for i := range in.sandbox {
		t := &in.sandbox[i]
		pt := res.providers[t.provider]
		if pt == nil {
			pt = &providerTotals{infractions: map[string]int{}}
			res.providers[t.provider] = pt
		}
		pt.txns++
		k := sandboxKind[t.typ]
		var r *pgRec
		switch t.typ {
		case "RECEIVEPIX", "PAYMENT", "REFUND":
			r = byID[k+":"+plainID(t.externalID)]
		case "MED_RETURN", "INFRACTION":
			r = byProvider[k+":"+t.provider+":"+t.id]
		}
		totals(pt, t)
		if (t.typ == "REFUND" || t.typ == "MED_RETURN") && t.status == "COMPLETED" {
			if c := chargeOf(t.provider, t.pixID); c != nil {
				returned[c] += t.amount
			}
		}
		if r == nil {
			switch {
			case t.typ == "INFRACTION":
				res.add(findLost, 0, "infraction %s at %s (%s, R$ %s) is unknown to PixGate", t.id, t.provider, t.status, reais(t.amount))
			case t.typ == "RECEIVEPIX" && t.status == "PAID", t.typ != "RECEIVEPIX" && t.status != "FAILED":
				res.add(findLost, t.amount, "%s %s at %s (%s, R$ %s) is no record of PixGate's", t.typ, t.id, t.provider, t.status, reais(t.amount))
			}
			continue
		}
		moves[r] = append(moves[r], t)
		if t.typ == "REFUND" || t.typ == "MED_RETURN" || t.typ == "INFRACTION" {
			// What disputes or returns a charge's money is its integrator's.
			if c := chargeOf(t.provider, t.pixID); c == nil || c.integrator != r.integrator {
				res.add(findLost, 0, "%s %s at %s is of a charge (%s) that is not its integrator's at PixGate", t.typ, t.id, t.provider, t.pixID)
			}
		}
		if t.status == "PROCESSING" || t.status == "OPEN" {
			res.add(findNotFinal, 0, "%s %s at %s is still %s", t.typ, t.id, t.provider, t.status)
		}
	}
	implied := make([]int64, len(in.integrators))
	medReturned := make([]int64, len(in.integrators))
	for i, ig := range in.integrators {
		implied[i] = ig.credit
	}
	for i := range in.records {
		r := &in.records[i]
		if r.integrator < 0 || r.integrator >= len(in.integrators) {
			res.add(findNotAsked, 0, "%s %s of an integrator the run did not make", r.kind, r.id)
			continue
		}
		ig := in.integrators[r.integrator]
		name := fmt.Sprintf("%s %s of %s", r.kind, orID(r), ig.name)
		var exp int64
		before := res.count()
		switch r.kind {
		case "charge":
			exp = judgeCharge(&res, r, name, moves[r], ig)
			if exp != 0 {
				implied[r.integrator] += exp
				ret := returned[r]
				if paid := r.amount; (ret >= paid) != (r.status == "REFUNDED") {
					res.add(findLost, 0, "%s is %s, its sandbox gave R$ %s of R$ %s back", name, r.status, reais(ret), reais(paid))
				}
			}
		case "withdrawal", "refund", "med_return":
			exp = judgeTransfer(&res, r, name, moves[r], ig)
			implied[r.integrator] += exp
			if r.kind == "med_return" {
				medReturned[r.integrator] -= exp
			}
		case "infraction":
			judgeInfraction(&res, r, name, moves[r])
		}
		// The postings' money counts unless a finding above counted it.
		d := r.effect - exp
		counted := abs(d)
		if res.count() > before {
			counted = 0
		}
		switch {
		case d < 0:
			res.add(findLost, counted, "%s: its postings move R$ %s on the wallet, the sandboxes imply R$ %s", name, reais(r.effect), reais(exp))
		case d > 0:
			res.add(findCreated, counted, "%s: its postings move R$ %s on the wallet, the sandboxes imply R$ %s", name, reais(r.effect), reais(exp))
		}
		if r.kind == "charge" || r.kind == "withdrawal" || r.kind == "refund" {
			judgeAsked(&res, r, name, in.asked, ig)
		}
	}
	have := map[askKey]bool{}
	for _, r := range in.records {
		have[askKey{kind(r.kind), r.integrator, r.externalID}] = true
	}
	for key, a := range in.asked {
		if a.created && !have[key] {
			res.add(findLost, 0, "%s %s of %s was answered as created and PixGate has no record of it", key.kind, key.externalID,
				in.integrators[key.integrator].name)
		}
	}
	for ref, sum := range in.stray {
		res.add(findCreated, abs(sum), "postings of %s move R$ %s on a wallet, and no record is %s", ref, reais(sum), ref)
	}
	judgeWallets(&res, in, implied, medReturned)
	judgeProviderFloats(&res, in)
	for k := range res.found {
		sort.Strings(res.found[k])
	}
	return res
}
