package chaos

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// The operations of the plan that move no money by themselves: MED
// infractions opened and closed at the provider, lookups, balances.

// infraction opens a MED infraction on a paid charge at its provider and
// closes it as the plan says (or leaves it to the end of the run).
func (l *soakLoad) infraction(ctx context.Context, i int, op planOp) {
	c := l.paidCharge(ctx, op.Target, time.Minute)
	if c == nil {
		l.tally.add("infractions not opened: their charge was not paid")
		return
	}
	var pixID, provider string
	l.update(func() { pixID, provider = c.pixID, c.provider })
	sb, p := l.sandboxOf(provider)
	if sb == nil {
		l.tally.add("infractions not opened: their charge's provider is not known")
		return
	}
	if soakProviders[p].contract == "woovi" {
		// PixGate's woovi connector reads no infraction (Woovi's API has
		// none): an infraction there would be one PixGate cannot know of.
		l.tally.add("infractions not opened: their charge is at provider c (woovi, no MED)")
		return
	}
	var (
		id   string
		code int
		err  error
	)
	for try := 0; try < 12 && ctx.Err() == nil; try++ {
		if id, code, err = sb.openInfraction(ctx, pixID, op.Amount); err == nil && code != http.StatusServiceUnavailable {
			break
		}
		sleep(ctx, time.Duration(try+1)*time.Second)
	}
	switch {
	case err != nil:
		l.tally.add("infractions not opened: their sandbox did not answer")
		return
	case code == http.StatusUnprocessableEntity:
		// A dispute of all the charge has not given back, and it gave
		// everything back already.
		l.tally.add("infractions not opened: nothing of their charge left to dispute")
		return
	case code != http.StatusOK || id == "":
		l.tally.add(fmt.Sprintf("infractions not opened: their sandbox answered %d", code))
		return
	}
	inf := &soakInfraction{op: i, provider: p, id: id, result: op.Result}
	l.update(func() { l.infractions = append(l.infractions, inf) })
	l.tally.add("infractions opened at provider " + provider)
	if op.Delay == 0 {
		return // closed at the end of the run
	}
	sleep(ctx, op.Delay)
	l.closeInfraction(ctx, inf)
}

// closeInfraction closes an infraction with its planned result, trying
// again for about a minute while its sandbox does not answer.
func (l *soakLoad) closeInfraction(ctx context.Context, inf *soakInfraction) {
	for try := 0; try < 12 && ctx.Err() == nil; try++ {
		code, err := l.sbs[inf.provider].closeInfraction(ctx, inf.id, inf.result)
		if err == nil && (code == http.StatusOK || code == http.StatusConflict) {
			l.update(func() { inf.closed = true })
			l.tally.add("infractions closed " + inf.result)
			return
		}
		sleep(ctx, time.Duration(try+1)*time.Second)
	}
}

// lookup reads back a record PixGate answered as created: by external_id
// on v1, or consult-transaction by pix_id on v2.
func (l *soakLoad) lookup(ctx context.Context, i int, op planOp) {
	r := l.rec(op.Target)
	var (
		k        kind
		ext, pix string
		known    bool
	)
	if r != nil {
		l.update(func() { k, ext, pix, known = r.kind, r.externalID, r.pixID, r.answer == created })
	}
	isV2 := op.V2 || k == refundKind
	if !known || isV2 && pix == "" {
		l.tally.add("lookups with nothing to read (a balance read instead)")
		l.balance(ctx, op)
		return
	}
	rep := l.call(ctx, func() reply {
		if isV2 {
			return l.api.consult(ctx, op.Integrator, pix)
		}
		return l.api.read(ctx, op.Integrator, k, ext)
	})
	if rep.Status == http.StatusNotFound {
		l.tally.add(fmt.Sprintf("LOOKUP 404 of a %s answered as created", k))
	}
}

func (l *soakLoad) balance(ctx context.Context, op planOp) {
	l.call(ctx, func() reply { return l.api.balance(ctx, op.Integrator, op.V2) })
}

// answerWord names an answer for the tallies: created, refused 422, ...
func answerWord(r reply) string {
	switch {
	case r.OK():
		return "created"
	case r.Definitive():
		return fmt.Sprintf("refused (%d)", r.Status)
	}
	return "never (" + r.Code() + ")"
}
