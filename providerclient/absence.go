package providerclient

import (
	"context"
	"errors"
)

// AfterRefusal judges a create under PixGate's id (a send, a refund) that
// the provider refused with refusal, by reading it back under the same id
// (read): a refusal can mean "that id was used already", by an earlier try
// whose answer was lost. Found, it is that earlier create, returned as
// found; proved absent (ErrProvedAbsent), the refusal left nothing behind
// and is returned marked so; anything else (the read failing, a bare
// not-found) is an unknown outcome (Unproved), never a refusal the caller
// may act on.
func AfterRefusal[T any](ctx context.Context, refusal error, read func(context.Context) (*T, error)) (*T, error) {
	found, err := read(ctx)
	switch {
	case err == nil:
		return found, nil
	case errors.Is(err, ErrProvedAbsent):
		return nil, Absent(refusal)
	}
	return nil, Unproved(refusal, err)
}

// Unproved is the outcome of a create the provider refused (refusal)
// when the read by PixGate's id that would prove the refusal left nothing
// behind failed (readErr): the provider may hold it (a refusal can mean
// "this id was used already", by an earlier try whose answer was lost), so
// it is an unknown outcome, never a refusal to act on. Neither error is
// wrapped: their kinds must not leak into this one's.
func Unproved(refusal, readErr error) error {
	e := &Error{Kind: ErrUnknownOutcome, Message: "refused (" + refusal.Error() +
		"), and whether the provider holds it under PixGate's id could not be read (" + readErr.Error() + ")"}
	var r *Error
	if errors.As(refusal, &r) {
		e.Op, e.StatusCode = r.Op, r.StatusCode
	}
	return e
}

// Unanswered is a refusal of a read that completes one already found (the
// PIX that paid a charge, who paid it): the transaction exists, so the
// refusal proves nothing absent; it is an unknown outcome, and the read is
// asked again later. what says what could not be read. Any other error is
// returned as it is.
func Unanswered(err error, what string) error {
	var pe *Error
	if errors.As(err, &pe) && errors.Is(pe.Kind, ErrRejected) {
		pe.Kind, pe.Absent = ErrUnknownOutcome, false
		pe.Message = what + " could not be listed: " + pe.Message
	}
	return err
}
