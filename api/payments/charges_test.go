package payments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

func integrator(cashIn, cashOut money.FeeRule) storage.Integrator {
	return storage.Integrator{ID: 7, Name: "Loja", CashIn: cashIn, CashOut: cashOut}
}

func chargeRequest(amount money.Money) ChargeRequest {
	return ChargeRequest{ExternalID: "order-1", Amount: amount, Payer: storage.Payer{Name: "Fulano", Document: "52998224725"}}
}

func TestChargeMustExceedItsFee(t *testing.T) {
	tests := []struct {
		name   string
		fee    money.FeeRule
		amount money.Money
		ok     bool
	}{
		{"fixed fee: one centavo above", money.Fixed(100), 101, true},
		{"fixed fee: equal", money.Fixed(100), 100, false},
		{"fixed fee: below", money.Fixed(100), 99, false},
		{"percent fee: 100% takes it all", money.Percent(1_000_000), 5000, false},
		{"percent fee: 1.5% of 0.01 rounds to 0", money.Percent(15_000), 1, true},
		{"no fee", money.Fixed(0), 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, prov := newFakeStore(), &fakeProvider{}
			s := New(Config{}, store, prov, nil)
			_, _, err := s.CreateCharge(context.Background(), integrator(tt.fee, money.Fixed(0)), chargeRequest(tt.amount))
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var re *RuleError
			if !errors.As(err, &re) || !errors.Is(err, ErrAmountNotAboveFee) || re.Field != "amount" || !strings.Contains(re.Detail, "cash-in fee of R$") {
				t.Fatalf("err = %v, want the fee rule naming amount", err)
			}
			if store.writes != 0 || len(prov.calls) != 0 {
				t.Fatalf("a refused charge wrote %d records and called the provider %d times", store.writes, len(prov.calls))
			}
		})
	}
}

func TestChargeIssueAndFailure(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		reason string
	}{
		{"rejected", &providerclient.Error{Kind: providerclient.ErrRejected, Message: "payer blocked"}, "provider rejected the charge: payer blocked"},
		{"breaker open", &providerclient.Error{Kind: providerclient.ErrBreakerOpen}, "provider unavailable (circuit breaker open)"},
		{"unavailable", &providerclient.Error{Kind: providerclient.ErrUnavailable}, "provider unavailable"},
		{"unknown outcome", &providerclient.Error{Kind: providerclient.ErrUnknownOutcome}, "provider did not answer in time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, store, prov := context.Background(), newFakeStore(), &fakeProvider{err: tt.err}
			s := New(Config{ProviderWebhookURL: "https://pixgate.example/webhooks/provider/t"}, store, prov, nil)
			in := integrator(money.Percent(15_000), money.Fixed(50))
			_, _, err := s.CreateCharge(ctx, in, chargeRequest(1550))
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want the provider's", err)
			}
			failed, _ := store.Charge(ctx, in.ID, "order-1")
			if failed.Status != storage.ChargeFailed || failed.FailureReason == nil || *failed.FailureReason != tt.reason {
				t.Fatalf("charge %s, reason %v; want FAILED, %q", failed.Status, failed.FailureReason, tt.reason)
			}

			// The same request again reopens it and asks the provider with the
			// same charge id, which the provider deduplicates.
			prov.err = nil
			ch, created, err := s.CreateCharge(ctx, in, chargeRequest(1550))
			if err != nil || created || ch.ID != failed.ID || ch.Status != storage.ChargePending || !ch.Issued() || ch.Fee != 23 {
				t.Fatalf("retry: %+v, created %v, %v", ch, created, err)
			}
			if len(prov.calls) != 2 || prov.calls[0].ID != ch.ID.String() || prov.calls[1].ID != ch.ID.String() ||
				prov.calls[1].NotifyURL != "https://pixgate.example/webhooks/provider/t" {
				t.Fatalf("provider calls %+v: want both with the charge id and PixGate's webhook", prov.calls)
			}
		})
	}
}

func TestChargeWithoutProviderWritesNothing(t *testing.T) {
	store := newFakeStore()
	_, _, err := New(Config{}, store, nil, nil).CreateCharge(context.Background(), integrator(money.Fixed(0), money.Fixed(0)), chargeRequest(100))
	if !errors.Is(err, providerclient.ErrUnavailable) || store.writes != 0 {
		t.Fatalf("err = %v, %d writes", err, store.writes)
	}
}

func TestChargeExternalIDIsGenerated(t *testing.T) {
	store := newFakeStore()
	s := New(Config{}, store, &fakeProvider{}, nil)
	r := chargeRequest(100)
	r.ExternalID = ""
	a, _, errA := s.CreateCharge(context.Background(), integrator(money.Fixed(0), money.Fixed(0)), r)
	b, _, errB := s.CreateCharge(context.Background(), integrator(money.Fixed(0), money.Fixed(0)), r)
	format := regexp.MustCompile(`^chg-[a-z2-7]{20}$`)
	if errA != nil || errB != nil || !format.MatchString(a.ExternalID) || !format.MatchString(b.ExternalID) || a.ExternalID == b.ExternalID {
		t.Fatalf("generated %q and %q (%v, %v)", a.ExternalID, b.ExternalID, errA, errB)
	}
}

// The fingerprint is the request's, whoever carried it and whatever the fee:
// a replay matches, any change of substance does not.
func TestChargeFingerprint(t *testing.T) {
	base := chargeRequest(1550)
	email, other := "f@example.com", "g@example.com"
	base.Payer.Email = &email
	same, copied := base, email
	same.Payer.Email = &copied // another pointer to the same value
	if !bytes.Equal(base.fingerprint(), same.fingerprint()) {
		t.Fatal("equal requests differ")
	}
	changes := map[string]func(*ChargeRequest){
		"amount":        func(r *ChargeRequest) { r.Amount++ },
		"external_id":   func(r *ChargeRequest) { r.ExternalID = "order-2" },
		"payer.name":    func(r *ChargeRequest) { r.Payer.Name = "Beltrano" },
		"payer.email":   func(r *ChargeRequest) { r.Payer.Email = &other },
		"no e-mail":     func(r *ChargeRequest) { r.Payer.Email = nil },
		"payerQuestion": func(r *ChargeRequest) { r.PayerQuestion = &other },
		"postbackUrl":   func(r *ChargeRequest) { r.PostbackURL = &other },
		"split":         func(r *ChargeRequest) { r.Split = []byte(`{"a":1}`) },
	}
	for name, change := range changes {
		r := base
		change(&r)
		if bytes.Equal(base.fingerprint(), r.fingerprint()) {
			t.Errorf("a different %s has the same fingerprint", name)
		}
	}

	// A replay after the integrator's fee changed is still the same charge.
	ctx, store := context.Background(), newFakeStore()
	s := New(Config{}, store, &fakeProvider{}, nil)
	first, _, err := s.CreateCharge(ctx, integrator(money.Fixed(10), money.Fixed(0)), base)
	if err != nil {
		t.Fatal(err)
	}
	again, created, err := s.CreateCharge(ctx, integrator(money.Fixed(20), money.Fixed(0)), base)
	if err != nil || created || again.ID != first.ID || again.Fee != 10 {
		t.Fatalf("replay after a fee change: %+v, created %v, %v", again, created, err)
	}
	changed := base
	changed.Amount++
	if _, _, err := s.CreateCharge(ctx, integrator(money.Fixed(10), money.Fixed(0)), changed); !errors.Is(err, storage.ErrIdempotencyConflict) {
		t.Fatalf("a different request with the same external_id: %v", err)
	}
}

// Fingerprints are stored: a charge request without expiration must keep
// the fingerprint it had before expiration existed, or every replay of an
// older charge would be a conflict. With expiration it differs.
func TestChargeFingerprintWithoutExpirationIsUnchanged(t *testing.T) {
	q := "Pedido 1"
	r := chargeRequest(1550)
	r.PayerQuestion = &q
	before := fingerprint(struct {
		Kind          string          `json:"k"`
		ExternalID    string          `json:"e"`
		Amount        money.Money     `json:"a"`
		Payer         storage.Payer   `json:"p"`
		PayerQuestion *string         `json:"q"`
		PostbackURL   *string         `json:"u"`
		Split         json.RawMessage `json:"s"`
	}{"charge/v1", r.ExternalID, r.Amount, r.Payer, r.PayerQuestion, r.PostbackURL, r.Split})
	if !bytes.Equal(r.fingerprint(), before) {
		t.Fatal("the fingerprint of a request without expiration changed")
	}
	exp := 600
	r.Expiration = &exp
	if bytes.Equal(r.fingerprint(), before) {
		t.Fatal("expiration is not part of the fingerprint")
	}
}

// A charge without a validity of its own is asked of the provider for an
// hour, whichever provider: their own defaults differ (Efí's is a day).
func TestChargeWithoutExpirationAsksForAnHour(t *testing.T) {
	prov := &fakeProvider{}
	s := New(Config{}, newFakeStore(), prov, nil)
	in := integrator(money.Fixed(0), money.Fixed(0))
	r := chargeRequest(100)
	r.Expiration = nil
	if _, _, err := s.CreateCharge(context.Background(), in, r); err != nil {
		t.Fatal(err)
	}
	asked := 600
	r = chargeRequest(100)
	r.ExternalID, r.Expiration = "order-2", &asked
	if _, _, err := s.CreateCharge(context.Background(), in, r); err != nil {
		t.Fatal(err)
	}
	if len(prov.calls) != 2 || prov.calls[0].Expiration != time.Hour || prov.calls[1].Expiration != 10*time.Minute {
		t.Fatalf("provider asked %+v, want an hour, then the 10 minutes asked", prov.calls)
	}
}
