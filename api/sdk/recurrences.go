package pixgate

import (
	"context"
	"iter"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/api/sdk/internal/gen"
)

// RecurrenceRequest creates a Pix Automático recurrence: the payer's
// consent, given once in their bank's app, to be debited every cycle
// (PixGate's docs/recurrences.md).
type RecurrenceRequest struct {
	// ExternalID is the integrator's reference and PixGate's idempotency
	// key. Left empty, the client sets one ("rcr-" and 20 random
	// characters) before the first attempt.
	ExternalID string `json:"external_id"`
	// Journey is how the payer is asked: "QR" (a QR Code of the
	// recurrence) or "PUSH" (to their bank, by Payer.Bank), as the
	// account's providers offer them.
	Journey     string             `json:"journey"`
	Payer       RecurrencePayer    `json:"payer"`
	Contract    string             `json:"contract"`
	Description string             `json:"description,omitempty"`
	Calendar    RecurrenceCalendar `json:"calendar"`
	Amount      RecurrenceAmount   `json:"amount"`
	// RetryPolicy is "NONE" or "THREE_IN_7_DAYS".
	RetryPolicy string `json:"retry_policy"`
	// ConsentExpiresAt, when set, is sooner than the 30 days a consent
	// waits at most.
	ConsentExpiresAt *time.Time `json:"consent_expires_at,omitempty"`
	PostbackURL      string     `json:"postbackUrl,omitempty"`
	// FirstPayment is the QR_WITH_PAYMENT journey's first payment (cycle
	// 0, paid with the consent by the same QR Code).
	FirstPayment *FirstPayment `json:"first_payment,omitempty"`
}

// FirstPayment is a recurrence's first payment.
type FirstPayment struct {
	Amount Amount `json:"amount"`
}

// RecurrencePayer is who consents and pays; Bank only for the PUSH
// journey.
type RecurrencePayer struct {
	Name     string          `json:"name"`
	Document string          `json:"document"`
	Email    string          `json:"email,omitempty"`
	Bank     *RecurrenceBank `json:"bank,omitempty"`
}

// RecurrenceBank is the payer's account a pushed consent request goes to.
type RecurrenceBank struct {
	ISPB    string `json:"ispb"`
	Branch  string `json:"branch"`
	Account string `json:"account"`
}

// RecurrenceCalendar is when its cycles fall due: Periodicity "WEEKLY",
// "MONTHLY", "QUARTERLY", "SEMIANNUAL" or "ANNUAL" from Start
// (YYYY-MM-DD), until End or for Count cycles (neither: no end).
type RecurrenceCalendar struct {
	Periodicity string `json:"periodicity"`
	Start       string `json:"start"`
	End         string `json:"end,omitempty"`
	Count       int    `json:"count,omitempty"`
}

// RecurrenceAmount is Type "fixed" with Value, or "variable" with an
// optional Floor.
type RecurrenceAmount struct {
	Type  string  `json:"type"`
	Value *Amount `json:"value,omitempty"`
	Floor *Amount `json:"floor,omitempty"`
}

// Recurrence is a v1 recurrence record.
type Recurrence struct {
	ID         string `json:"id"`
	ExternalID string `json:"external_id"`
	Status     string `json:"status"`
	Journey    string `json:"journey"`
	ProviderID string `json:"provider_id"`
	QRCode     string `json:"qrcode"`
	// FirstCharge is the first payment's charge (QR_WITH_PAYMENT), read
	// whole with Charge.
	FirstCharge      *FirstCharge       `json:"first_charge"`
	Payer            RecurrencePayer    `json:"payer"`
	Contract         string             `json:"contract"`
	Description      string             `json:"description"`
	Calendar         RecurrenceCalendar `json:"calendar"`
	Amount           RecurrenceAmount   `json:"amount"`
	PayerMax         *Amount            `json:"payer_max"`
	RetryPolicy      string             `json:"retry_policy"`
	ConsentExpiresAt time.Time          `json:"consent_expires_at"`
	CancelledBy      string             `json:"cancelled_by"`
	EndCode          string             `json:"end_code"`
	EndReason        string             `json:"end_reason"`
	FailureReason    string             `json:"failure_reason"`
	PostbackURL      string             `json:"postbackUrl"`
	Provider         string             `json:"provider"`
	CreatedAt        time.Time          `json:"created_at"`
	UpdatedAt        time.Time          `json:"updated_at"`
	ApprovedAt       *time.Time         `json:"approved_at"`
	EndedAt          *time.Time         `json:"ended_at"`
	// Replayed is true when the create was answered with an existing
	// recurrence (the same request made before with this external_id).
	Replayed bool `json:"-"`
}

// Recurrence statuses.
const (
	RecurrenceCreated   = "CREATED"
	RecurrenceApproved  = "APPROVED"
	RecurrenceRejected  = "REJECTED"
	RecurrenceExpired   = "EXPIRED"
	RecurrenceCancelled = "CANCELLED"
	RecurrenceCompleted = "COMPLETED"
	RecurrenceFailed    = "FAILED"
)

// CreateRecurrence is POST /api/v1/recurrences (scope recurrences:write):
// registered at the provider while the request waits, CREATED, with the
// QR Code the payer reads for the QR journey. req.ExternalID is set when
// empty, so every attempt is the same recurrence.
func (c *Client) CreateRecurrence(ctx context.Context, req RecurrenceRequest) (*Recurrence, error) {
	ensureID(&req.ExternalID, "rcr-")
	var r Recurrence
	status, err := c.do(ctx, c.v1Auth(), withJSON(req, c.gen.CreateRecurrenceWithBody), &r)
	r.Replayed = status == http.StatusOK
	return unlessErr(&r, err)
}

// Recurrence is GET /api/v1/recurrences/{ref} (scope recurrences:read): ref
// is the recurrence's id or its external_id.
func (c *Client) Recurrence(ctx context.Context, ref string) (*Recurrence, error) {
	return call[Recurrence](ctx, c, c.v1Auth(), at(c.gen.GetRecurrence, ref))
}

// ListRecurrences is GET /api/v1/recurrences (scope recurrences:read): one
// page, newest first.
func (c *Client) ListRecurrences(ctx context.Context, p ListParams) (*Page[Recurrence], error) {
	var q gen.ListRecurrencesParams
	q.PerPage, q.Status, q.Cursor = listParams[gen.ListRecurrencesParamsStatus](p)
	return call[Page[Recurrence]](ctx, c, c.v1Auth(), at(c.gen.ListRecurrences, &q))
}

// AllRecurrences walks every page of the list from p on.
func (c *Client) AllRecurrences(ctx context.Context, p ListParams) iter.Seq2[Recurrence, error] {
	return all(ctx, p, c.ListRecurrences)
}

// CancelRecurrence is POST /api/v1/recurrences/{ref}/cancel (scope
// recurrences:write): cancelled at the provider at once; the record
// answered is as it stands, and the CANCELLED postback tells when PixGate
// recorded it.
func (c *Client) CancelRecurrence(ctx context.Context, ref string) (*Recurrence, error) {
	return call[Recurrence](ctx, c, c.v1Auth(), at(c.gen.CancelRecurrence, ref))
}
