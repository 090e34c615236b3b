package console

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixgate/pixgate/storage"
)

// An endpoint's replay: every postback of the integrator to that URL
// created in a range delivered again, the same bodies under the same
// webhook-ids, as the API's POST /api/v1/postbacks/replay does for all
// of an integrator's URLs (storage.RedeliverEndpointPostbackRange), and
// recorded as an operator action.

const (
	// replayMost bounds the postbacks one replay redelivers, the API's
	// bound: beyond it nothing is redelivered.
	replayMost = 10_000
	// replaySpan bounds a replay's range, so that a slip of the year
	// does not resend months.
	replaySpan = 31 * 24 * time.Hour
	// replayTimeLayout is the form's times (an HTML datetime-local input),
	// in UTC as the pages show times.
	replayTimeLayout = "2006-01-02T15:04"
)

// replayRange reads the form's since and until; the message says what
// is wrong with them.
func replayRange(r *http.Request) (since, until time.Time, msg string) {
	since, err1 := time.ParseInLocation(replayTimeLayout, r.PostFormValue("since"), time.UTC)
	until, err2 := time.ParseInLocation(replayTimeLayout, r.PostFormValue("until"), time.UTC)
	switch {
	case err1 != nil || err2 != nil:
		return since, until, "Since and until are required, as YYYY-MM-DDTHH:MM (UTC)."
	case !since.Before(until):
		return since, until, "Until must be after since."
	case until.Sub(since) > replaySpan:
		return since, until, "The range spans more than 31 days: replay it in narrower ranges."
	}
	return since, until, ""
}

// endpointReplay redelivers an endpoint's postbacks of a range, then
// records the operator action (its reason with the range). A replay
// repeated queues them again: the receivers dedupe by webhook-id.
func (c *console) endpointReplay(rw http.ResponseWriter, r *http.Request) {
	if !csrfValid(r) {
		http.Error(rw, "the form's token is missing or stale: reload the page and submit again", http.StatusForbidden)
		return
	}
	reason, u := strings.TrimSpace(r.PostFormValue("reason")), r.PostFormValue("url")
	integrator, err := strconv.ParseInt(r.PostFormValue("integrator"), 10, 64)
	refuse := func(status int, msg string) {
		c.showEndpoints(rw, r, status, view{Section: "endpoints", Error: msg},
			endpointsView{Reason: reason, ReasonFor: endpointKey(integrator, u), Replay: true,
				Since: r.PostFormValue("since"), Until: r.PostFormValue("until")})
	}
	since, until, rangeErr := replayRange(r)
	switch {
	case err != nil || integrator <= 0 || u == "":
		refuse(http.StatusBadRequest, "the form names no endpoint (an integrator and a URL)")
		return
	case reason == "":
		refuse(http.StatusUnprocessableEntity, "A reason is required: say why the endpoint's postbacks are replayed (it is kept in the audit trail).")
		return
	case rangeErr != "":
		refuse(http.StatusUnprocessableEntity, rangeErr)
		return
	}
	n, err := c.cfg.Store.RedeliverEndpointPostbackRange(r.Context(), integrator, u, since, until, replayMost, resumeMessage)
	if errors.Is(err, storage.ErrTooManyPostbacks) {
		refuse(http.StatusUnprocessableEntity, "The range holds more than 10000 postbacks, none replayed: replay it in narrower ranges.")
		return
	}
	var action storage.OperatorAction
	if err == nil {
		action, err = c.cfg.Store.RecordOperatorAction(r.Context(), storage.OperatorAction{Operator: c.cfg.Operator(r),
			Action: "endpoint.replay", ResourceType: "webhook_endpoint", ResourceID: storage.EndpointResourceID(integrator, u),
			Reason: reason + " (postbacks created from " + since.Format(time.RFC3339) + " until " + until.Format(time.RFC3339) + ")"})
	}
	if err != nil {
		c.fail(rw, r, err)
		return
	}
	c.cfg.Log.Info("postback endpoint replayed from the console", "integrator", integrator, "url", u, "since", since, "until", until,
		"queued", n, "operator", action.Operator, "action", action.ID)
	q := url.Values{"done": {"replay"}, "integrator": {itoa(integrator)}, "url": {u}, "status": {"replayed"},
		"queued": {" (" + strconv.Itoa(n) + " postbacks queued again)"}, "action": {itoa(action.ID)}}
	http.Redirect(rw, r, "/console/endpoints?"+q.Encode(), http.StatusSeeOther)
}
