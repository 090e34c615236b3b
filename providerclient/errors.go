package providerclient

import (
	"errors"
	"fmt"
)

// Error kinds. Every error a Client returns is an *Error whose Kind is one of
// these; branch on them with errors.Is.
var (
	// ErrRejected is a permanent refusal: the provider answered 4xx (other
	// than 408 and 429) and did nothing. Repeating the same request gets the
	// same answer; fail the operation and show the provider's message.
	ErrRejected = errors.New("provider rejected the request")

	// ErrNotFound is the provider's 404, for instance consult-transaction of
	// an unknown pix_id. It is also ErrRejected. A bare ErrNotFound proves
	// nothing about money: a wrong path or a proxy answers 404 too. Only
	// ErrProvedAbsent does.
	ErrNotFound = fmt.Errorf("%w: not found", ErrRejected)

	// ErrProvedAbsent is a verdict a connector earns: the provider holds no
	// transaction under PixGate's own id, because a read by that id, in the
	// field the contract deduplicates by, got the contract's own "no such
	// transaction" answer (not a bare 404), or because the contract
	// guarantees that the refusal it answered left nothing behind. It comes
	// with ErrNotFound (a read) or ErrRejected (a create the provider
	// refused, and holds nothing of). Moving a withdrawal to another
	// provider, or failing a transfer and giving its money back, rests on
	// it alone.
	ErrProvedAbsent = errors.New("proved absent: the provider holds no transaction under this id")

	// ErrUnavailable is a transient failure that left nothing done: a 5xx,
	// 408 or 429 answer, a connection refused or reset, a timeout before the
	// request was fully sent, or a token that could not be fetched. Retrying
	// later is safe.
	ErrUnavailable = errors.New("provider unavailable")

	// ErrBreakerOpen means the circuit breaker is open (or probing in
	// half-open with its one probe already out), so no request was sent. It is
	// also ErrUnavailable. Retry after the breaker's open interval
	// (Config.BreakerOpenTimeout); never count it as the provider's failure.
	ErrBreakerOpen = fmt.Errorf("%w: circuit breaker open", ErrUnavailable)

	// ErrUnknownOutcome means the request was sent and no usable answer came
	// back (timeout or connection lost after writing, or an unreadable 2xx).
	// The provider may or may not have acted: repeat the call with the same
	// external_id, which the provider deduplicates, or consult the
	// transaction, before deciding anything about the money. It is not
	// ErrUnavailable.
	ErrUnknownOutcome = errors.New("provider outcome unknown")
)

// Error is a failed provider call. It never carries the client secret or an
// access token.
type Error struct {
	// Op names the call: "create charge", "create payment", "create refund",
	// "consult transaction", "balance" or "fetch token".
	Op string
	// Kind is ErrRejected, ErrNotFound, ErrUnavailable, ErrBreakerOpen or
	// ErrUnknownOutcome.
	Kind error
	// StatusCode is the HTTP status of the answer, 0 if none came.
	StatusCode int
	// Message is the provider's "message", or a snippet of its answer.
	Message string
	// Err is the underlying network or decoding error, if any.
	Err error
	// Absent: the connector proved the provider holds nothing under
	// PixGate's id (ErrProvedAbsent; see there).
	Absent bool
}

// Error renders "providerclient: <op>: <kind> (HTTP <status>): <message>".
func (e *Error) Error() string {
	s := "providerclient: " + e.Op + ": " + e.Kind.Error()
	if e.StatusCode != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.StatusCode)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Absent {
		s += " (proved absent)"
	}
	return s
}

// Unwrap exposes the kind and the underlying error to errors.Is and
// errors.As.
func (e *Error) Unwrap() []error {
	errs := []error{e.Kind}
	if e.Absent {
		errs = append(errs, ErrProvedAbsent)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// Absent marks err, a refusal or a not-found answer of the provider, as
// proving that the provider holds nothing under PixGate's id; err is
// returned as it is when it is not an *Error.
func Absent(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Absent = true
	return &c
}

// transient reports whether err is worth retrying or counting against the
// provider's health: unavailable or unknown outcome, but not breaker-open.
func transient(err error) bool {
	if errors.Is(err, ErrBreakerOpen) {
		return false
	}
	return errors.Is(err, ErrUnavailable) || errors.Is(err, ErrUnknownOutcome)
}

// ErrUnsupported is an operation the provider's contract does not offer
// (see Capabilities). It is also ErrRejected: nothing was sent.
var ErrUnsupported = fmt.Errorf("%w: not supported by this provider", ErrRejected)
