package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

// maxReplayRange bounds the postbacks one range replay redelivers: a
// larger range is refused whole (422), to be split.
const maxReplayRange = 10_000

// postbackStatuses are the values of the delivery log's status filter.
var postbackStatuses = statusNames(storage.PostbackStatuses)

// postbackLogParams are the parameters of the delivery log: every list's
// and its own filters.
var postbackLogParams = append(slices.Clone(listQueryParams), "event", "resource_type", "since", "until")

// postbackView is one postback of the delivery log.
type postbackView struct {
	ID             string     `json:"id"`
	ResourceType   string     `json:"resource_type"`
	ResourceID     string     `json:"resource_id"`
	Event          string     `json:"event"`
	URL            string     `json:"url"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	LastStatusCode *int       `json:"last_status_code"`
	LastError      *string    `json:"last_error"`
	NextAttemptAt  *timestamp `json:"next_attempt_at"`
	CreatedAt      timestamp  `json:"created_at"`
	DeliveredAt    *timestamp `json:"delivered_at"`
}

// postbackDetailView is one postback with what it sends and each attempt.
type postbackDetailView struct {
	postbackView
	Body        json.RawMessage       `json:"body"`
	AttemptList []postbackAttemptView `json:"attempt_list"`
}

type postbackAttemptView struct {
	Attempt    int       `json:"attempt"`
	StatusCode *int      `json:"status_code"`
	LatencyMS  int64     `json:"latency_ms"`
	Error      *string   `json:"error"`
	At         timestamp `json:"at"`
}

func viewPostback(p storage.Postback) postbackView {
	return postbackView{ID: p.ID.String(), ResourceType: p.ResourceType, ResourceID: p.ResourceID.String(), Event: p.Event,
		URL: p.URL, Status: string(p.Status), Attempts: p.Attempts, LastStatusCode: p.LastStatusCode, LastError: p.LastError,
		NextAttemptAt: timePtr(p.NextAttemptAt), CreatedAt: timestamp(p.CreatedAt), DeliveredAt: timePtr(p.DeliveredAt)}
}

// listPostbacks is GET /api/v1/postbacks: the integrator's delivery log,
// newest first, paged as every v1 list.
func (s *Server) listPostbacks(c *fiber.Ctx) error {
	f, err := postbackLogFilter(c)
	if err != nil {
		return err
	}
	items, more, err := s.deps.DB.PostbackLog(c.UserContext(), f)
	if err != nil {
		return err
	}
	return c.JSON(page(items, more, f.Limit, viewPostback, func(p storage.Postback) uuid.UUID { return p.ID }))
}

// postbackLogFilter reads the delivery log's query, every bad parameter
// at once.
func postbackLogFilter(c *fiber.Ctx) (storage.PostbackFilter, error) {
	var unknown []string
	c.Context().QueryArgs().VisitAll(func(key, _ []byte) {
		if k := string(key); !slices.Contains(postbackLogParams, k) && !slices.Contains(unknown, k) {
			unknown = append(unknown, k)
		}
	})
	var f storage.PostbackFilter
	p, err := parseListQuery(c.Query("per_page"), c.Query("status"), c.Query("cursor"), postbackStatuses)
	errs := newFieldErrors()
	if ae, ok := err.(*apiError); ok {
		for field, msgs := range ae.Fields {
			for _, m := range msgs {
				errs.add(field, "%s", m)
			}
		}
	}
	f.ListParams, f.IntegratorID = p, integratorIDOf(c)
	f.Event = strings.ToUpper(c.Query("event"))
	if len(f.Event) > 64 || strings.IndexFunc(f.Event, func(r rune) bool { return (r < 'A' || r > 'Z') && r != '_' }) >= 0 {
		errs.add("event", "must be an event name, letters and underscores (see GET /api/v1/webhook-events)")
	}
	if f.ResourceType = strings.ToLower(c.Query("resource_type")); f.ResourceType != "" && !slices.Contains(postbackResourceTypes, f.ResourceType) {
		errs.add("resource_type", "must be one of %s", strings.Join(postbackResourceTypes, ", "))
	}
	f.Since, f.Until = queryTime(errs, c, "since"), queryTime(errs, c, "until")
	for _, k := range unknown {
		errs.add(queryParamField(k), "is not a parameter of this list; it reads %s", strings.Join(postbackLogParams, ", "))
	}
	return f, errs.err()
}

// postbackResourceTypes are the records a postback is about.
var postbackResourceTypes = []string{"charge", "withdrawal", "refund", "med_return", "infraction", "recurrence", "recurrence_cycle", "recurrence_attempt", "payout_deadline"}

// queryTime reads an optional RFC 3339 time of the query.
func queryTime(errs *fieldErrors, c *fiber.Ctx, name string) *time.Time {
	v := c.Query(name)
	if v == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		errs.add(name, "must be a time, RFC 3339")
		return nil
	}
	return &t
}

// getPostback is GET /api/v1/postbacks/{id}: one postback, its body and
// each attempt. Another integrator's is 404.
func (s *Server) getPostback(c *fiber.Ctx) error {
	p, err := s.integratorPostback(c)
	if err != nil {
		return err
	}
	attempts, err := s.deps.DB.PostbackAttempts(c.UserContext(), p.ID)
	if err != nil {
		return err
	}
	v := postbackDetailView{postbackView: viewPostback(p), Body: json.RawMessage(p.Body), AttemptList: make([]postbackAttemptView, len(attempts))}
	for i, a := range attempts {
		v.AttemptList[i] = postbackAttemptView{Attempt: a.Attempt, StatusCode: a.StatusCode, LatencyMS: a.Latency.Milliseconds(),
			Error: a.Error, At: timestamp(a.CreatedAt)}
	}
	return c.JSON(v)
}

func (s *Server) integratorPostback(c *fiber.Ctx) (storage.Postback, error) {
	id, err := uuid.Parse(c.Params("id"))
	if err != nil {
		return storage.Postback{}, newError(http.StatusNotFound, codeNotFound, "No such record for this account.")
	}
	return s.deps.DB.IntegratorPostback(c.UserContext(), integratorIDOf(c), id)
}

// replayPostback is POST /api/v1/postbacks/{id}/replay: the same body
// under the same webhook-id, delivered again whatever its status (202).
// A paused or disabled endpoint's postback waits for its resume.
func (s *Server) replayPostback(c *fiber.Ctx) error {
	p, err := s.integratorPostback(c)
	if err != nil {
		return err
	}
	if p, err = s.deps.DB.RedeliverPostback(c.UserContext(), p.ID, redeliveryMessage(p)); err != nil {
		return err
	}
	return c.Status(http.StatusAccepted).JSON(viewPostback(p))
}

// replayPostbacks is POST /api/v1/postbacks/replay {"since","until"}:
// every postback of the integrator created in [since, until) delivered
// again, at most maxReplayRange of them (422 beyond, none redelivered).
func (s *Server) replayPostbacks(c *fiber.Ctx) error {
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	since, until := bodyTime(body, "since"), bodyTime(body, "until")
	if since != nil && until != nil && !since.Before(*until) {
		body.errs.add("until", "must be after since")
	}
	if err := body.errs.err(); err != nil {
		return err
	}
	n, err := s.deps.DB.RedeliverPostbackRange(c.UserContext(), integratorIDOf(c), *since, *until, maxReplayRange, redeliveryMessage)
	if err == storage.ErrTooManyPostbacks {
		msg := "the range holds more than 10000 postbacks; replay it in narrower ranges"
		return &apiError{Status: http.StatusUnprocessableEntity, Code: codeValidation, Message: "until " + msg,
			Fields: map[string][]string{"until": {msg}}}
	}
	if err != nil {
		return err
	}
	return c.Status(http.StatusAccepted).JSON(struct {
		Queued int `json:"queued"`
	}{n})
}

// bodyTime reads a required RFC 3339 time member.
func bodyTime(body object, name string) *time.Time {
	v, ok := body.requiredStr(name)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		body.errs.add(name, "must be a time, RFC 3339")
		return nil
	}
	return &t
}
