package sandbox

import (
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// The woovi face's Pix Automático cycles: a subscription's installments,
// one per due date of its calendar, each with the stable globalID
// installmentID gives it; the manual cobr route makes an installment's
// cobr as the core's cycle whose record id is that globalID, retried by
// the core itself (Woovi asks the retries, autoRetry), moved by the
// payer's-bank controls (/sandbox/cycles/{id}/…, the globalID as {id}) and
// rendered in Woovi's names (woovi_cobr_render.go). Woovi's own cobr,
// made from 4 days before the day of an installment that has none, is
// made too (woovi_own.go).

// Woovi's manual cobr is made "entre 5 a 10 dias antes da data cobrança"
// ([Woovi-Manual]); the core's window (10 days before) refuses earlier.
const wooviCobrLastDay = 5

// wooviInstallmentsAhead is how far ahead of the sandbox's day the
// installments are listed: every one due by then, and the next.
const wooviInstallmentsAhead = 10

// wooviInstallmentPage is a page of the installments' list; maxListed
// bounds it for a calendar without end.
const (
	wooviInstallmentPage = 100
	wooviMaxListed       = 1000
)

// installmentID is the globalID of installment n of subscription sub, as
// Woovi writes one: the base64 of "PaymentSubscriptionInstallment:" and
// 24 hex digits, here drawn from the subscription's id and n so that
// every read names it alike.
func installmentID(sub string, n int) string {
	sum := sha256.Sum256([]byte(sub + "/" + strconv.Itoa(n)))
	return base64.StdEncoding.EncodeToString([]byte("PaymentSubscriptionInstallment:" + hex.EncodeToString(sum[:])[:24]))
}

// listedInstallments are the numbers of sub's installments listed on
// today: those due by wooviInstallmentsAhead days from it, and the next
// (Woovi makes them ahead, one at a time). Callers hold s.mu.
func listedInstallments(sub *record, today due.Date) []int {
	var ns []int
	horizon := today.AddDays(wooviInstallmentsAhead)
	for n := 0; n < wooviMaxListed; n++ {
		d, ok := sub.rec.Calendar.Due(n)
		if !ok {
			break
		}
		ns = append(ns, n)
		if d.After(horizon) {
			break
		}
	}
	return ns
}

// installment is the subscription and number of the installment of
// globalID id listed on today, or nil. Callers hold s.mu.
func (f wooviFace) installment(id string, today due.Date) (*record, int) {
	if c := f.s.cycleByID(id); c != nil && c.id == id {
		if sub := f.s.records[c.cyc.Recurrence]; sub != nil {
			return sub, c.cyc.N
		}
	}
	for _, r := range f.s.order {
		if r.kind != contract.TypeRecurrence || r.rec == nil {
			continue
		}
		for _, n := range listedInstallments(r, today) {
			if installmentID(r.id, n) == id {
				return r, n
			}
		}
	}
	return nil, 0
}

// listInstallments is GET /api/v1/subscriptions/{id}/installments, paged
// by skip as Woovi's lists are.
func (f wooviFace) listInstallments(w http.ResponseWriter, r *http.Request) {
	skip, err := atoiOr(r.URL.Query().Get("skip"), 0)
	if err != nil || skip < 0 {
		f.writeError(w, http.StatusBadRequest, "skip must be a number, 0 or more")
		return
	}
	f.ownCobrs(time.Now())
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	sub := f.subscription(r.PathValue("id"))
	if sub == nil || sub.rec == nil {
		f.writeError(w, http.StatusBadRequest, "subscription not found")
		return
	}
	today := f.s.todayLocked(time.Now())
	ns := listedInstallments(sub, today)
	i, j := min(skip, len(ns)), min(skip+wooviInstallmentPage, len(ns))
	ans := wooviapi.InstallmentList{Installments: make([]wooviapi.Installment, 0, j-i),
		PageInfo: wooviapi.PageInfo{Skip: skip, Limit: wooviInstallmentPage, TotalCount: len(ns), HasPreviousPage: i > 0, HasNextPage: j < len(ns)}}
	for _, n := range ns[i:j] {
		ans.Installments = append(ans.Installments, f.installmentOf(sub, n))
	}
	writeJSON(w, http.StatusOK, ans)
}

// getInstallment is GET /api/v1/installments/{id}.
func (f wooviFace) getInstallment(w http.ResponseWriter, r *http.Request) {
	f.ownCobrs(time.Now())
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	sub, n := f.installment(r.PathValue("id"), f.s.todayLocked(time.Now()))
	if sub == nil {
		f.writeError(w, http.StatusBadRequest, "installment not found")
		return
	}
	inst := f.installmentOf(sub, n)
	writeJSON(w, http.StatusOK, wooviapi.InstallmentAnswer{Installment: &inst})
}

// postCobr is POST /api/v1/installments/{id}/cobr: the installment's cobr,
// of the body's value or the subscription's, made as the core's cycle
// (its rules: the recurrence APPROVED, the window, one per cycle) from 10
// to 5 days before the installment's day. An installment with a cobr
// already is refused (400, the document's only error), as Woovi names no
// other answer to a second one.
func (f wooviFace) postCobr(w http.ResponseWriter, r *http.Request) {
	var req wooviapi.CobrRequest
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err == nil && len(body) > 0 {
		err = json.Unmarshal(body, &req)
	}
	if err != nil || req.Value < 0 {
		f.writeError(w, http.StatusBadRequest, "the body must be {\"value\": centavos}, value optional and positive")
		return
	}
	now := time.Now()
	f.ownCobrs(now) // one made meanwhile is this installment's cobr already
	sp, msg := f.cobrSpec(r.PathValue("id"), req, now)
	if msg != "" {
		f.writeError(w, http.StatusBadRequest, msg)
		return
	}
	rec, created, err := f.s.createCycle(sp, now)
	switch {
	case errors.Is(err, ErrStore):
		f.writeError(w, http.StatusServiceUnavailable, err.Error())
	case err != nil:
		f.writeError(w, http.StatusBadRequest, err.Error())
	case !created:
		f.writeError(w, http.StatusBadRequest, "installment already has a cobr")
	default:
		f.s.mu.Lock()
		defer f.s.mu.Unlock()
		f.s.notifyLocked(rec, now) // PIX_AUTOMATIC_COBR_CREATED
		inst := f.installmentOf(f.s.records[rec.cyc.Recurrence], rec.cyc.N)
		writeJSON(w, http.StatusOK, wooviapi.InstallmentAnswer{Installment: &inst})
	}
}

// cobrSpec is the cycle installment id's cobr makes on the sandbox's day,
// or Woovi's complaint.
func (f wooviFace) cobrSpec(id string, req wooviapi.CobrRequest, now time.Time) (cycleSpec, string) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	today := f.s.todayLocked(now)
	sub, n := f.installment(id, today)
	if sub == nil {
		return cycleSpec{}, "installment not found"
	}
	if c := f.s.cycleByID(id); c != nil {
		return cycleSpec{}, "installment already has a cobr"
	}
	day, _ := sub.rec.Calendar.Due(n)
	amount := money.Money(cmp.Or(req.Value, int64(cmp.Or(sub.rec.Amount.Fixed, sub.rec.Amount.Floor))))
	switch {
	case today.After(day.AddDays(-wooviCobrLastDay)):
		return cycleSpec{}, "a cobr is made by hand from 10 to 5 days before its installment's day (" + day.String() + ")"
	case sub.rec.Amount.Variable() && amount < sub.rec.Amount.Floor:
		return cycleSpec{}, "value is below the subscription's minimumValue"
	}
	return cycleSpec{id: id, externalID: id, recurrence: sub.id, dueDate: day, amount: amount, description: sub.description,
		postbackURL: f.s.cfg.WebhookURL, autoRetry: true}, ""
}
