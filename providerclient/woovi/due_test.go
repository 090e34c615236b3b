package woovi_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/woovi"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// awayFromMidnight waits, when it is within two minutes of midnight in
// Brasília, until that is over (the connector asks for no due-date charge
// then), and returns the day it is.
func awayFromMidnight(t *testing.T) due.Date {
	t.Helper()
	for {
		now := time.Now()
		if today := due.Today(now); due.Today(now.Add(-2*time.Minute)) == today && due.Today(now.Add(2*time.Minute)) == today {
			return today
		}
		time.Sleep(5 * time.Second)
	}
}

// workday is the first day from d on that is a business day and no Ash
// Wednesday: one the connector sends as it is.
func workday(d due.Date) due.Date {
	for {
		if c, ok := woovi.CountedDay(d); ok && c == d {
			return d
		}
		d = d.AddDays(1)
	}
}

// dueRequest is a due-date charge with a fine, interest and two dated
// discounts (in no order), all on days the connector sends as they are.
func dueRequest(today due.Date) providerclient.ChargeRequest {
	terms := &due.Terms{Original: money.FromReais(100, 0), Date: workday(today.AddDays(20)), DaysAfter: 10,
		Fine:     &due.Fine{Mode: due.FinePercent, Value: 200},
		Interest: &due.Interest{Mode: due.InterestPercentPerDay, Value: 10, Days: due.CalendarDays},
		Discount: &due.Discount{Mode: due.DiscountFixedUntil, Dates: []due.DatedDiscount{
			{Until: workday(today.AddDays(5)), Value: 100}, {Until: workday(today.AddDays(1)), Value: 300}}}}
	return providerclient.ChargeRequest{ID: newID(), Amount: terms.Original, PayerQuestion: "mensalidade", Due: terms,
		Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}}
}

// A due-date charge is Woovi's OVERDUE: created (its request checked
// against Woovi's document), read back pending with its original amount,
// paid two days late, and read back PAID with what was paid that day, as
// the terms ask it, whichever way it is read.
func TestDueChargeCreatedPaidAndReadBack(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	req := dueRequest(awayFromMidnight(t))
	ch, err := e.conn.CreateCharge(ctx, req)
	if err != nil || ch.ProviderID != strings.ReplaceAll(req.ID, "-", "") || ch.BRCode == "" || ch.Status != providerclient.StatusPending {
		t.Fatalf("due-date charge: %+v, %v", ch, err)
	}
	if end := req.Due.LastDay().End(); ch.ExpiresAt.Before(end.Add(-time.Millisecond)) || ch.ExpiresAt.After(end) {
		t.Fatalf("payable until %v, want the end of its last day in Brasília, %v", ch.ExpiresAt, end)
	}
	if !e.conn.Capabilities().DueCharges {
		t.Fatal("the woovi connector does not say it takes due-date charges")
	}
	ref := providerclient.Ref{Kind: providerclient.KindCharge, ID: req.ID, ProviderID: ch.ProviderID, Due: true}
	if got, err := e.conn.Read(ctx, ref); err != nil || got.Status != providerclient.StatusPending || got.Amount != req.Due.Original {
		t.Fatalf("pending: %+v, %v", got, err)
	}

	day := req.Due.Date.AddDays(2)
	if last := req.Due.LastDay(); day.After(last) {
		day = last // while due's LastDay is a stub that ends the validity on the due date
	}
	want, err := req.Due.AmountOn(day)
	if err != nil {
		t.Fatal(err)
	}
	paidAt := day.End().Add(-12 * time.Hour)
	held, err := e.sb.PayChargeAt(ch.ProviderID, sandbox.Payer{Name: "Beltrano da Silva", Document: "123.456.789-09"}, paidAt)
	if err != nil || held.Amount != want.Total {
		t.Fatalf("paid on %s: %+v, %v; want %s", day, held, err, want.Total)
	}
	for _, r := range []providerclient.Ref{ref, {Kind: providerclient.KindCharge, ProviderID: ch.ProviderID}} {
		got, err := e.conn.Read(ctx, r)
		if err != nil || got.Status != providerclient.StatusPaid || got.Amount != want.Total || got.EndToEndID != held.EndToEndID ||
			got.Payer == nil || got.Payer.Document != "12345678909" {
			t.Fatalf("read %+v once paid: %+v, %v; want PAID, %s", r, got, err, want.Total)
		}
	}
	if n := e.v.Checked()["POST "+wooviapi.PathCharge]; n != 1 {
		t.Fatalf("%d charge requests checked against Woovi's document, want 1", n)
	}
}

// Terms Woovi cannot hold exactly are refused before any call, as
// unsupported (the route moves on) and leaving nothing behind, naming the
// field; a payer without a document, which no provider would take, is
// rejected.
func TestDueTermsWooviCannotHoldAreRefusedBeforeAnyCall(t *testing.T) {
	e := newEnv(t)
	today := awayFromMidnight(t)
	v := due.Value(10)
	for field, change := range map[string]func(*providerclient.ChargeRequest){
		"due.interest.days": func(r *providerclient.ChargeRequest) { r.Due.Interest.Days = due.BusinessDays },
		"due.interest.mode": func(r *providerclient.ChargeRequest) { r.Due.Interest.Mode = due.InterestPercentPerMonth },
		"due.discount.days": func(r *providerclient.ChargeRequest) {
			r.Due.Discount = &due.Discount{Mode: due.DiscountFixedPerDay, Value: &v, Days: due.BusinessDays}
		},
		"due.discount.dates[0].until": func(r *providerclient.ChargeRequest) { r.Due.Discount.Dates[0].Until = r.Due.Date },
		"due.discount.dates[1].until": func(r *providerclient.ChargeRequest) { r.Due.Discount.Dates[1].Until = today.AddDays(-3) },
		"due.discount.dates[0].value": func(r *providerclient.ChargeRequest) { r.Due.Discount.Dates[0].Value = 400 },
		"due.date":                    func(r *providerclient.ChargeRequest) { r.Due.Date, r.Due.Discount = today.AddDays(-3), nil },
		"payer.document":              func(r *providerclient.ChargeRequest) { r.Payer.Document = "" },
	} {
		req := dueRequest(today)
		change(&req)
		_, err := e.conn.CreateCharge(t.Context(), req)
		if !errors.Is(err, providerclient.ErrRejected) || !errors.Is(err, providerclient.ErrProvedAbsent) || !strings.Contains(err.Error(), field+": ") ||
			errors.Is(err, providerclient.ErrUnsupported) != strings.HasPrefix(field, "due.") {
			t.Errorf("%s: %v; want a refusal naming it", field, err)
		}
	}
	if n, m := e.sb.Stats().Requests[wooviapi.PathCharge], e.sb.Stats().ChargesCreated; n != 0 || m != 0 {
		t.Fatalf("%d requests reached Woovi, %d charges made; want none", n, m)
	}
}

// What a paid due-date charge paid is its PAYMENT's value, not the
// charge's (which keeps the original amount); with no PAYMENT listed,
// the read is unanswered, never answered with the original amount.
func TestDueChargePaidAmountIsThePayments(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch id := r.URL.Query().Get(wooviapi.ChargeParam); {
		case strings.HasPrefix(r.URL.Path, "/api/v1/charge/"):
			_, _ = w.Write([]byte(`{"charge":{"value":10000,"status":"COMPLETED","correlationID":"` + strings.TrimPrefix(r.URL.Path, "/api/v1/charge/") +
				`","brCode":"x","type":"OVERDUE","updatedAt":"2026-03-10T15:00:01.000Z"}}`))
		case id == "paid":
			_, _ = w.Write([]byte(`{"transactions":[{"value":10350,"time":"2026-03-10T15:00:00.000Z","endToEndId":"E00000000202603101500abcdefghijk",
				"status":"PAYMENT","type":"CONFIRMED"}]}`))
		default:
			_, _ = w.Write([]byte(`{"transactions":[]}`))
		}
	}))
	defer srv.Close()
	conn, err := woovi.New(providerclient.Config{Kind: providerclient.KindWoovi, BaseURL: srv.URL, ClientID: "app-id", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got, err := conn.Read(t.Context(), providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: "paid"})
	if err != nil || got.Status != providerclient.StatusPaid || got.Amount != 10350 {
		t.Fatalf("paid: %+v, %v; want PAID, 103.50", got, err)
	}
	if got, err := conn.Read(t.Context(), providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: "unlisted", Due: true}); !errors.Is(err, providerclient.ErrUnknownOutcome) {
		t.Fatalf("paid, with no PAYMENT listed: %+v, %v; want an unknown outcome", got, err)
	}
}
