package api

import (
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// webhookEndpointView is one of the integrator's endpoints: a postbackUrl
// its postbacks went to, or one it paused before any did.
type webhookEndpointView struct {
	URL            string     `json:"url"`
	Status         string     `json:"status"`
	Reason         *string    `json:"reason"`
	ChangedAt      *timestamp `json:"changed_at"`
	LastSuccessAt  *timestamp `json:"last_success_at"`
	FailuresInARow int        `json:"failures_in_a_row"`
	Waiting        int        `json:"postbacks_waiting"`
}

// endpointChangeView is the answer of a pause or a resume: the endpoint's
// state and, for a resume, how many waiting postbacks were queued.
type endpointChangeView struct {
	URL       string    `json:"url"`
	Status    string    `json:"status"`
	Reason    *string   `json:"reason"`
	ChangedAt timestamp `json:"changed_at"`
	Queued    int       `json:"queued"`
}

// listWebhookEndpoints is GET /api/v1/webhook-endpoints: every endpoint of
// the integrator, by URL (few per integrator: not paged).
func (s *Server) listWebhookEndpoints(c *fiber.Ctx) error {
	list, err := s.deps.DB.EndpointSummaries(c.UserContext(), integratorIDOf(c))
	if err != nil {
		return err
	}
	out := struct {
		Data []webhookEndpointView `json:"data"`
	}{Data: make([]webhookEndpointView, len(list))}
	for i, e := range list {
		out.Data[i] = webhookEndpointView{URL: e.URL, Status: e.Status, Reason: e.Reason, ChangedAt: timePtr(e.ChangedAt),
			LastSuccessAt: timePtr(e.LastSuccessAt), FailuresInARow: e.FailuresInARow, Waiting: e.Waiting}
	}
	return c.JSON(out)
}

// pauseWebhookEndpoint is POST /api/v1/webhook-endpoints/pause {"url"}:
// the endpoint's postbacks wait PENDING until its resume, none lost nor
// counted failed. A URL with no postback yet may be paused too.
func (s *Server) pauseWebhookEndpoint(c *fiber.Ctx) error {
	u, err := endpointURL(c)
	if err != nil {
		return err
	}
	e, err := s.deps.DB.PauseEndpoint(c.UserContext(), integratorIDOf(c), u)
	if err != nil {
		return err
	}
	return c.JSON(endpointChangeView{URL: e.URL, Status: e.Status, Reason: e.Reason, ChangedAt: timestamp(e.ChangedAt)})
}

// resumeWebhookEndpoint is POST /api/v1/webhook-endpoints/resume {"url"}:
// a paused or disabled endpoint is ACTIVE again and its waiting postbacks
// are queued, oldest first (as `pixgate postbacks resume`). 404 for an
// endpoint never paused nor disabled.
func (s *Server) resumeWebhookEndpoint(c *fiber.Ctx) error {
	u, err := endpointURL(c)
	if err != nil {
		return err
	}
	e, n, err := s.deps.DB.ResumeEndpoint(c.UserContext(), integratorIDOf(c), u, redeliveryMessage)
	if err != nil {
		return err
	}
	return c.JSON(endpointChangeView{URL: e.URL, Status: e.Status, Reason: e.Reason, ChangedAt: timestamp(e.ChangedAt), Queued: n})
}

// endpointURL reads {"url"}: an absolute http(s) URL, as a postbackUrl is
// (the endpoint is named exactly as the integrator gave it).
func endpointURL(c *fiber.Ctx) (string, error) {
	body, err := decodeObject(c)
	if err != nil {
		return "", err
	}
	s, ok := body.requiredStr("url")
	if ok {
		u, err := url.Parse(s)
		switch {
		case len(s) > maxPostbackURLLen:
			body.errs.add("url", "must be at most %d characters", maxPostbackURLLen)
		case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || strings.ContainsFunc(s, unicode.IsSpace):
			body.errs.add("url", "must be an absolute http or https URL, a postbackUrl as it was given")
		}
	}
	return s, body.errs.err()
}

// redeliveryMessage is the delivery of a postback queued again (a resume
// or a replay). Its task id must be new: the queue keeps finished ones for
// a day, and the postback's earlier tasks may be among them; the
// millisecond of the request is none of those.
func redeliveryMessage(p storage.Postback) storage.OutboxMessage {
	return storage.OutboxMessage(tasks.PostbackRedeliveryMessage(p.ID, time.Now()))
}
