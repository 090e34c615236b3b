package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
)

// maxChargeBatch is how many charges one batch creates (PixGate's choice:
// a hundred provider calls, four at a time, stay within a request's time).
const (
	maxChargeBatch       = 100
	chargeBatchInFlight  = 4
	chargesBatchMember   = "charges"
	chargeBatchItemsRule = "must be an array of 1 to %d charge requests"
)

// batchItem is one charge's outcome in a batch: its HTTP status as POST
// /api/v1/charges would have answered it, and the charge or the error.
type batchItem struct {
	Index  int         `json:"index"`
	Status int         `json:"status"`
	Charge *chargeView `json:"charge"`
	Error  *errorBody  `json:"error"`
}

// createChargeBatch is POST /api/v1/charges/batch: up to maxChargeBatch
// charges (due-date or immediate), each as POST /api/v1/charges takes it.
// Every item is validated before any is created: one invalid item is a
// 422 naming it (charges[3].amount) and nothing is created. Then each is
// created on its own, idempotent by its external_id as a single create,
// so a batch sent again creates nothing twice; the answer (200) gives each
// item's status and charge or error, in order.
func (s *Server) createChargeBatch(c *fiber.Ctx) error {
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	reqs, err := s.parseChargeBatch(body)
	if err != nil {
		return err
	}
	in := integratorOf(c)
	out := make([]batchItem, len(reqs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, chargeBatchInFlight)
	for i, r := range reqs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			ch, created, err := s.payments.CreateCharge(c.UserContext(), in, r)
			out[i] = batchItem{Index: i}
			if err != nil {
				ae := s.toAPIError(err)
				if ae.Code == codeInternal {
					s.log.Error("batch charge failed", "request_id", requestIDOf(c), "index", i, "error", err)
				}
				out[i].Status, out[i].Error = ae.Status, &errorBody{StatusCode: ae.Status, Code: ae.Code, Message: ae.Message, Errors: ae.Fields, RequestID: requestIDOf(c)}
				return
			}
			v := s.viewCharge(ch)
			out[i].Status, out[i].Charge = createdStatus(created), &v
		}()
	}
	wg.Wait()
	return c.Status(http.StatusOK).JSON(fiber.Map{"data": out})
}

// parseChargeBatch reads every item of charges, each as a charge request,
// its problems named below charges[i].
func (s *Server) parseChargeBatch(body object) ([]payments.ChargeRequest, error) {
	raw, ok := body.raw(chargesBatchMember)
	var items []json.RawMessage
	if !ok || raw[0] != '[' || json.Unmarshal(raw, &items) != nil || len(items) == 0 || len(items) > maxChargeBatch {
		body.errs.add(body.path(chargesBatchMember), chargeBatchItemsRule, maxChargeBatch)
		return nil, body.errs.err()
	}
	reqs := make([]payments.ChargeRequest, len(items))
	for i, item := range items {
		name := fmt.Sprintf("%s[%d]", chargesBatchMember, i)
		holder := object{ctx: body.ctx, m: map[string]json.RawMessage{name: item}, errs: body.errs}
		o, ok := holder.requiredObject(name)
		if !ok {
			continue
		}
		// Its error is every item's so far: it is read once all are parsed.
		reqs[i], _ = s.parseChargeRequest(o)
	}
	if err := body.errs.err(); err != nil {
		return nil, err
	}
	return reqs, nil
}
