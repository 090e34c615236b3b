package fleet

import (
	"errors"
	"syscall"

	"github.com/pixgate/pixgate/providerclient"
)

// Verdict is what a provider's answer to a create allows next.
type Verdict int

const (
	// Done: the provider took it.
	Done Verdict = iota
	// MoveOn: the provider provably has no record of it; the next provider
	// of the route may take it.
	MoveOn
	// ReadFirst: it may exist at the provider; read it there by PixGate's
	// id before anything else (ReadVerdict says what the read allows).
	ReadFirst
	// Stay: it stays with this provider (retried there, read there).
	Stay
	// Final: the provider answered for good (a rejection); the caller sees
	// the answer.
	Final
)

// ChargeVerdict judges a failed charge create. A charge is provably not
// created when nothing reached the provider or the provider said it did
// nothing: an open breaker, a full bulkhead, a refused connection, a
// request not fully sent, a 5xx, 408 or 429 answer (the contracts document
// those as nothing done: providerclient.ErrUnavailable), or an operation
// the provider does not offer. A timeout after the request was sent is
// ambiguous: read first. A rejection is final: the same request would be
// rejected by the next provider too, and the integrator should see why.
func ChargeVerdict(err error) Verdict {
	switch {
	case err == nil:
		return Done
	case errors.Is(err, providerclient.ErrUnsupported), errors.Is(err, providerclient.ErrUnavailable):
		return MoveOn
	case errors.Is(err, providerclient.ErrRejected):
		return Final
	}
	// ErrUnknownOutcome, and anything unclassified.
	return ReadFirst
}

// ReadVerdict judges the read, by PixGate's id, of something whose create
// was ambiguous: only a proof of absence (providerclient.ErrProvedAbsent,
// which a connector earns from its contract's own "no such transaction"
// answer to a read by PixGate's id) lets it move on. Anything else (found,
// a bare not-found, a read the contract cannot make, no answer) keeps it
// with the provider.
func ReadVerdict(err error) Verdict {
	if errors.Is(err, providerclient.ErrProvedAbsent) {
		return MoveOn
	}
	return Stay
}

// NothingHeld reports whether a create's error proves the provider holds
// nothing of it under PixGate's id: the connector proved it
// (providerclient.ErrProvedAbsent: a refusal its contract says leaves
// nothing behind, or one it read back and found absent), or the operation
// is not offered (nothing was sent). Only then may a withdrawal or refund
// fail and give its money back, or a withdrawal move to another provider
// on the strength of the answer alone: a bare refusal may mean "this id
// was used already".
func NothingHeld(err error) bool {
	return errors.Is(err, providerclient.ErrProvedAbsent) || errors.Is(err, providerclient.ErrUnsupported)
}

// PayoutVerdict judges a failed send of a withdrawal at one provider. A
// PIX sent twice cannot be taken back, so it moves to the next provider
// only on proof that this one has no record of it:
//
//   - a refusal the connector proved left nothing behind, or payouts not
//     offered (NothingHeld);
//   - a refused connection, an open breaker or a full bulkhead, that is,
//     nothing reached the provider, on the withdrawal's first send there
//     (firstSend); on a later one an earlier send may have reached it, so
//     it is read there first (ReadFirst, then ReadVerdict).
//
// Anything else (a refusal without that proof, a timeout, a 5xx or 429 on
// a payout, an unreadable answer) keeps it with its provider: retried and
// read there until settled.
func PayoutVerdict(err error, firstSend bool) Verdict {
	switch {
	case err == nil:
		return Done
	case NothingHeld(err):
		return MoveOn
	case !nothingSent(err):
		return Stay
	case firstSend:
		return MoveOn
	}
	return ReadFirst
}

// nothingSent reports whether err proves that the call reached no
// provider: an open breaker, a full bulkhead, a refused connection.
func nothingSent(err error) bool {
	return errors.Is(err, providerclient.ErrBreakerOpen) || errors.Is(err, ErrBulkheadFull) || errors.Is(err, syscall.ECONNREFUSED)
}
