package console

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// The transfers page: the withdrawals and refunds stuck PROCESSING that
// the reconciler flagged for an operator (as pixgate transfer list shows
// them), each settled or failed with a reason, as pixgate transfer
// settle|fail does (docs/operations.md, Stuck transfers); and the payouts
// late for their deadline, as pixgate payouts late lists them.

// transfersListed bounds the transfers page's lists.
const transfersListed = 200

// lateWindow is how far back the late payouts go: their due_at within it.
const lateWindow = 7 * 24 * time.Hour

// latePayout is a late payout as the page shows it.
type latePayout struct {
	storage.Transfer
	Late string // how far past its due_at it finished, or is now
}

// TransferDecision is an operator's settle or fail of a flagged transfer.
type TransferDecision struct {
	ID uuid.UUID
	// Settle: the money left (COMPLETED); otherwise it did not (FAILED).
	Settle           bool
	Operator, Reason string
	// EndToEndID is a settled transfer's PIX end-to-end id, if known.
	EndToEndID string
}

// ErrConflict is what Operations' errors wrap when the record is no longer
// in the state the page showed (another operator, or the provider, moved
// it meanwhile).
var ErrConflict = errors.New("it changed meanwhile")

// Operations are the console's actions whose code lives in package worker
// (which imports this package, never the other way): the worker
// implements them.
type Operations interface {
	// ResolveTransfer settles or fails a flagged transfer as
	// worker.ResolveTransfer does for the CLI: the transition, its posting,
	// the postback and the operator action in one transaction. Its errors:
	// storage.ErrNotFound, or one wrapping ErrConflict (no longer
	// PROCESSING, or not flagged).
	ResolveTransfer(ctx context.Context, d TransferDecision) (storage.OperatorAction, storage.TransferStatus, error)
	// BreakerStates is each provider of this process's circuit breaker
	// of each lane ("closed", "half-open", "open"); nil when it knows
	// none.
	BreakerStates() map[string]map[providerclient.Lane]string
}

// transfersView is the transfers page's data.
type transfersView struct {
	Transfers []storage.FlaggedTransfer
	Late      []latePayout
	Reason    string // a refused form's, so it is not typed again
	ReasonFor uuid.UUID
}

func (c *console) transfers(rw http.ResponseWriter, r *http.Request) {
	v := view{Section: "transfers"}
	if q := r.URL.Query(); q.Get("resolved") != "" {
		v.Notice = q.Get("kind") + " " + q.Get("resolved") + " is " + q.Get("status") + ", recorded as operator action #" + q.Get("action") + "."
	}
	c.showTransfers(rw, r, http.StatusOK, v, transfersView{})
}

func (c *console) showTransfers(rw http.ResponseWriter, r *http.Request, status int, v view, d transfersView) {
	var err error
	if d.Transfers, err = c.cfg.Store.FlaggedTransfers(r.Context(), transfersListed); err != nil {
		c.fail(rw, r, err)
		return
	}
	now := time.Now()
	late, err := c.cfg.Store.LatePayouts(r.Context(), now, storage.LateFilter{Since: now.Add(-lateWindow), Limit: transfersListed})
	if err != nil {
		c.fail(rw, r, err)
		return
	}
	for _, t := range late {
		d.Late = append(d.Late, latePayout{Transfer: t, Late: storage.Lateness(t, now).Round(time.Second).String()})
	}
	v.Data = d
	c.render(rw, r, status, "transfers.html", v)
}

// transferResolve settles or fails one flagged transfer through the
// worker's ResolveTransfer, under the signed-in operator.
func (c *console) transferResolve(rw http.ResponseWriter, r *http.Request) {
	if !csrfValid(r) {
		http.Error(rw, "the form's token is missing or stale: reload the page and submit again", http.StatusForbidden)
		return
	}
	decision := r.PathValue("decision")
	id, err := uuid.Parse(r.PathValue("id"))
	if err != nil || decision != "settle" && decision != "fail" {
		http.Error(rw, "not a transfer's settle or fail", http.StatusNotFound)
		return
	}
	reason := strings.TrimSpace(r.PostFormValue("reason"))
	refuse := func(status int, msg string) {
		c.showTransfers(rw, r, status, view{Section: "transfers", Error: msg}, transfersView{Reason: reason, ReasonFor: id})
	}
	if reason == "" {
		refuse(http.StatusUnprocessableEntity, "A reason is required: say how you know whether the money left (it is kept in the audit trail).")
		return
	}
	action, status, err := c.cfg.Ops.ResolveTransfer(r.Context(), TransferDecision{ID: id, Settle: decision == "settle",
		Operator: c.cfg.Operator(r), Reason: reason, EndToEndID: strings.TrimSpace(r.PostFormValue("end_to_end_id"))})
	switch {
	case errors.Is(err, storage.ErrNotFound):
		refuse(http.StatusNotFound, "transfer "+id.String()+" not found")
		return
	case errors.Is(err, ErrConflict):
		refuse(http.StatusConflict, "transfer "+id.String()+": "+err.Error())
		return
	case err != nil:
		c.fail(rw, r, err)
		return
	}
	c.cfg.Log.Info("transfer resolved from the console", "id", id, "decision", decision, "status", status,
		"operator", action.Operator, "action", action.ID)
	q := url.Values{"resolved": {id.String()}, "kind": {action.ResourceType}, "status": {string(status)},
		"action": {itoa(action.ID)}}
	http.Redirect(rw, r, "/console/transfers?"+q.Encode(), http.StatusSeeOther)
}
