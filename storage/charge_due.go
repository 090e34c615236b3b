package storage

import (
	"encoding/json"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// ChargeDue makes a charge a due-date charge (the BCB's cobv): its terms,
// whose Original is the amount asked on the due date, and the cash-in fee
// rule in force when it was created, which prices what is paid.
type ChargeDue struct {
	Terms due.Terms
	Fee   money.FeeRule
}

// chargeDueJSON is ChargeDue as the charges.due column keeps it.
type chargeDueJSON struct {
	Original money.Money   `json:"original"`
	Terms    due.Terms     `json:"terms"`
	Fee      money.FeeRule `json:"fee"`
}

// MarshalJSON is the stored form.
func (d ChargeDue) MarshalJSON() ([]byte, error) {
	return json.Marshal(chargeDueJSON{Original: d.Terms.Original, Terms: d.Terms, Fee: d.Fee})
}

// UnmarshalJSON reads the stored form.
func (d *ChargeDue) UnmarshalJSON(b []byte) error {
	var j chargeDueJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	j.Terms.Original = j.Original
	*d = ChargeDue{Terms: j.Terms, Fee: j.Fee}
	return nil
}

// Settle is what a payment of amount on day settles: the amount and the
// fee on it. ok is false, with why, when the day does not ask that amount
// (or is past the charge's validity): PixGate never credits an amount the
// terms did not ask.
func (d ChargeDue) Settle(day due.Date, amount money.Money) (fee money.Money, why string, ok bool) {
	b, err := d.Terms.AmountOn(day)
	if err != nil {
		return 0, "paid on " + day.String() + ": " + err.Error(), false
	}
	if b.Total != amount {
		return 0, "paid " + amount.String() + " on " + day.String() + " but the charge asks " + b.Total.String() + " that day", false
	}
	return d.Fee.Compute(amount), "", true
}
