package woovi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// A recurrence's cycles are a subscription's installments
// (docs/provider.md, "Recurrence cycles (woovi)"): Woovi makes one per
// due date itself; PixGate finds the cycle's by its due date in the
// subscription's list and makes its cobr with the cycle's amount (the
// manual cobr route). The installment's globalID is the cycle's provider
// id: the id Woovi's reads and its PIX_AUTOMATIC_COBR webhooks name it by.
// Woovi asks the retries itself, under the subscription's policy, and
// has no route to cancel an installment or its cobr.

// maxInstallmentPages bounds the pages of a subscription's installments
// read to find one (a page is up to 100 of them, one per cycle).
const maxInstallmentPages = 20

// SendCycle makes the cobr of the cycle's installment. An installment
// that has one already (this cycle sent before, its answer lost, or one
// Woovi made itself) is answered as it is when it asks the same value,
// and refused otherwise; so is one whose making is refused and read back.
// A making refused fewer than 5 days before the day, the installment
// still without a cobr, is retryable: Woovi makes that cobr itself.
func (c *connector) SendCycle(ctx context.Context, req providerclient.CycleRequest) (*providerclient.Cycle, error) {
	op := providerclient.OpSendCycle
	switch {
	case req.Recurrence.ProviderID == "":
		return nil, refuseCycle(op, "the recurrence's provider id (the subscription's globalID) is required")
	case req.DueDate.IsZero():
		return nil, refuseCycle(op, "the cycle's due date is required")
	case req.Amount <= 0:
		return nil, refuseCycle(op, "the cycle's amount must be positive")
	}
	inst, err := c.installmentDue(ctx, op, req.Recurrence.ProviderID, req.DueDate)
	if err != nil {
		return nil, err
	}
	if inst.Cobr != nil {
		return sentCycle(op, *inst, req.Amount, nil)
	}
	path := wooviapi.PathInstallments + "/" + escape(inst.GlobalID) + "/cobr"
	res, err := c.call(ctx, op, http.MethodPost, path, wooviapi.CobrRequest{Value: int64(req.Amount)})
	if err != nil {
		return nil, err
	}
	var ans map[string]any
	refusal := decode(op, res, &ans)
	if refusal != nil && !errors.Is(refusal, providerclient.ErrRejected) {
		return nil, refusal
	}
	again, err := c.installment(ctx, op, inst.GlobalID)
	switch {
	case err != nil && refusal == nil:
		// Made, and not read back: a repeat finds it.
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "the cobr was made and its installment not read back", Err: err}
	case refusal != nil && (err != nil || again.Cobr == nil) && ownCobrComing(req.DueDate, due.Today(time.Now())):
		return nil, ownCobrLater(op, inst.GlobalID, req.DueDate, res.Status, refusal)
	case err != nil:
		return nil, refusal
	}
	return sentCycle(op, *again, req.Amount, refusal)
}

// Woovi makes an installment's cobr itself ownCobrDays before its day
// when it has none, and takes one made by hand only up to
// manualCobrLastDays before it ([Woovi-Manual]).
const (
	ownCobrDays        = 4
	manualCobrLastDays = 5
)

// ownCobrComing reports whether, on today, a manual cobr of an
// installment due on day is refused for being late while Woovi's own is
// still to come or just made: fewer than manualCobrLastDays days left,
// the day not passed.
func ownCobrComing(day, today due.Date) bool {
	left := day.Sub(today)
	return left >= 0 && left < manualCobrLastDays
}

// ownCobrLater is the answer of a send refused too late for a manual
// cobr: retryable, never ErrRejected, so that the cycle is asked again
// until its window closes and adopts Woovi's own cobr once it is there
// (a cycle PixGate gave up on would still be charged by Woovi's).
func ownCobrLater(op, id string, day due.Date, status int, refusal error) error {
	return &providerclient.Error{Op: op, Kind: providerclient.ErrUnavailable, StatusCode: status,
		Message: fmt.Sprintf("Woovi makes the cobr of installment %s itself %d days before its due date %s, "+
			"too late for one by hand (%v): asked again until it is there", id, ownCobrDays, day, refusal)}
}

// sentCycle is the answer of a send whose installment has inst's cobr:
// the cycle, when the cobr asks amount; else refusal, or a refusal of its
// own naming both values. An installment still without a cobr after
// refusal is refusal.
func sentCycle(op string, inst wooviapi.Installment, amount money.Money, refusal error) (*providerclient.Cycle, error) {
	switch {
	case inst.Cobr == nil && refusal != nil:
		return nil, refusal
	case inst.Cobr == nil:
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "installment " + inst.GlobalID + " read back without its cobr"}
	case money.Money(inst.Cobr.Value) != amount:
		if refusal != nil {
			return nil, refusal
		}
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, StatusCode: http.StatusOK,
			Message: fmt.Sprintf("installment %s has a cobr of %d centavos, not %d", inst.GlobalID, inst.Cobr.Value, amount)}
	}
	return neutralCycle(op, inst)
}

// ReadCycle reads the cycle's installment by its globalID, or, before it
// is known, finds it by its due date among its subscription's.
func (c *connector) ReadCycle(ctx context.Context, ref providerclient.CycleRef) (*providerclient.Cycle, error) {
	op := providerclient.OpReadCycle
	var inst *wooviapi.Installment
	var err error
	switch {
	case ref.ProviderID != "":
		inst, err = c.installment(ctx, op, ref.ProviderID)
	case ref.Recurrence.ProviderID != "" && !ref.DueDate.IsZero():
		inst, err = c.installmentDue(ctx, op, ref.Recurrence.ProviderID, ref.DueDate)
	default:
		return nil, refuseCycle(op, "neither the installment's globalID nor its subscription's and due date name the cycle")
	}
	if err != nil {
		return nil, err
	}
	if sub := ref.Recurrence.ProviderID; sub != "" && inst.PaymentSubscriptionGlobalID != "" && inst.PaymentSubscriptionGlobalID != sub {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrNotFound,
			Message: "installment " + inst.GlobalID + " is not of subscription " + sub}
	}
	return neutralCycle(op, *inst)
}

// RetryCycle asks nothing: Woovi asks a failed cobr's retries itself,
// under the subscription's retryPolicy (Capabilities.RetriesItself).
func (c *connector) RetryCycle(context.Context, providerclient.CycleRef, due.Date) error {
	return nil
}

// CancelCycle is unsupported: Woovi's API has no route that cancels an
// installment or its cobr (only the whole subscription).
func (c *connector) CancelCycle(context.Context, providerclient.CycleRef) error {
	return &providerclient.Error{Op: providerclient.OpCancelCycle, Kind: providerclient.ErrUnsupported,
		Message: "Woovi's API cancels no installment nor its cobr, only the whole subscription"}
}

// installment reads an installment by its globalID. The document wraps
// it in "installment"; Woovi's routes page shows it bare: either is read.
func (c *connector) installment(ctx context.Context, op, id string) (*wooviapi.Installment, error) {
	var ans struct {
		wooviapi.InstallmentAnswer
		wooviapi.Installment
	}
	if err := c.getAs(ctx, op, wooviapi.PathInstallments+"/"+escape(id), &ans); err != nil {
		return nil, err
	}
	inst := ans.InstallmentAnswer.Installment
	if inst == nil {
		inst = &ans.Installment
	}
	if inst.GlobalID == "" {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "installment answered without its globalID"}
	}
	return inst, nil
}

// installmentDue is the subscription's installment charged on day, read
// page by page (skip, as Woovi's other lists page). None is ErrRejected:
// Woovi makes its installments ahead, so the cycle has none.
func (c *connector) installmentDue(ctx context.Context, op, subscription string, day due.Date) (*wooviapi.Installment, error) {
	base := wooviapi.PathSubscriptions + "/" + escape(subscription) + "/installments"
	path, read := base, 0
	for range maxInstallmentPages {
		var page wooviapi.InstallmentList
		if err := c.getAs(ctx, op, path, &page); err != nil {
			return nil, err
		}
		for i, inst := range page.Installments {
			if d, ok := wooviDay(inst.DateGenerateCharge); ok && d == day {
				return &page.Installments[i], nil
			}
		}
		read += len(page.Installments)
		if !page.PageInfo.HasNextPage || len(page.Installments) == 0 {
			break
		}
		path = base + "?" + url.Values{"skip": {strconv.Itoa(read)}}.Encode()
	}
	return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, StatusCode: http.StatusOK,
		Message: "subscription " + subscription + " has no installment charged on " + day.String()}
}

// refuseCycle refuses, before any call, a cycle's request that names too
// little.
func refuseCycle(op, why string) error {
	return &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Absent: true, Message: why}
}
