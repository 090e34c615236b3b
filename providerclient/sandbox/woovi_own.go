package sandbox

import (
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Woovi's own cobr: "a partir do 4 dia vamos criar as cobranças para as
// parcelas que ainda não possuem" ([Woovi-Manual]): from 4 days before
// an installment's day, Woovi makes the cobr of one that has none, with
// autoRetry as any of its cobrs, and sends PIX_AUTOMATIC_COBR_CREATED.
// The sandbox makes it when its clock moves (dayMoved, which SetToday
// calls) and, for the days the real clock passes, before every read of
// installments and every manual cobr asked: at the latest when PixGate
// next asks. Only for a fixed subscription: Woovi does not say what value
// it asks of a variable one's.

// wooviOwnCobrDays is how many days before an installment's day Woovi
// makes its cobr itself.
const wooviOwnCobrDays = 4

// dayMoved makes the own cobrs the sandbox's new day calls for.
func (f wooviFace) dayMoved(now time.Time) { f.ownCobrs(now) }

// ownCobrs makes Woovi's own cobr of every installment due to have one
// on the sandbox's day, each notified. The core's rules still hold (an
// approved subscription, the cycle's window): what they refuse is not
// made, and a store's refusal leaves it for the next call.
func (f wooviFace) ownCobrs(now time.Time) {
	for _, sp := range f.ownCobrSpecs(now) {
		rec, created, err := f.s.createCycle(sp, now)
		if err != nil || !created {
			continue
		}
		f.s.mu.Lock()
		f.s.notifyLocked(rec, now) // PIX_AUTOMATIC_COBR_CREATED
		f.s.mu.Unlock()
	}
}

// ownCobrSpecs are the cycles of the own cobrs due on the sandbox's day:
// of each approved fixed subscription, the installments due within
// wooviOwnCobrDays days, not passed, that have no cobr, but the first of
// a PAYMENT_ON_APPROVAL one, paid by its first charge.
func (f wooviFace) ownCobrSpecs(now time.Time) []cycleSpec {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	today := f.s.todayLocked(now)
	var out []cycleSpec
	for _, sub := range f.s.order {
		if sub.kind != contract.TypeRecurrence || sub.rec == nil || sub.rec.Amount.Variable() ||
			sub.statusAt(now) != string(recurrence.RecurrenceApproved) {
			continue
		}
		for _, n := range listedInstallments(sub, today) {
			day, _ := sub.rec.Calendar.Due(n)
			id := installmentID(sub.id, n)
			if left := day.Sub(today); left < 0 || left > wooviOwnCobrDays || f.s.records[id] != nil ||
				(n == 0 && sub.rec.FirstPayment != "") { // paid by its first charge
				continue
			}
			out = append(out, cycleSpec{id: id, externalID: id, recurrence: sub.id, dueDate: day, amount: sub.rec.Amount.Fixed,
				description: sub.description, postbackURL: f.s.cfg.WebhookURL, autoRetry: true})
		}
	}
	return out
}
