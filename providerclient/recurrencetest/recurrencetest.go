// Package recurrencetest is what the connectors' tests of Pix Automático
// share: the recurrence they ask for.
package recurrencetest

import (
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Request is a weekly recurrence of four cycles of journey j under id,
// starting in a week: fixed unless floor is set; the push journey names
// the payer's account.
func Request(id string, j recurrence.Journey, floor money.Money) providerclient.RecurrenceRequest {
	req := providerclient.RecurrenceRequest{
		ID: id, Journey: j, Contract: "4417", Description: "Plano Ouro",
		Payer:    providerclient.Party{Name: "Fulano de Tal", Document: "52998224725", Email: "f@example.com"},
		Calendar: recurrence.Calendar{Periodicity: recurrence.Weekly, Start: due.Today(time.Now()).AddDays(7), Count: 4},
		Amount:   recurrence.Amount{Fixed: money.FromReais(35, 0)}, RetryPolicy: recurrence.RetryThreeInSeven,
		ConsentExpiresAt: time.Now().Add(72 * time.Hour),
	}
	if floor > 0 {
		req.Amount = recurrence.Amount{Floor: floor}
	}
	if j == recurrence.JourneyPush {
		req.PayerAccount = &providerclient.PayerAccount{ISPB: "91193552", Branch: "2569", Number: "550689"}
	}
	return req
}
