package fleet

import (
	"context"
	"errors"

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
func (f *Fleet) IssueCharge(ctx context.Context, route Route, req providerclient.ChargeRequest) (ch *providerclient.Charge, provider string, err error) {
	plan := f.plan(ctx, route, providerclient.LaneCreate)
	if len(plan) == 0 {
		return nil, "", &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnavailable, Message: "no provider on the route"}
	}
	for i, m := range plan {
		last := i == len(plan)-1
		c := m.hasty
		if last {
			c = m.patient
		}
		ch, err = c.CreateCharge(ctx, req)
		v := ChargeVerdict(err)
		if v == ReadFirst && !last && ctx.Err() == nil {
			v, ch, err = f.resolveCharge(ctx, m, req, err)
		}
		switch {
		case v == Done:
			return ch, m.name, nil
		case v == Final:
			return nil, "", err
		case v != MoveOn:
			return nil, m.name, err
		case last || ctx.Err() != nil:
			return nil, "", err
		}
		f.failover(ctx, providerclient.OpCharge, m.name, plan[i+1].name, reasonOf(err), err)
	}
	return nil, "", err // not reached: the last provider always returns
}

// resolveCharge reads, at m, a charge whose create there had an unknown
// outcome (err), and says what the read allows.
func (f *Fleet) resolveCharge(ctx context.Context, m *member, req providerclient.ChargeRequest, err error) (Verdict, *providerclient.Charge, error) {
	rctx, cancel := context.WithTimeout(ctx, f.opts.ReadTimeout)
	_, rerr := m.hasty.Read(rctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: req.ID})
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
