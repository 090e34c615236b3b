package family

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// A recurrence's cycles over PixGate's extension, as its recurrences
// (recurrence.go): sent at contract.PathRecurrenceCycle under PixGate's id
// (external_id, which the extension deduplicates), retried and cancelled
// by the cycle's transactionId, read by consult-transaction, notified as a
// RECURRENCE_CYCLE transaction; only with the extensions. The family asks
// no retry by itself: PixGate asks each.

// SendCycle registers the cycle's charge for the recurrence named by its
// transactionId.
func (f *connector) SendCycle(ctx context.Context, req providerclient.CycleRequest) (*providerclient.Cycle, error) {
	op := providerclient.OpSendCycle
	if err := f.recurrenceRef(op, req.Recurrence); err != nil {
		return nil, err
	}
	in := contract.RecurrenceCycleRequest{TransactionID: req.Recurrence.ProviderID, ExternalID: req.ID,
		DueDate: req.DueDate.String(), Amount: req.Amount, Description: req.Description, PostbackURL: req.NotifyURL}
	return f.cycleCall(ctx, op, contract.PathRecurrenceCycle, in)
}

// ReadCycle reads a cycle by its transactionId.
func (f *connector) ReadCycle(ctx context.Context, ref providerclient.CycleRef) (*providerclient.Cycle, error) {
	op := providerclient.OpReadCycle
	if err := f.cycleRef(op, ref); err != nil {
		return nil, err
	}
	return f.cycleCall(ctx, op, "/v2/consult-transaction", contract.ConsultRequest{PixID: ref.ProviderID})
}

// RetryCycle asks the cycle's payment be tried again, to settle on day;
// the extension answers the same day asked twice as it is.
func (f *connector) RetryCycle(ctx context.Context, ref providerclient.CycleRef, day due.Date) error {
	op := providerclient.OpRetryCycle
	if err := f.cycleRef(op, ref); err != nil {
		return err
	}
	_, err := f.cycleCall(ctx, op, contract.PathRecurrenceCycleRetry,
		contract.RecurrenceCycleRetry{TransactionID: ref.ProviderID, Date: day.String()})
	return err
}

// CancelCycle cancels a cycle on the integrator's behalf; the extension
// answers a cancelled one as it is.
func (f *connector) CancelCycle(ctx context.Context, ref providerclient.CycleRef) error {
	op := providerclient.OpCancelCycle
	if err := f.cycleRef(op, ref); err != nil {
		return err
	}
	_, err := f.cycleCall(ctx, op, contract.PathRecurrenceCycleCancel, contract.RecurrenceCycleCancel{TransactionID: ref.ProviderID})
	return err
}

// cycleRef refuses a call the connector cannot make: without the
// extensions, or without the cycle's transactionId.
func (f *connector) cycleRef(op string, ref providerclient.CycleRef) error {
	switch {
	case !f.ext:
		return unsupported(op)
	case ref.ProviderID == "":
		return &providerclient.Error{Op: op, Kind: providerclient.ErrRejected,
			Message: "the family reads a cycle only by its transactionId, which is not known yet"}
	}
	return nil
}

// cycleCall posts in to path and reads the cycle the extension answers.
func (f *connector) cycleCall(ctx context.Context, op, path string, in any) (*providerclient.Cycle, error) {
	var raw json.RawMessage
	if err := f.base.call(ctx, op, path, in, &raw); err != nil {
		return nil, err
	}
	c, err := contract.DecodeRecurrenceCycle(raw)
	if err != nil {
		return nil, unreadable(op, err.Error())
	}
	if c.TransactionType != contract.TypeRecurrenceCycle {
		if op == providerclient.OpReadCycle {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrNotFound,
				Message: "transaction " + c.TransactionID + " is a " + c.TransactionType + ", not a recurrence cycle"}
		}
		return nil, unreadable(op, "answer of type "+c.TransactionType)
	}
	return neutralCycle(op, c)
}

// neutralCycle translates a RECURRENCE_CYCLE into PixGate's terms; a
// status, kind or day PixGate cannot read makes the answer unusable.
func neutralCycle(op string, c contract.RecurrenceCycle) (*providerclient.Cycle, error) {
	st := recurrence.CycleStatus(c.Status)
	dueDate, err := due.ParseDate(c.DueDate)
	switch {
	case c.TransactionID == "":
		return nil, unreadable(op, "answer without transactionId")
	case !st.Valid():
		return nil, unreadable(op, "unknown cycle status "+c.Status)
	case err != nil:
		return nil, unreadable(op, "dueDate "+c.DueDate+" is not a day")
	}
	out := &providerclient.Cycle{ProviderID: c.TransactionID, ExternalID: c.ExternalID, Status: st, DueDate: dueDate,
		Amount: c.Amount, RejectionCode: c.RejectionCode, CancelledBy: recurrence.Party(c.CancelledBy),
		EndToEndID: c.EndToEndID, PaidAt: contract.ParseDate(c.PaidAt)}
	if c.Payer != nil {
		out.Payer = providerclient.Party{Name: c.Payer.Name, Document: c.Payer.TaxID, Email: c.Payer.Email}
	}
	for _, a := range c.Attempts {
		at, err := neutralAttempt(a)
		if err != nil {
			return nil, unreadable(op, err.Error())
		}
		out.Attempts = append(out.Attempts, at)
	}
	return out, nil
}

// neutralAttempt is one attempt in PixGate's terms.
func neutralAttempt(a contract.CycleAttempt) (providerclient.Attempt, error) {
	st, kind := recurrence.AttemptStatus(a.Status), recurrence.AttemptKind(a.Type)
	day, err := due.ParseDate(a.SettleOn)
	switch {
	case !st.Valid():
		return providerclient.Attempt{}, errors.New("unknown attempt status " + a.Status)
	case kind != recurrence.AttemptFirst && kind != recurrence.AttemptRetry && kind != recurrence.AttemptResend:
		return providerclient.Attempt{}, errors.New("unknown attempt type " + a.Type)
	case err != nil:
		return providerclient.Attempt{}, errors.New("attempt settleOn " + a.SettleOn + " is not a day")
	}
	return providerclient.Attempt{Kind: kind, SettleOn: day, Status: st, RejectionCode: a.RejectionCode,
		EndToEndID: a.EndToEndID}, nil
}

// unreadable is an answer the connector cannot use: the call's outcome is
// not known.
func unreadable(op, msg string) error {
	return &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
		Message: strings.TrimSpace(msg)}
}
