package worker

import (
	"context"
	"slices"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
)

// failoverWithdrawal decides, after a failed send of withdrawal t at the
// provider it records (send: its number there, see
// storage.ClaimWithdrawalSend), whether it
// moves to the next provider of its integrator's route, and moves it: it returns the next provider, or ""
// when it stays (sendErr then decides, as with one provider: a proved
// refusal fails it, anything else is retried there).
//
// A PIX sent twice cannot be taken back, so it moves only on proof that
// the provider has no record of it (fleet.PayoutVerdict): a refusal the
// connector proved left nothing behind; nothing sent (a refused
// connection, an open breaker, a full bulkhead) on its first send there;
// or, after a later send that reached nothing, a read by PixGate's id that
// the connector proves absent (providerclient.ErrProvedAbsent). The move is
// recorded before the next send, and only if no provider accepted it
// meanwhile, no other send began at its provider since this one and none
// is still in flight there (a concurrent send, which may reach it).
func (w *Worker) failoverWithdrawal(ctx context.Context, t storage.Transfer, sendErr error, send int) (string, error) {
	verdict := fleet.PayoutVerdict(sendErr, send == 1)
	if verdict == fleet.ReadFirst {
		p, err := w.providerAt(t.Provider)
		if err != nil {
			return "", nil
		}
		_, rerr := p.Read(ctx, providerclient.Ref{Kind: providerclient.KindPayout, ID: t.ID.String()})
		verdict = fleet.ReadVerdict(rerr)
	}
	if verdict != fleet.MoveOn {
		return "", nil
	}
	route, err := w.transfers.RouteFor(ctx, t.IntegratorID)
	if err != nil {
		return "", err
	}
	now := w.now()
	next := nextProvider(route.Withdrawals, t.Provider, func(name string) bool { return route.Limits[name].Allows(t.Amount, now) })
	if next == "" {
		return "", nil
	}
	if err := w.transfers.MoveWithdrawal(ctx, t.ID, t.Provider, next, send); err != nil {
		// ErrStateChanged: accepted, finished, moved or sent again
		// meanwhile; the task is retried and finds out which.
		return "", err
	}
	if f, ok := w.provider.(interface {
		Failover(ctx context.Context, op, from, to string, err error)
	}); ok {
		f.Failover(ctx, providerclient.OpPayout, t.Provider, next, sendErr)
	} else {
		w.log.WarnContext(ctx, "provider failover", "op", providerclient.OpPayout, "from", t.Provider, "to", next, "error", sendErr)
	}
	return next, nil
}

// nextProvider is the first provider after current in route that allows
// the withdrawal (its per-PIX limit lets the amount through: a withdrawal
// never moves to a provider that must refuse it); when current is not in
// it (taken out of the route), the route's first other than current that
// allows it.
func nextProvider(route []string, current string, allows func(string) bool) string {
	rest := route
	if i := slices.Index(route, current); i >= 0 {
		rest = route[i+1:]
	}
	for _, p := range rest {
		if p != current && allows(p) {
			return p
		}
	}
	return ""
}
