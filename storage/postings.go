package storage

import (
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// Every ledger posting PixGate writes is built here, by one pure function
// named after the event it records: the money policy on one screen. Each
// returns a balanced ledger.Transaction (entries of zero left out) whose
// reference names its cause, so that the cause posts once; callers only
// write it, in the SQL transaction of the state change it records.
// docs/ledger.md's table of postings is checked against these builders
// (postings_doc_test.go): a new movement of money is one more builder here
// and one more row there.

// walletAdjusted is an operator's manual adjustment of delta (a credit
// when positive, a debit when negative) to the integrator's available
// balance, against the platform adjustments account, under the operator's
// reference.
func walletAdjusted(integrator int64, delta money.Money, reason, reference string) ledger.Transaction {
	kind := "adjustment.credit"
	if delta < 0 {
		kind = "adjustment.debit"
	}
	return posting("adjustment:"+reference, kind, reason,
		entry(ledger.Platform(ledger.Adjustments), -delta),
		entry(ledger.Of(integrator, ledger.Available), delta))
}

// chargePaid credits a paid charge: its amount arrives at its provider
// (whose float grows), the fee goes to the platform and the net to the
// integrator: recovered of it first to what the integrator owes (its
// debt; the caller reads how much under the wallet's lock), the rest to
// its available balance, or to its pending balance while the charge is
// held under a settlement hold. A split charge credits its recipients'
// parts (split) to their available balances out of the net first: the
// integrator gets, and recovers its debt from, what they leave.
func chargePaid(id uuid.UUID, integrator int64, provider string, amount, fee money.Money, held bool, recovered money.Money, split ...splitMove) ledger.Transaction {
	credited := ledger.Available
	if held {
		credited = ledger.Pending
	}
	return posting("charge:"+id.String()+":paid", "charge.paid", "",
		append([]ledger.Entry{
			entry(ledger.Float(provider), -amount),
			entry(ledger.Of(integrator, ledger.Debt), recovered),
			entry(ledger.Of(integrator, credited), amount-fee-recovered-splitTotal(split)),
			entry(ledger.Platform(ledger.Fees), fee)}, splitEntries(split, 1)...)...)
}

// chargeHoldEnded moves what a charge still holds (its net, less what its
// refunds took from pending) from the pending balance to the available one
// once its settlement hold has ended.
func chargeHoldEnded(id uuid.UUID, integrator int64, held money.Money) ledger.Transaction {
	return posting("charge:"+id.String()+":release", "charge.release", "",
		entry(ledger.Of(integrator, ledger.Pending), -held),
		entry(ledger.Of(integrator, ledger.Available), held))
}

// withdrawalCreated reserves a new withdrawal's amount + fee: from the
// available balance to the reserved one, until it settles or fails.
func withdrawalCreated(id uuid.UUID, integrator int64, amount, fee money.Money) ledger.Transaction {
	return posting(transferReference(KindWithdrawal, id, "reserve"), "withdrawal.reserve", "",
		entry(ledger.Of(integrator, ledger.Available), -(amount+fee)),
		entry(ledger.Of(integrator, ledger.Reserved), amount+fee))
}

// withdrawalBatchCreated reserves a new batch's items' amounts + fees,
// total, as one posting: from the available balance to the reserved one,
// as each item's own reservation would (each item then settles or fails on
// its own, with transferCompleted or transferFailed).
func withdrawalBatchCreated(batch uuid.UUID, integrator int64, total money.Money) ledger.Transaction {
	return posting(batchReference(batch, "reserve"), "withdrawal_batch.reserve", "",
		entry(ledger.Of(integrator, ledger.Available), -total),
		entry(ledger.Of(integrator, ledger.Reserved), total))
}

// withdrawalRejected returns the reservation of a withdrawal that was
// rejected (or whose approval expired) before it was ever sent, amount +
// fee, to the available balance. Its reference is a failure's: a
// withdrawal's reservation is released once, whatever the reason. reason
// is the memo.
func withdrawalRejected(id uuid.UUID, integrator int64, amount, fee money.Money, reason string) ledger.Transaction {
	return posting(transferReference(KindWithdrawal, id, "release"), "withdrawal.reject", reason,
		entry(ledger.Of(integrator, ledger.Reserved), -(amount+fee)),
		entry(ledger.Of(integrator, ledger.Available), amount+fee))
}

// withdrawalBatchRejected returns a rejected (or expired) batch's
// reservation, the total of its items' amounts + fees, none of which was
// sent, to the available balance, as one posting. reason is the memo.
func withdrawalBatchRejected(batch uuid.UUID, integrator int64, total money.Money, reason string) ledger.Transaction {
	return posting(batchReference(batch, "release"), "withdrawal_batch.reject", reason,
		entry(ledger.Of(integrator, ledger.Reserved), -total),
		entry(ledger.Of(integrator, ledger.Available), total))
}

// batchReference names a withdrawal batch's posting at stage "reserve"
// (created) or "release" (rejected).
func batchReference(batch uuid.UUID, stage string) string {
	return "withdrawal_batch:" + batch.String() + ":" + stage
}

// refundCreated reserves a new refund's amount + fee given held, the
// refunded charge's net still held in pending (read under the charge's
// lock). The money comes first from the pending balance, as far as that
// held net goes, and the rest from available: money a payer gets back
// never waits out the hold, and never comes out of other charges' held
// money. fromPending is the part taken from pending, which leaves the
// charge's held net and is recorded on the refund. A refund of a split
// charge takes back each recipient's part of it (split, see
// split.Reversal) from the recipient's available balance: the integrator
// pays the rest.
func refundCreated(id uuid.UUID, integrator int64, amount, fee, held money.Money, split ...splitMove) (reserve ledger.Transaction, fromPending money.Money) {
	total := amount + fee
	own := total - splitTotal(split)
	fromPending = max(min(held, own), 0)
	return posting(transferReference(KindRefund, id, "reserve"), "refund.reserve", "",
		append([]ledger.Entry{
			entry(ledger.Of(integrator, ledger.Reserved), total),
			entry(ledger.Of(integrator, ledger.Pending), -fromPending),
			entry(ledger.Of(integrator, ledger.Available), -(own - fromPending))}, splitEntries(split, -1)...)...), fromPending
}

// chargePaidByAnotherHolder credits a same-holder integrator's charge paid
// from an account whose holder is not the charge's payer: the amount
// arrives at the provider and goes straight into the reservation of the
// refund that returns it, whole (no fee on either side), so the integrator
// never holds money it may not take.
func chargePaidByAnotherHolder(id uuid.UUID, integrator int64, provider string, amount money.Money) ledger.Transaction {
	return posting("charge:"+id.String()+":paid", "charge.returned", "",
		entry(ledger.Float(provider), -amount),
		entry(ledger.Of(integrator, ledger.Reserved), amount))
}

// infractionBlocked freezes what a MED infraction disputes, as far as the
// integrator's money goes: fromPending of it from the disputed charge's net
// still held in pending, fromAvailable from the available balance (the
// caller judges both under the charge's and the wallet's locks; the rest is
// the infraction's shortfall, recorded on it).
func infractionBlocked(id uuid.UUID, integrator int64, fromPending, fromAvailable money.Money) ledger.Transaction {
	return posting("infraction:"+id.String()+":block", "infraction.block", "",
		entry(ledger.Of(integrator, ledger.Pending), -fromPending),
		entry(ledger.Of(integrator, ledger.Available), -fromAvailable),
		entry(ledger.Of(integrator, ledger.Blocked), fromPending+fromAvailable))
}

// infractionReleased gives a disagreed or cancelled infraction's blocked
// money back: toPending of it to the pending balance (what it took from a
// charge still under its settlement hold), the rest to available.
func infractionReleased(id uuid.UUID, integrator int64, blocked, toPending money.Money) ledger.Transaction {
	return posting("infraction:"+id.String()+":release", "infraction.release", "",
		entry(ledger.Of(integrator, ledger.Blocked), -blocked),
		entry(ledger.Of(integrator, ledger.Pending), toPending),
		entry(ledger.Of(integrator, ledger.Available), blocked-toPending))
}

// medReturnCreated reserves what the provider returns to the payer of an
// agreed infraction, for the MED return that sends it: what the
// infraction blocked moves from blocked to reserved, fromAvailable of the
// rest from the available balance (what arrived there since the
// infraction opened), and the rest (shortfall: the provider returns it
// all, whatever the integrator's balances held) is the integrator's debt,
// until the return completes or fails like any transfer. Of a split
// charge, each recipient gives its part of the return back (split, as far
// as its available balance goes) to the integrator's available balance, in
// the same posting, before fromAvailable is taken from it.
func medReturnCreated(id uuid.UUID, integrator int64, blocked, fromAvailable, shortfall money.Money, split ...splitMove) ledger.Transaction {
	return posting(transferReference(KindMedReturn, id, "reserve"), "med_return.reserve", "",
		append([]ledger.Entry{
			entry(ledger.Of(integrator, ledger.Blocked), -blocked),
			entry(ledger.Of(integrator, ledger.Available), splitTotal(split)-fromAvailable),
			entry(ledger.Of(integrator, ledger.Debt), -shortfall),
			entry(ledger.Of(integrator, ledger.Reserved), blocked+fromAvailable+shortfall)}, splitEntries(split, -1)...)...)
}

// transferCompleted settles a completed transfer's reservation: the
// amount leaves through the transfer's provider (whose float shrinks), the
// fee goes to the platform.
func transferCompleted(kind TransferKind, id uuid.UUID, integrator int64, provider string, amount, fee money.Money) ledger.Transaction {
	return posting(transferReference(kind, id, "settle"), string(kind)+".settle", "",
		entry(ledger.Of(integrator, ledger.Reserved), -(amount+fee)),
		entry(ledger.Float(provider), amount),
		entry(ledger.Platform(ledger.Fees), fee))
}

// transferFailed returns a failed transfer's reservation, amount + fee:
// toPending of it to the pending balance (what a refund took from a charge
// still under its hold), toDebt to the debt it had booked (what a MED
// return's shortfall is still owed: that debt is void), the rest to
// available. reason is the memo. What a refund or MED return of a split
// charge took back from its recipients (split) goes back to them.
func transferFailed(kind TransferKind, id uuid.UUID, integrator int64, amount, fee, toPending, toDebt money.Money, reason string, split ...splitMove) ledger.Transaction {
	return posting(transferReference(kind, id, "release"), string(kind)+".release", reason,
		append([]ledger.Entry{
			entry(ledger.Of(integrator, ledger.Reserved), -(amount + fee)),
			entry(ledger.Of(integrator, ledger.Pending), toPending),
			entry(ledger.Of(integrator, ledger.Debt), toDebt),
			entry(ledger.Of(integrator, ledger.Available), amount+fee-toPending-toDebt-splitTotal(split))}, splitEntries(split, 1)...)...)
}

// reconciliationAdjusted books what an operator decided a reconciliation
// exception moved at the provider that PixGate's records do not show:
// delta (positive: the provider holds that much more than PixGate's
// records made it expect; negative: less) onto the provider's float,
// against the platform adjustments account, under the exception's id.
func reconciliationAdjusted(item uuid.UUID, provider string, delta money.Money, reason string) ledger.Transaction {
	return posting("reconciliation:"+item.String()+":adjust", "float.reconcile", reason,
		entry(ledger.Float(provider), -delta),
		entry(ledger.Platform(ledger.Adjustments), delta))
}

// floatAdjusted books an operator's correction of what PixGate expects a
// provider to hold: delta (positive: the provider holds that much more than
// the records made PixGate expect, such as the money its account held
// before PixGate's first transaction; negative: less, such as a tariff
// charged outside any transaction) onto the provider's float, against the
// platform adjustments account, under the operator's reference.
func floatAdjusted(provider string, delta money.Money, reason, reference string) ledger.Transaction {
	return posting("float:"+provider+":"+reference, "float.adjust", reason,
		entry(ledger.Float(provider), -delta),
		entry(ledger.Platform(ledger.Adjustments), delta))
}

// TransferPosting is the reference of a transfer's final posting: its
// settlement when completed, the release of its reservation when failed.
func TransferPosting(kind TransferKind, id uuid.UUID, completed bool) string {
	if completed {
		return transferReference(kind, id, "settle")
	}
	return transferReference(kind, id, "release")
}

// transferReference names a transfer's posting at stage "reserve"
// (created), "settle" (completed) or "release" (failed).
func transferReference(kind TransferKind, id uuid.UUID, stage string) string {
	return string(kind) + ":" + id.String() + ":" + stage
}

// posting is a transaction of the entries that move money: an entry of
// zero is left out (a zero fee posts two entries, not three).
func posting(reference, kind, memo string, entries ...ledger.Entry) ledger.Transaction {
	moving := make([]ledger.Entry, 0, len(entries))
	for _, e := range entries {
		if e.Amount != 0 {
			moving = append(moving, e)
		}
	}
	return ledger.Transaction{Reference: reference, Kind: kind, Memo: memo, Entries: moving}
}

// splitMove is what a split charge moves to (paid) or from (refunded,
// returned) one recipient's available balance.
type splitMove struct {
	recipient int64
	amount    money.Money
}

func splitTotal(split []splitMove) (total money.Money) {
	for _, m := range split {
		total += m.amount
	}
	return total
}

// splitEntries are the recipients' entries of a posting: sign +1 credits
// their available balances, -1 debits them.
func splitEntries(split []splitMove, sign money.Money) []ledger.Entry {
	out := make([]ledger.Entry, len(split))
	for i, m := range split {
		out[i] = entry(ledger.Of(m.recipient, ledger.Available), sign*m.amount)
	}
	return out
}

func entry(a ledger.Account, amount money.Money) ledger.Entry {
	return ledger.Entry{Account: a, Amount: amount}
}
