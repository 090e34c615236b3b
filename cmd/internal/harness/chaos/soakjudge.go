package chaos

import (
	"sort"
)

// The checker's judgements of one record, one wallet, one provider at a
// time, against what the sandboxes' ledgers say happened.

// totals adds a sandbox transaction to its provider's totals.
func totals(pt *providerTotals, t *sbTxn) {
	switch t.typ {
	case "RECEIVEPIX":
		if t.status == "PAID" {
			pt.chargesPaid++
			pt.paidIn += t.amount
		} else {
			pt.chargesUnpaid++
		}
	case "PAYMENT", "REFUND":
		n, failed := &pt.payouts, &pt.payoutsFailed
		if t.typ == "REFUND" {
			n, failed = &pt.refunds, &pt.refundsFailed
		}
		*n++
		switch t.status {
		case "COMPLETED":
			pt.paidOut += t.amount
		case "FAILED":
			*failed++
		}
	case "MED_RETURN":
		pt.medReturns++
		if t.status == "COMPLETED" {
			pt.returned += t.amount
		}
	case "INFRACTION":
		pt.infractions[t.status]++
	}
}

// judgeCharge judges a charge against its transactions at the sandboxes
// and returns what it must have moved on its integrator's wallet.
func judgeCharge(res *checkResult, r *pgRec, name string, ts []*sbTxn, ig checkIntegrator) int64 {
	var here *sbTxn
	for _, t := range ts {
		switch {
		case t.status != "PAID":
		case t.provider != r.provider:
			res.add(findLost, t.amount, "%s was paid at %s, PixGate records it at %s", name, t.provider, r.provider)
		default:
			here = t
		}
	}
	credited := r.status == "PAID" || r.status == "REFUNDED"
	if r.status == "PENDING" {
		res.add(findNotFinal, 0, "%s is still PENDING", name)
	}
	if here == nil {
		if credited {
			res.add(findCreated, r.amount, "%s is %s at PixGate, no sandbox was paid", name, r.status)
		}
		return 0
	}
	if here.amount != r.amount {
		res.add(findLost, 0, "%s: paid R$ %s at %s, PixGate's amount is R$ %s", name, reais(here.amount), here.provider, reais(r.amount))
	}
	if !credited {
		res.add(findLost, here.amount, "%s was paid at %s, PixGate has it %s", name, here.provider, r.status)
	}
	return here.amount - ig.in.on(here.amount)
}

// judgeTransfer judges a withdrawal, refund or MED return against its
// transactions at the sandboxes and returns what it must have moved on its
// integrator's wallet.
func judgeTransfer(res *checkResult, r *pgRec, name string, ts []*sbTxn, ig checkIntegrator) int64 {
	var done []*sbTxn
	for _, t := range ts {
		if t.status == "COMPLETED" {
			done = append(done, t)
		}
	}
	if r.status == "PROCESSING" {
		res.add(findNotFinal, 0, "%s is still PROCESSING", name)
	}
	if len(done) == 0 {
		if r.status == "COMPLETED" {
			res.add(findCreated, r.amount, "%s is COMPLETED at PixGate, no sandbox completed it", name)
		}
		return 0
	}
	if len(done) > 1 {
		var at []string
		for _, t := range done {
			at = append(at, t.provider)
		}
		res.add(findPaidTwice, int64(len(done)-1)*done[0].amount, "%s was completed %d times (at %v)", name, len(done), at)
	}
	t := done[0]
	for _, d := range done {
		if d.provider == r.provider {
			t = d
		}
	}
	switch {
	case r.status == "FAILED":
		res.add(findFailedPaid, t.amount, "%s is FAILED at PixGate, %s completed it (R$ %s)", name, t.provider, reais(t.amount))
	case r.status != "COMPLETED":
		res.add(findLost, t.amount, "%s was completed at %s, PixGate has it %s", name, t.provider, r.status)
	}
	if t.provider != r.provider {
		res.add(findLost, 0, "%s was completed at %s, PixGate records it at %s", name, t.provider, r.provider)
	}
	if t.amount != r.amount {
		res.add(findLost, 0, "%s: R$ %s completed at %s, PixGate's amount is R$ %s", name, reais(t.amount), t.provider, reais(r.amount))
	}
	if r.kind == "med_return" {
		return -t.amount // no fee
	}
	return -(t.amount + ig.out.on(t.amount))
}

// judgeInfraction compares an infraction with the sandbox's.
func judgeInfraction(res *checkResult, r *pgRec, name string, ts []*sbTxn) {
	if r.status == "OPEN" {
		res.add(findNotFinal, 0, "%s is still OPEN", name)
	}
	if len(ts) == 0 {
		res.add(findCreated, 0, "%s (%s) is at no sandbox", name, r.status)
		return
	}
	t := ts[0]
	if t.status != r.status || t.amount != r.amount {
		res.add(findLost, 0, "%s is %s of R$ %s at %s, PixGate has it %s of R$ %s", name, t.status, reais(t.amount), t.provider,
			r.status, reais(r.amount))
	}
}

// judgeAsked checks that a record is one the harness asked for, with the
// amount it asked and the fee its integrator's rule makes.
func judgeAsked(res *checkResult, r *pgRec, name string, asked map[askKey]askedRec, ig checkIntegrator) {
	a, ok := asked[askKey{kind(r.kind), r.integrator, r.externalID}]
	want := ig.out.on(r.amount)
	if r.kind == "charge" {
		want = ig.in.on(r.amount)
	}
	switch {
	case !ok:
		res.add(findNotAsked, 0, "%s (external_id %q, %s) was never asked for", name, r.externalID, r.status)
	case a.amount != r.amount:
		res.add(findNotAsked, 0, "%s: R$ %s asked for, PixGate has R$ %s", name, reais(a.amount), reais(r.amount))
	case r.fee != want:
		res.add(findNotAsked, 0, "%s: fee R$ %s, the integrator's rule makes R$ %s", name, reais(r.fee), reais(want))
	}
}

// judgeWallets compares each integrator's wallet with what the sandboxes'
// ledgers imply: its credit, plus the net of every charge paid, less every
// withdrawal and refund completed with its fee and every MED return
// completed. After the drain nothing may be pending, reserved or blocked,
// and the debt can be no more than the MED returns took.
func judgeWallets(res *checkResult, in checkInput, implied, medReturned []int64) {
	for i, ig := range in.integrators {
		if i >= len(in.wallets) {
			res.add(findWallet, 0, "the wallet of %s was not read", ig.name)
			continue
		}
		w := in.wallets[i]
		res.wallets = append(res.wallets, walletLine{name: ig.name, implied: implied[i], got: w})
		net := w.available + w.pending + w.reserved + w.blocked - w.debt
		if net != implied[i] {
			res.add(findWallet, abs(net-implied[i]), "%s: available %s + pending %s + reserved %s + blocked %s − debt %s = R$ %s, the sandboxes imply R$ %s",
				ig.name, reais(w.available), reais(w.pending), reais(w.reserved), reais(w.blocked), reais(w.debt), reais(net), reais(implied[i]))
		}
		if w.pending != 0 || w.reserved != 0 || w.blocked != 0 {
			res.add(findWallet, 0, "%s: pending %s, reserved %s, blocked %s after the drain, want 0", ig.name, reais(w.pending), reais(w.reserved), reais(w.blocked))
		}
		if w.debt < 0 || w.debt > medReturned[i] {
			res.add(findWallet, 0, "%s: debt R$ %s, its MED returns took R$ %s", ig.name, reais(w.debt), reais(medReturned[i]))
		}
	}
}

// judgeProviderFloats compares, for each provider, what its sandbox's
// ledger moved (charges paid in, payouts, refunds and MED returns
// completed out) with how its balance moved and how PixGate's float
// account for it moved.
func judgeProviderFloats(res *checkResult, in checkInput) {
	names := make([]string, 0, len(in.end))
	for name := range in.end {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		end, start := in.end[name], in.start[name]
		pt := res.providers[name]
		if pt == nil {
			pt = &providerTotals{infractions: map[string]int{}}
			res.providers[name] = pt
		}
		if !end.readable || !start.readable {
			res.add(findFloat, 0, "provider %s: its balance could not be read (%s%s)", name, start.err, end.err)
			continue
		}
		pt.balanceStart, pt.balanceEnd = start.reported, end.reported
		pt.moved = pt.paidIn - pt.paidOut - pt.returned
		pt.floatStart, pt.floatEnd = start.float, in.floats[name]
		pt.floatMoved = pt.floatEnd - pt.floatStart
		if d := end.reported - start.reported; d != pt.moved {
			res.add(findFloat, abs(d-pt.moved), "provider %s: its balance moved R$ %s, its ledger R$ %s", name, reais(d), reais(pt.moved))
		}
		if pt.floatMoved != pt.moved {
			res.add(findFloat, abs(pt.floatMoved-pt.moved), "provider %s: PixGate's float moved R$ %s, the sandbox's ledger R$ %s", name,
				reais(pt.floatMoved), reais(pt.moved))
		}
		if held := start.reported - start.float; end.reported-held != pt.floatEnd {
			res.add(findFloat, abs(end.reported-held-pt.floatEnd), "provider %s: balance R$ %s less R$ %s held before the run is not the float R$ %s",
				name, reais(end.reported), reais(held), reais(pt.floatEnd))
		}
	}
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func orID(r *pgRec) string {
	if r.externalID != "" {
		return r.externalID
	}
	return r.id
}
