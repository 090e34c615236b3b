package pixgate

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/api/sdk/internal/gen"
)

// FirstCharge is a recurrence's first payment as its charge stands.
type FirstCharge struct {
	ID     string `json:"id"`
	PixID  string `json:"pix_id"`
	Status string `json:"status"`
	Amount Amount `json:"amount"`
}

// Cycle is one cycle of a recurrence: its due date and amount, its status
// ("SCHEDULED", "CREATED", "ACTIVE", "PAID", "EXPIRED", "REJECTED",
// "CANCELLED", "FAILED"), the charge that carries its payment once sent,
// and its attempts.
type Cycle struct {
	ID            string         `json:"id"`
	RecurrenceID  string         `json:"recurrence_id"`
	N             int            `json:"n"`
	DueDate       string         `json:"due_date"`
	Amount        Amount         `json:"amount"`
	Fee           *Amount        `json:"fee"`
	NetAmount     *Amount        `json:"net_amount"`
	Status        string         `json:"status"`
	ChargeID      string         `json:"charge_id"`
	ProviderID    string         `json:"provider_id"`
	SendOn        string         `json:"send_on"`
	Retries       int            `json:"retries"`
	RejectionCode string         `json:"rejection_code"`
	CancelledBy   string         `json:"cancelled_by"`
	FailureReason string         `json:"failure_reason"`
	EndToEndID    string         `json:"end_to_end_id"`
	Attempts      []CycleAttempt `json:"attempts"`
	CreatedAt     time.Time      `json:"created_at"`
	UpdatedAt     time.Time      `json:"updated_at"`
	PaidAt        *time.Time     `json:"paid_at"`
}

// CycleAttempt is one try at settling a cycle: Kind "AGND" (on the due
// date) or "NTAG" (a retry).
type CycleAttempt struct {
	Kind          string    `json:"kind"`
	SettleOn      string    `json:"settle_on"`
	Status        string    `json:"status"`
	RejectionCode string    `json:"rejection_code"`
	EndToEndID    string    `json:"end_to_end_id"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// Cycles is GET /api/v1/recurrences/{ref}/cycles (scope recurrences:read):
// the cycles PixGate holds of the recurrence, oldest first.
func (c *Client) Cycles(ctx context.Context, ref string) ([]Cycle, error) {
	var out struct {
		Items []Cycle `json:"items"`
	}
	_, err := c.do(ctx, c.v1Auth(), at(c.gen.ListCycles, ref), &out)
	return out.Items, err
}

// Cycle is GET /api/v1/recurrences/{ref}/cycles/{n}.
func (c *Client) Cycle(ctx context.Context, ref string, n int) (*Cycle, error) {
	return call[Cycle](ctx, c, c.v1Auth(), at2(c.gen.GetCycle, ref, n))
}

// SetCycleAmount is PUT /api/v1/recurrences/{ref}/cycles/{n} (scope
// recurrences:write): a variable recurrence's cycle amount, until its
// window closes; the cycle is scheduled with it.
func (c *Client) SetCycleAmount(ctx context.Context, ref string, n int, amount Amount) (*Cycle, error) {
	body := map[string]Amount{"amount": amount}
	return call[Cycle](ctx, c, c.v1Auth(), withJSON(body, func(ctx context.Context, ct string, b io.Reader, e ...gen.RequestEditorFn) (*http.Response, error) {
		return c.gen.SetCycleAmountWithBody(ctx, ref, n, ct, b, e...)
	}))
}

// CancelCycle is POST /api/v1/recurrences/{ref}/cycles/{n}/cancel (scope
// recurrences:write): a cycle not yet sent is cancelled at once; one sent
// is cancelled at the provider, and the answer is the cycle as it stands
// (the CANCELLED postback tells when PixGate recorded it).
func (c *Client) CancelCycle(ctx context.Context, ref string, n int) (*Cycle, error) {
	return call[Cycle](ctx, c, c.v1Auth(), at2(c.gen.CancelCycle, ref, n))
}
