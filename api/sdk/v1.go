package pixgate

import (
	"context"
	"io"
	"iter"
	"net/http"

	"github.com/pixgate/pixgate/api/sdk/internal/gen"
)

// Balance is GET /api/v1/balance (scope balance:read).
func (c *Client) Balance(ctx context.Context) (*Balance, error) {
	return call[Balance](ctx, c, c.v1Auth(), c.gen.GetBalance)
}

// CreateCharge is POST /api/v1/charges (scope charges:write): a dynamic-QR
// charge whose BR Code is in QRCode. req.ExternalID is set when empty, so
// every attempt is the same charge.
func (c *Client) CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	ensureID(&req.ExternalID, "chg-")
	var ch Charge
	status, err := c.do(ctx, c.v1Auth(), withJSON(req, c.gen.CreateChargeWithBody), &ch)
	ch.Replayed = status == http.StatusOK
	return unlessErr(&ch, err)
}

// Charge is GET /api/v1/charges/{ref} (scope charges:read): ref is the
// charge's id or its external_id.
func (c *Client) Charge(ctx context.Context, ref string) (*Charge, error) {
	return call[Charge](ctx, c, c.v1Auth(), at(c.gen.GetCharge, ref))
}

// ListCharges is GET /api/v1/charges (scope charges:read): one page.
func (c *Client) ListCharges(ctx context.Context, p ListParams) (*Page[Charge], error) {
	var q gen.ListChargesParams
	q.PerPage, q.Status, q.Cursor = listParams[gen.ChargeStatus](p)
	return call[Page[Charge]](ctx, c, c.v1Auth(), at(c.gen.ListCharges, &q))
}

// AllCharges walks every page of the list from p on, one charge at a time;
// it stops at the first error, which it yields.
func (c *Client) AllCharges(ctx context.Context, p ListParams) iter.Seq2[Charge, error] {
	return all(ctx, p, c.ListCharges)
}

// CreateWithdrawal is POST /api/v1/withdrawals (scope withdrawals:write):
// amount + cash-out fee are reserved at once and the PIX is sent after.
// req.ExternalID is set when empty, so a retry never pays twice.
func (c *Client) CreateWithdrawal(ctx context.Context, req WithdrawalRequest) (*Withdrawal, error) {
	ensureID(&req.ExternalID, "wdr-")
	var w Withdrawal
	status, err := c.do(ctx, c.v1Auth(), withJSON(req, c.gen.CreateWithdrawalWithBody), &w)
	w.Replayed = status == http.StatusOK
	return unlessErr(&w, err)
}

// RefundCharge is POST /api/v1/charges/{ref}/refunds (scope
// refunds:write): part or all of a paid charge, named by its id or
// external_id, back to its payer. Like a withdrawal it pays the cash-out
// fee: amount + fee are reserved at once. req.PixID is not used;
// req.ExternalID is set when empty.
func (c *Client) RefundCharge(ctx context.Context, ref string, req RefundRequest) (*Refund, error) {
	req.PixID = ""
	ensureID(&req.ExternalID, "rfd-")
	var f Refund
	status, err := c.do(ctx, c.v1Auth(), withJSON(req, func(ctx context.Context, ct string, b io.Reader, e ...gen.RequestEditorFn) (*http.Response, error) {
		return c.gen.CreateChargeRefundWithBody(ctx, ref, ct, b, e...)
	}), &f)
	f.Replayed = status == http.StatusOK
	return unlessErr(&f, err)
}

// ChargeRefunds is GET /api/v1/charges/{ref}/refunds (scope charges:read):
// one page of the charge's refunds, newest first.
func (c *Client) ChargeRefunds(ctx context.Context, ref string, p ListParams) (*Page[Refund], error) {
	var q gen.ListChargeRefundsParams
	q.PerPage, q.Status, q.Cursor = listParams[gen.TransferStatus](p)
	return call[Page[Refund]](ctx, c, c.v1Auth(), at2(c.gen.ListChargeRefunds, ref, &q))
}

// Withdrawal is GET /api/v1/withdrawals/{ref} (scope withdrawals:read).
func (c *Client) Withdrawal(ctx context.Context, ref string) (*Withdrawal, error) {
	return call[Withdrawal](ctx, c, c.v1Auth(), at(c.gen.GetWithdrawal, ref))
}

// ListWithdrawals is GET /api/v1/withdrawals (scope withdrawals:read).
func (c *Client) ListWithdrawals(ctx context.Context, p ListParams) (*Page[Withdrawal], error) {
	var q gen.ListWithdrawalsParams
	q.PerPage, q.Status, q.Cursor = listParams[gen.TransferStatus](p)
	return call[Page[Withdrawal]](ctx, c, c.v1Auth(), at(c.gen.ListWithdrawals, &q))
}

// AllWithdrawals walks every page of the list from p on.
func (c *Client) AllWithdrawals(ctx context.Context, p ListParams) iter.Seq2[Withdrawal, error] {
	return all(ctx, p, c.ListWithdrawals)
}

// listParams are a generated list's parameters: zero values left out.
func listParams[S ~string](p ListParams) (perPage *int, status *S, cursor *string) {
	if p.PerPage > 0 {
		perPage = &p.PerPage
	}
	if p.Status != "" {
		s := S(p.Status)
		status = &s
	}
	if p.Cursor != "" {
		cursor = &p.Cursor
	}
	return perPage, status, cursor
}

func all[T any](ctx context.Context, p ListParams, list func(context.Context, ListParams) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			pg, err := list(ctx, p)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range pg.Data {
				if !yield(item, nil) {
					return
				}
			}
			if pg.Meta.NextCursor == "" {
				return
			}
			p.Cursor = pg.Meta.NextCursor
		}
	}
}

// unlessErr returns v, or nil and the error.
func unlessErr[T any](v *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}
