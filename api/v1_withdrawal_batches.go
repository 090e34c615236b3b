package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// maxWithdrawalBatch is how many withdrawals one batch creates.
const (
	maxWithdrawalBatch    = 10_000
	batchItemsMember      = "items"
	batchItemsRule        = "must be an array of 1 to %d withdrawal requests"
	mimeCSV               = "text/csv"
	batchPath             = "/api/v1/withdrawals/batches"
	batchCSVPath          = batchPath + "/csv"
	DefaultBatchBodyLimit = 8 << 20
)

// batchView is a withdrawal batch with its totals.
type batchView struct {
	ID                string      `json:"id"`
	ExternalID        string      `json:"external_id"`
	Status            string      `json:"status"`
	Count             int         `json:"count"`
	Amount            money.Money `json:"amount"`
	Fee               money.Money `json:"fee"`
	Total             money.Money `json:"total"`
	Completed         int         `json:"completed"`
	Failed            int         `json:"failed"`
	Processing        int         `json:"processing"`
	CompletedAmount   money.Money `json:"completed_amount"`
	FailedAmount      money.Money `json:"failed_amount"`
	ProcessingAmount  money.Money `json:"processing_amount"`
	PostbackURL       *string     `json:"postbackUrl"`
	RejectionReason   *string     `json:"rejection_reason"`
	ApprovalExpiresAt *timestamp  `json:"approval_expires_at"`
	CreatedAt         timestamp   `json:"created_at"`
	UpdatedAt         timestamp   `json:"updated_at"`
	FinishedAt        *timestamp  `json:"finished_at"`
}

func viewBatch(b storage.WithdrawalBatch) batchView {
	return batchView{ID: b.ID.String(), ExternalID: b.ExternalID, Status: b.Status, Count: b.Count,
		Amount: b.Amount, Fee: b.Fee, Total: b.Amount + b.Fee, Completed: b.Completed, Failed: b.Failed, Processing: b.Processing,
		CompletedAmount: b.CompletedAmount, FailedAmount: b.FailedAmount, ProcessingAmount: b.InProgress,
		PostbackURL: b.PostbackURL, RejectionReason: b.RejectionReason, ApprovalExpiresAt: timePtr(b.ApprovalExpiresAt),
		CreatedAt: timestamp(b.CreatedAt), UpdatedAt: timestamp(b.UpdatedAt), FinishedAt: timePtr(b.FinishedAt)}
}

// createWithdrawalBatch is POST /api/v1/withdrawals/batches: up to
// maxWithdrawalBatch withdrawals as JSON ({"external_id", "postbackUrl",
// "items": [...]}, each item as POST /api/v1/withdrawals takes it). The
// whole batch is validated first: any bad item is a 422 naming each
// (items[17].creditParty.key) and nothing is written. Then one SQL
// transaction reserves and creates them all, or nothing when the wallet
// does not cover them (422 insufficient_funds). 201 with the batch; 200
// for a replay.
func (s *Server) createWithdrawalBatch(c *fiber.Ctx) error {
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	r, err := s.parseBatchJSON(body)
	if err != nil {
		return err
	}
	return s.createBatch(c, r, func(i int) string { return fmt.Sprintf("%s[%d].external_id", batchItemsMember, i) })
}

// createWithdrawalBatchCSV is POST /api/v1/withdrawals/batches/csv: the
// same batch as a CSV upload (text/csv; the batch's external_id and
// postbackUrl in the query), its problems named by line ("line 19: key").
func (s *Server) createWithdrawalBatchCSV(c *fiber.Ctx) error {
	mt, params, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	cs, named := params["charset"]
	if err != nil || mt != mimeCSV || named && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return newError(http.StatusUnsupportedMediaType, codeUnsupportedMedia, `Send the batch as CSV with "Content-Type: text/csv" (UTF-8).`)
	}
	r, err := s.parseBatchCSV(c)
	if err != nil {
		return err
	}
	return s.createBatch(c, r, func(i int) string { return fmt.Sprintf("line %d: external_id", i+2) })
}

// createBatch creates a parsed batch as the request's key; itemField
// names an item's external_id in a refusal.
func (s *Server) createBatch(c *fiber.Ctx, r payments.BatchRequest, itemField func(int) string) error {
	key, _ := apiKeyOf(c)
	r.CreatedBy = key.ID
	b, created, err := s.payments.CreateBatch(c.UserContext(), integratorOf(c), r)
	if err != nil {
		return batchError(err, itemField)
	}
	return c.Status(createdStatus(created)).JSON(viewBatch(b))
}

// batchError names the items a batch's refusal is about.
func batchError(err error, itemField func(int) string) error {
	var (
		conflict *storage.BatchItemConflictError
		insf     *ledger.InsufficientFundsError
	)
	switch {
	case errors.As(err, &conflict):
		fields := map[string][]string{}
		for _, i := range conflict.Items {
			fields[itemField(i)] = []string{"was already used by a withdrawal with a different request"}
		}
		return &apiError{Status: http.StatusConflict, Code: codeIdempotency, Fields: fields,
			Message: fmt.Sprintf("%d items reuse the external_id of an earlier withdrawal made with a different request; nothing was created.", len(conflict.Items))}
	case errors.As(err, &insf):
		return &apiError{Status: http.StatusUnprocessableEntity, Code: codeInsufficientFunds,
			Message: fmt.Sprintf("Insufficient funds: available balance is R$ %s, this batch needs R$ %s (amounts plus fees); nothing was reserved.", insf.Balance, insf.Requested),
			Fields:  map[string][]string{batchItemsMember: {fmt.Sprintf("with their fees (R$ %s) exceed the available balance (R$ %s)", insf.Requested, insf.Balance)}}}
	}
	return err
}

// parseBatchJSON reads the batch's external_id, postbackUrl and items,
// each item as a withdrawal request, its problems named below items[i].
func (s *Server) parseBatchJSON(body object) (payments.BatchRequest, error) {
	var r payments.BatchRequest
	if ext, _ := body.externalID(); ext != nil {
		r.ExternalID = *ext
	} else if !body.errs.has(body.path("external_id")) {
		body.errs.add(body.path("external_id"), "is required")
	}
	r.PostbackURL = body.postbackURL(s.cfg.AllowHTTPPostbacks, s.cfg.PostbackURLPolicy)
	raw, ok := body.raw(batchItemsMember)
	var items []json.RawMessage
	if !ok || raw[0] != '[' || json.Unmarshal(raw, &items) != nil || len(items) == 0 || len(items) > maxWithdrawalBatch {
		body.errs.add(body.path(batchItemsMember), batchItemsRule, maxWithdrawalBatch)
		return r, body.errs.err()
	}
	r.Items = make([]payments.WithdrawalRequest, len(items))
	seen := make(map[string]int, len(items))
	for i, item := range items {
		name := fmt.Sprintf("%s[%d]", batchItemsMember, i)
		holder := object{ctx: body.ctx, m: map[string]json.RawMessage{name: item}, errs: body.errs}
		o, ok := holder.requiredObject(name)
		if !ok {
			continue
		}
		if _, present := o.raw("external_id"); !present {
			o.errs.add(o.path("external_id"), "is required: each item is a withdrawal of its own, idempotent by its external_id")
		}
		// Its error is every item's so far: it is read once all are parsed.
		r.Items[i], _ = s.parseWithdrawalRequest(o)
		var ext string
		if raw, ok := o.raw("external_id"); ok && json.Unmarshal(raw, &ext) == nil && ext != "" {
			if j, dup := seen[ext]; dup {
				o.errs.add(o.path("external_id"), "repeats the external_id of %s[%d]", batchItemsMember, j)
			} else {
				seen[ext] = i
			}
		}
	}
	if err := body.errs.err(); err != nil {
		return payments.BatchRequest{}, err
	}
	return r, nil
}

// getWithdrawalBatch is GET /api/v1/withdrawals/batches/{id or
// external_id}: the batch with its totals.
func (s *Server) getWithdrawalBatch(c *fiber.Ctx) error {
	b, err := s.batchOf(c)
	if err != nil {
		return err
	}
	return c.JSON(viewBatch(b))
}

// listWithdrawalBatchItems is GET /api/v1/withdrawals/batches/{id}/items:
// the batch's withdrawals, newest first, paged as GET
// /api/v1/withdrawals.
func (s *Server) listWithdrawalBatchItems(c *fiber.Ctx) error {
	p, err := listParams(c, withdrawalStatuses)
	if err != nil {
		return err
	}
	b, err := s.batchOf(c)
	if err != nil {
		return err
	}
	p.BatchID = &b.ID
	items, more, err := s.payments.BatchItems(c.UserContext(), p)
	if err != nil {
		return err
	}
	return c.JSON(page(items, more, p.Limit, viewWithdrawal, func(w storage.Transfer) uuid.UUID { return w.ID }))
}

// batchOf is the batch the path names, the integrator's own.
func (s *Server) batchOf(c *fiber.Ctx) (storage.WithdrawalBatch, error) {
	ref, err := pathRef(c, "batch")
	if err != nil {
		return storage.WithdrawalBatch{}, err
	}
	return s.payments.Batch(c.UserContext(), integratorOf(c), ref)
}

// headerReceived lets the body of a batch's create, and only it, be as
// large as BatchBodyLimit: every other request keeps BodyLimit, refused
// from its declared Content-Length before its body is read.
func (s *Server) headerReceived(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	if isBatchCreate(string(h.Method()), string(h.RequestURI())) {
		return fasthttp.RequestConfig{MaxRequestBodySize: s.cfg.BatchBodyLimit}
	}
	return fasthttp.RequestConfig{}
}

// isBatchCreate says whether the request line is POST
// /api/v1/withdrawals/batches or …/batches/csv, as the router matches it (any case, one
// trailing slash, any query).
func isBatchCreate(method, uri string) bool {
	path, _, _ := strings.Cut(uri, "?")
	path = strings.TrimSuffix(path, "/")
	return method == fiber.MethodPost && (strings.EqualFold(path, batchPath) || strings.EqualFold(path, batchCSVPath))
}

// bodyLimit is the largest body the request's route takes.
func (s *Server) bodyLimit(c *fiber.Ctx) int {
	if isBatchCreate(c.Method(), c.OriginalURL()) {
		return s.cfg.BatchBodyLimit
	}
	return s.cfg.BodyLimit
}
