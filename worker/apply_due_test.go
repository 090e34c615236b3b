package worker

import (
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// A due-date charge is credited only for what its terms ask on the day it
// was paid in Brasília, with the fee on that; any other amount, or a day
// past its validity, is refused for an operator to look at. Once paid, it
// asks what it was paid.
func TestDueChargeCreditedForWhatTheDayAsks(t *testing.T) {
	date, _ := due.ParseDate("2026-12-10")
	terms := due.Terms{Original: 10000, Date: date, DaysAfter: 5,
		Fine:     &due.Fine{Mode: due.FinePercent, Value: 200},
		Interest: &due.Interest{Mode: due.InterestPercentPerMonth, Value: 100, Days: due.CalendarDays}}
	c := storage.Charge{Amount: 10000, Status: storage.ChargePending,
		Due: &storage.ChargeDue{Terms: terms, Fee: money.Percent(15000)}}
	// 2026-12-13 13:00 in Brasília is 16:00 UTC; 2026-12-14 01:00 UTC is
	// still the 13th there.
	for _, at := range []time.Time{time.Date(2026, 12, 13, 16, 0, 0, 0, time.UTC), time.Date(2026, 12, 14, 1, 0, 0, 0, time.UTC)} {
		day := due.Today(at)
		if day.String() != "2026-12-13" {
			t.Fatalf("%v is %s in Brasília", at, day)
		}
		asked, err := terms.AmountOn(day)
		if err != nil {
			t.Fatal(err)
		}
		s := storage.Settlement{At: at}
		if why := paidAsAsked(c, &providerclient.Transaction{Amount: asked.Total}, &s); why != "" {
			t.Fatalf("paid %s on %s refused: %s", asked.Total, day, why)
		}
		if s.Amount != asked.Total || s.Fee != money.Percent(15000).Compute(asked.Total) {
			t.Errorf("settles %s with fee %s", s.Amount, s.Fee)
		}
		s = storage.Settlement{At: at}
		if why := paidAsAsked(c, &providerclient.Transaction{Amount: asked.Total + 1}, &s); !strings.Contains(why, "asks "+asked.Total.String()) || s.Amount != 0 {
			t.Errorf("a centavo more: %q, settles %s", why, s.Amount)
		}
	}
	late := storage.Settlement{At: time.Date(2026, 12, 16, 12, 0, 0, 0, time.UTC)} // the 16th: past 10 + 5
	if why := paidAsAsked(c, &providerclient.Transaction{Amount: 10000}, &late); !strings.Contains(why, "2026-12-16") || late.Amount != 0 {
		t.Errorf("past its validity: %q", why)
	}
	c.Status, c.Amount = storage.ChargePaid, 10500
	s := storage.Settlement{At: time.Now()}
	if why := paidAsAsked(c, &providerclient.Transaction{Amount: 10500}, &s); why != "" || s.Amount != 0 {
		t.Errorf("already paid: %q, settles %s", why, s.Amount)
	}
}
