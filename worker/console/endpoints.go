package console

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// The postback endpoints page: every integrator's endpoints, those with a
// state of their own (paused, disabled, resumed) first, each paused or
// resumed with a reason, as pixgate postbacks pause|resume does
// (docs/postbacks.md), and recorded as an operator action.

const (
	// endpointsSince is how far back the page looks for endpoints that
	// were never paused (the postbacks written since name them).
	endpointsSince = 7 * 24 * time.Hour
	// endpointsListed bounds the page's list.
	endpointsListed = 500
)

// endpointsView is the endpoints page's data.
type endpointsView struct {
	Endpoints []storage.WebhookEndpoint
	SinceDays int
	Reason    string // a refused form's, for the endpoint it named
	ReasonFor string
	// Replay: the refused form was a replay, whose range is kept too.
	Replay       bool
	Since, Until string
}

func (c *console) endpoints(rw http.ResponseWriter, r *http.Request) {
	v := view{Section: "endpoints"}
	if q := r.URL.Query(); q.Get("done") != "" {
		v.Notice = "Integrator " + q.Get("integrator") + "'s endpoint " + q.Get("url") + " is " + q.Get("status") + q.Get("queued") +
			", recorded as operator action #" + q.Get("action") + "."
	}
	c.showEndpoints(rw, r, http.StatusOK, v, endpointsView{})
}

func (c *console) showEndpoints(rw http.ResponseWriter, r *http.Request, status int, v view, d endpointsView) {
	var err error
	d.SinceDays = int(endpointsSince / (24 * time.Hour))
	if d.Endpoints, err = c.cfg.Store.AllEndpoints(r.Context(), time.Now().Add(-endpointsSince), endpointsListed); err != nil {
		c.fail(rw, r, err)
		return
	}
	v.Data = d
	c.render(rw, r, status, "endpoints.html", v)
}

// endpointKey is how the page names an endpoint in a form: integrator
// and URL on one line.
func endpointKey(integratorID int64, u string) string { return itoa(integratorID) + " " + u }

// endpointAction pauses or resumes an endpoint through storage's
// PauseEndpoint or ResumeEndpoint (the resume queues its waiting
// postbacks oldest first, as the CLI's does), then records the operator
// action. Both are safe to repeat, so an action whose record failed is
// taken again with its record.
func (c *console) endpointAction(rw http.ResponseWriter, r *http.Request) {
	if !csrfValid(r) {
		http.Error(rw, "the form's token is missing or stale: reload the page and submit again", http.StatusForbidden)
		return
	}
	verb := r.PathValue("verb")
	if verb != "pause" && verb != "resume" {
		http.Error(rw, "not an endpoint's pause or resume", http.StatusNotFound)
		return
	}
	reason, u := strings.TrimSpace(r.PostFormValue("reason")), r.PostFormValue("url")
	integrator, err := strconv.ParseInt(r.PostFormValue("integrator"), 10, 64)
	refuse := func(status int, msg string) {
		c.showEndpoints(rw, r, status, view{Section: "endpoints", Error: msg},
			endpointsView{Reason: reason, ReasonFor: endpointKey(integrator, u)})
	}
	switch {
	case err != nil || integrator <= 0 || u == "":
		refuse(http.StatusBadRequest, "the form names no endpoint (an integrator and a URL)")
		return
	case reason == "":
		refuse(http.StatusUnprocessableEntity, "A reason is required: say why the endpoint is "+verb+"d (it is kept in the audit trail).")
		return
	}
	var (
		e      storage.WebhookEndpoint
		queued int
	)
	if verb == "pause" {
		e, err = c.cfg.Store.PauseEndpoint(r.Context(), integrator, u)
	} else {
		e, queued, err = c.cfg.Store.ResumeEndpoint(r.Context(), integrator, u, resumeMessage)
	}
	if errors.Is(err, storage.ErrNotFound) {
		refuse(http.StatusConflict, "integrator "+itoa(integrator)+"'s endpoint "+u+" was never paused: there is nothing to resume")
		return
	}
	var action storage.OperatorAction
	if err == nil {
		action, err = c.cfg.Store.RecordOperatorAction(r.Context(), storage.OperatorAction{Operator: c.cfg.Operator(r),
			Action: "endpoint." + verb, ResourceType: "webhook_endpoint", ResourceID: storage.EndpointResourceID(integrator, u), Reason: reason})
	}
	if err != nil {
		c.fail(rw, r, err)
		return
	}
	c.cfg.Log.Info("postback endpoint "+verb+"d from the console", "integrator", integrator, "url", u, "status", e.Status,
		"queued", queued, "operator", action.Operator, "action", action.ID)
	q := url.Values{"done": {verb}, "integrator": {itoa(integrator)}, "url": {u}, "status": {e.Status}, "action": {itoa(action.ID)}}
	if verb == "resume" {
		q.Set("queued", " ("+strconv.Itoa(queued)+" waiting postbacks queued, oldest first)")
	}
	http.Redirect(rw, r, "/console/endpoints?"+q.Encode(), http.StatusSeeOther)
}

// resumeMessage is the delivery of a postback that waited for its
// endpoint's resume, as pixgate postbacks resume builds it: its task id
// must be new (the queue keeps finished ones for a day, the postback's
// earlier ones among them), and a resume's millisecond is none of those.
func resumeMessage(p storage.Postback) storage.OutboxMessage {
	return storage.OutboxMessage(tasks.PostbackRedeliveryMessage(p.ID, time.Now()))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
