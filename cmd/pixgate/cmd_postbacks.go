package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// postbackView is a postback as operators see it. The body is shown only by
// `show`, and the URL is the integrator's (its query string may hold their
// own token), which operators need to diagnose deliveries.
type postbackView struct {
	ID             uuid.UUID     `json:"id"`
	IntegratorID   int64         `json:"integrator_id"`
	Resource       string        `json:"resource"`
	ResourceID     uuid.UUID     `json:"resource_id"`
	ExternalID     *string       `json:"external_id"`
	Event          string        `json:"event"`
	URL            string        `json:"url"`
	Status         string        `json:"status"`
	Attempts       int           `json:"attempts"`
	LastStatusCode *int          `json:"last_status_code"`
	LastError      *string       `json:"last_error"`
	NextAttemptAt  *time.Time    `json:"next_attempt_at"`
	CreatedAt      time.Time     `json:"created_at"`
	DeliveredAt    *time.Time    `json:"delivered_at"`
	Body           *string       `json:"body,omitempty"`
	AttemptList    []attemptView `json:"attempt_list,omitempty"`
}

type attemptView struct {
	Attempt    int       `json:"attempt"`
	StatusCode *int      `json:"status_code"`
	LatencyMS  int64     `json:"latency_ms"`
	Error      *string   `json:"error"`
	At         time.Time `json:"at"`
}

func viewPostback(p storage.Postback) postbackView {
	return postbackView{ID: p.ID, IntegratorID: p.IntegratorID, Resource: p.ResourceType, ResourceID: p.ResourceID,
		ExternalID: postbackExternalID(p.Body),
		Event:      p.Event, URL: p.URL, Status: string(p.Status), Attempts: p.Attempts, LastStatusCode: p.LastStatusCode,
		LastError: p.LastError, NextAttemptAt: p.NextAttemptAt, CreatedAt: p.CreatedAt, DeliveredAt: p.DeliveredAt}
}

func (c *cli) postbacksCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "postbacks", Short: "List, inspect and redeliver postbacks to integrators"}
	cmd.AddCommand(c.postbacksListCommand(), c.postbacksShowCommand(), c.postbacksRedeliverCommand(),
		c.postbacksPauseCommand(), c.postbacksResumeCommand())
	return cmd
}

func (c *cli) postbacksListCommand() *cobra.Command {
	var (
		integrator int64
		limit      int
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List an integrator's latest postbacks, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 1 || limit > 1000 {
				return fmt.Errorf("--limit must be between 1 and 1000")
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				if err := requireIntegrator(cmd.Context(), db, integrator); err != nil {
					return err
				}
				list, err := db.ListPostbacks(cmd.Context(), integrator, limit)
				if err != nil {
					return err
				}
				views := make([]postbackView, len(list))
				for i, p := range list {
					views[i] = viewPostback(p)
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"postbacks": views})
				}
				if len(list) == 0 {
					c.printf("no postbacks for integrator %d: one is sent when a charge, withdrawal or refund that named a postbackUrl changes status\n", integrator)
					return nil
				}
				tw := table(c.stdout)
				c.printfTo(tw, "ID\tRESOURCE\tEXTERNAL ID\tEVENT\tSTATUS\tATTEMPTS\tLAST CODE\tNEXT ATTEMPT\tCREATED\n")
				for _, p := range list {
					c.printfTo(tw, "%s\t%s %s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", p.ID, p.ResourceType, p.ResourceID,
						orDash(deref(postbackExternalID(p.Body))), p.Event, p.Status, p.Attempts, codeText(p.LastStatusCode),
						timeText(p.NextAttemptAt), p.CreatedAt.Format(timeLayout))
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	cmd.Flags().IntVar(&limit, "limit", 50, "how many postbacks to show")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("integrator")
	return cmd
}

func (c *cli) postbacksShowCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one postback, its body and every delivery attempt",
		Args:  oneArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := uuid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("postback id %q is not a UUID", args[0])
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				p, err := db.Postback(cmd.Context(), id)
				if err != nil {
					return notFound("postback", id, err)
				}
				attempts, err := db.PostbackAttempts(cmd.Context(), id)
				if err != nil {
					return err
				}
				v := viewPostback(p)
				body := string(p.Body)
				v.Body = &body
				for _, a := range attempts {
					v.AttemptList = append(v.AttemptList, attemptView{Attempt: a.Attempt, StatusCode: a.StatusCode,
						LatencyMS: a.Latency.Milliseconds(), Error: a.Error, At: a.CreatedAt})
				}
				if asJSON {
					return printJSON(c.stdout, v)
				}
				c.printPostback(p)
				c.printf("  body            %s\n\n", body)
				if len(attempts) == 0 {
					c.printf("no delivery attempt yet: a running worker makes the first shortly after the postback is created\n")
					return nil
				}
				tw := table(c.stdout)
				c.printfTo(tw, "ATTEMPT\tAT\tSTATUS CODE\tLATENCY\tERROR\n")
				for _, a := range attempts {
					errText := ""
					if a.Error != nil {
						errText = *a.Error
					}
					c.printfTo(tw, "%d\t%s\t%s\t%dms\t%s\n", a.Attempt, a.CreatedAt.Format(timeLayout), codeText(a.StatusCode),
						a.Latency.Milliseconds(), orDash(errText))
				}
				return tw.Flush()
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func (c *cli) postbacksRedeliverCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "redeliver ID",
		Short: "Deliver a postback again, whatever its status, with the same body and webhook-id",
		Long: `Put a postback back to PENDING and queue its delivery through the outbox (a
running worker sends it within a second). It gets at least one attempt; if that
fails it is retried on the usual schedule while it is younger than the
postback maximum age, and given up otherwise.`,
		Args: oneArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := uuid.Parse(args[0])
			if err != nil {
				return fmt.Errorf("postback id %q is not a UUID", args[0])
			}
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				p, err := db.Postback(cmd.Context(), id)
				if err != nil {
					return notFound("postback", id, err)
				}
				// A task id not used before: the queue keeps finished task ids
				// for a day and would refuse the first one again.
				msg := tasks.PostbackDeliverMessage(id, p.Attempts+1)
				p, err = db.RedeliverPostback(cmd.Context(), id, storage.OutboxMessage(msg))
				if err != nil {
					return notFound("postback", id, err)
				}
				if asJSON {
					return printJSON(c.stdout, viewPostback(p))
				}
				c.printf("postback %s queued for redelivery\n", id)
				c.printPostback(p)
				return nil
			})
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

func (c *cli) printPostback(p storage.Postback) {
	c.printf("postback %s\n  integrator      %d\n  resource        %s %s\n  external id     %s\n  event           %s\n  url             %s\n",
		p.ID, p.IntegratorID, p.ResourceType, p.ResourceID, orDash(deref(postbackExternalID(p.Body))), p.Event, p.URL)
	c.printf("  status          %s after %d attempt(s), last code %s\n  next attempt    %s\n  created         %s\n",
		p.Status, p.Attempts, codeText(p.LastStatusCode), timeText(p.NextAttemptAt), p.CreatedAt.Format(timeLayout))
	if p.LastError != nil {
		c.printf("  last error      %s\n", *p.LastError)
	}
}

func codeText(code *int) string {
	if code == nil {
		return "-"
	}
	return strconv.Itoa(*code)
}

func timeText(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.Format(timeLayout)
}

// postbackExternalID is the integrator's external_id of the record a
// postback is about, as its body carries it (nil when it has none).
func postbackExternalID(body []byte) *string {
	var b struct {
		RequestBody struct {
			ExternalID *string `json:"external_id"`
		} `json:"requestBody"`
	}
	if json.Unmarshal(body, &b) != nil {
		return nil
	}
	return b.RequestBody.ExternalID
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (c *cli) postbacksPauseCommand() *cobra.Command {
	return c.endpointCommand("pause", "Hold an integrator's endpoint: its postbacks wait PENDING, none is lost nor counted failed",
		func(cmd *cobra.Command, db *storage.DB, integrator int64, url string) (storage.WebhookEndpoint, int, error) {
			e, err := db.PauseEndpoint(cmd.Context(), integrator, url)
			return e, 0, err
		})
}

func (c *cli) postbacksResumeCommand() *cobra.Command {
	return c.endpointCommand("resume", "Deliver a paused or disabled endpoint's postbacks again, those that waited first, oldest first",
		func(cmd *cobra.Command, db *storage.DB, integrator int64, url string) (storage.WebhookEndpoint, int, error) {
			e, n, err := db.ResumeEndpoint(cmd.Context(), integrator, url, resumeMessage)
			if err != nil {
				return e, n, fmt.Errorf("integrator %d's endpoint %s: %w (only a paused or disabled endpoint is resumed)", integrator, url, err)
			}
			return e, n, nil
		})
}

// resumeMessage is the delivery of a postback that waited for its
// endpoint's resume. Its task id must be new: the queue keeps finished ones
// for a day, and the postback's earlier tasks (the first, a redelivery's
// attempts+1, the reconciler's slots) may be among them. A resume's
// millisecond is none of those.
func resumeMessage(p storage.Postback) storage.OutboxMessage {
	return storage.OutboxMessage(tasks.PostbackRedeliveryMessage(p.ID, time.Now()))
}

// endpointCommand is pause or resume: both take --integrator and --url and
// print the endpoint.
func (c *cli) endpointCommand(use, short string,
	act func(*cobra.Command, *storage.DB, int64, string) (storage.WebhookEndpoint, int, error)) *cobra.Command {
	var (
		integrator int64
		url        string
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use: use, Short: short, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withDB(cmd.Context(), func(db *storage.DB) error {
				if err := requireIntegrator(cmd.Context(), db, integrator); err != nil {
					return err
				}
				e, queued, err := act(cmd, db, integrator, url)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(c.stdout, map[string]any{"integrator_id": e.IntegratorID, "url": e.URL,
						"status": e.Status, "changed_at": e.ChangedAt, "queued": queued})
				}
				c.printf("integrator %d's endpoint %s is %s", e.IntegratorID, e.URL, e.Status)
				if use == "resume" {
					c.printf("; %d waiting postback(s) queued, oldest first", queued)
				}
				c.printf("\n")
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&integrator, "integrator", 0, "integrator id (required)")
	cmd.Flags().StringVar(&url, "url", "", "the endpoint: a postbackUrl exactly as the integrator gave it (required)")
	addJSONFlag(cmd, &asJSON)
	_ = cmd.MarkFlagRequired("integrator")
	_ = cmd.MarkFlagRequired("url")
	return cmd
}
