package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage/postbackevents"
)

// webhookEventView is one transactionType of the catalog and the statuses
// that send it.
type webhookEventView struct {
	TransactionType string                   `json:"transaction_type"`
	ResourceType    string                   `json:"resource_type"`
	Description     string                   `json:"description"`
	Statuses        []webhookEventStatusView `json:"statuses"`
}

type webhookEventStatusView struct {
	Status      string `json:"status"`
	Description string `json:"description"`
}

// webhookEventsBody is the catalog's answer, built once: it never changes
// while the process runs.
var webhookEventsBody = func() any {
	out := struct {
		Data []webhookEventView `json:"data"`
	}{Data: make([]webhookEventView, len(postbackevents.Catalog))}
	for i, t := range postbackevents.Catalog {
		v := webhookEventView{TransactionType: t.TransactionType, ResourceType: t.ResourceType, Description: t.Description,
			Statuses: make([]webhookEventStatusView, len(t.Statuses))}
		for j, s := range t.Statuses {
			v.Statuses[j] = webhookEventStatusView{Status: s.Name, Description: s.Description}
		}
		out.Data[i] = v
	}
	return out
}()

// listWebhookEvents is GET /api/v1/webhook-events: every transactionType
// PixGate posts, with the statuses that send it (docs/postbacks.md). The
// same for every account; not paged (a dozen entries).
func (s *Server) listWebhookEvents(c *fiber.Ctx) error {
	return c.JSON(webhookEventsBody)
}
