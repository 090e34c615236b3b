package fleet

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// IssueCharge creates req along route with failover within the call, and
// returns the charge and the name of the provider that holds it. When it
// fails, provider names the provider that may hold the charge (an
// ambiguous outcome it could not resolve: a retry must go there first), or
// is "" when no provider of the route holds it.
//
// Each provider but the last is tried once, without in-process retries, so
// that failover is immediate; the last is tried with them. On a timeout
// (ChargeVerdict ReadFirst) the charge is read at that provider by
// PixGate's id (req.ID): not found, the next provider is tried; found, the
// create is repeated there, which the id makes the same charge, for its
// QR code; no answer, the charge stays with that provider.
//
// The payer is waiting, so a provider but the last gets a deadline of its
// own (Options.CreateAttemptTimeout, at most half of the time ctx has
// left): unanswered by then, the create there is given up and the next
// provider is tried at once, without reading the first (a provider that
// does not answer creates would not answer that read either). The first
// may hold the charge, but its QR code never reached PixGate, so no payer
// is ever shown it and it expires unpaid there; PixGate records and shows
// one provider's charge. When the rest of the route fails too, provider
// names the first so abandoned, whose create a retry repeats first.
func (f *Fleet) IssueCharge(ctx context.Context, route Route, req providerclient.ChargeRequest) (ch *providerclient.Charge, provider string, err error) {
	plan := f.plan(ctx, route, providerclient.LaneCreate)
	if len(plan) == 0 {
		return nil, "", &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnavailable, Message: "no provider on the route"}
	}
	abandoned := "" // the first provider whose create was given up unanswered
	for i, m := range plan {
		last := i == len(plan)-1
		var v Verdict
		reason := ""
		if last {
			ch, err = m.patient.CreateCharge(ctx, req)
			v = ChargeVerdict(err)
		} else {
			var cut bool
			ch, cut, err = f.createAttempt(ctx, m, req)
			v = ChargeVerdict(err)
			switch {
			case cut:
				v, reason = MoveOn, "create_unanswered"
				abandoned = cmp.Or(abandoned, m.name)
			case v == ReadFirst && ctx.Err() == nil:
				v, ch, err = f.resolveCharge(ctx, m, req, err)
			}
		}
		switch {
		case v == Done:
			return ch, m.name, nil
		case v == Final:
			return nil, abandoned, err
		case v != MoveOn:
			return nil, m.name, err
		case last || ctx.Err() != nil:
			return nil, abandoned, err
		}
		f.failover(ctx, providerclient.OpCharge, m.name, plan[i+1].name, cmp.Or(reason, reasonOf(err)), err)
	}
	return nil, "", err // not reached: the last provider always returns
}

// errCreateUnanswered is the cause of a charge create given up at its
// attempt's deadline.
var errCreateUnanswered = fmt.Errorf("%w: the charge create did not answer within its attempt's deadline", errUnanswered)

// createAttempt creates req at m, a provider with another after it on the
// route, within the attempt's deadline; cut says the deadline ended it
// (the caller's time had not run out).
func (f *Fleet) createAttempt(ctx context.Context, m *member, req providerclient.ChargeRequest) (ch *providerclient.Charge, cut bool, err error) {
	d := f.opts.CreateAttemptTimeout
	if end, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(end)/2)
	}
	actx, cancel := context.WithTimeoutCause(ctx, d, errCreateUnanswered)
	defer cancel()
	ch, err = m.hasty.CreateCharge(actx, req)
	cut = err != nil && ctx.Err() == nil && errors.Is(context.Cause(actx), errCreateUnanswered)
	return ch, cut, err
}

// resolveCharge reads, at m, a charge whose create there had an unknown
// outcome (err), and says what the read allows.
func (f *Fleet) resolveCharge(ctx context.Context, m *member, req providerclient.ChargeRequest, err error) (Verdict, *providerclient.Charge, error) {
	rctx, cancel := context.WithTimeout(ctx, f.opts.ReadTimeout)
	_, rerr := m.hasty.Read(rctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: req.ID, Due: req.Due != nil})
	cancel()
	if ReadVerdict(rerr) == MoveOn {
		return MoveOn, nil, err
	}
	if rerr != nil {
		return Stay, nil, err
	}
	// It is there: the same create, under the same id, answers it with
	// its QR code.
	ch, cerr := m.hasty.CreateCharge(ctx, req)
	if cerr != nil {
		return Stay, nil, err
	}
	return Done, ch, nil
}

// reasonOf names why a call failed over, for logs and metrics.
func reasonOf(err error) string {
	switch {
	case errors.Is(err, ErrBulkheadFull):
		return "bulkhead_full"
	case errors.Is(err, providerclient.ErrUnsupported):
		return "unsupported"
	case errors.Is(err, providerclient.ErrNotFound), errors.Is(err, providerclient.ErrUnknownOutcome):
		return "not_found_after_timeout"
	}
	return providerclient.ResultOf(err)
}
