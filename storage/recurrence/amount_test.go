package recurrence

import (
	"errors"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// valorRec (fixed) and valorMinimoRecebedor (the floor of a variable
// recurrence) never together (API Pix, RecOperacaoInvalida).
func TestAmountValidate(t *testing.T) {
	tests := []struct {
		name  string
		a     Amount
		field string
	}{
		{"fixed", Amount{Fixed: 3500}, ""},
		{"variable", Amount{}, ""},
		{"variable with a floor", Amount{Floor: 500000}, ""},
		{"both", Amount{Fixed: 3500, Floor: 1000}, "amount.floor"},
		{"negative fixed", Amount{Fixed: -1}, "amount.fixed"},
		{"negative floor", Amount{Floor: -1}, "amount.floor"},
	}
	for _, tc := range tests {
		err := tc.a.Validate()
		var fe *FieldError
		if tc.field == "" && err != nil || tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field) {
			t.Errorf("%s: %v; want field %q", tc.name, err, tc.field)
		}
	}
}

func TestAmountCheckCycle(t *testing.T) {
	fixed, variable := Amount{Fixed: 3500}, Amount{Floor: 1000}
	tests := []struct {
		name     string
		a        Amount
		amount   money.Money
		payerMax money.Money
		want     error
	}{
		{"fixed, exact", fixed, 3500, 0, nil},
		{"fixed, another amount (AM09)", fixed, 3501, 0, ErrAmountMismatch},
		{"variable", variable, 25000, 0, nil},
		{"variable at the floor", variable, 1000, 0, nil},
		{"variable below the floor", variable, 999, 0, ErrBelowFloor},
		{"variable at the payer's maximum", variable, 5000, 5000, nil},
		{"variable above the payer's maximum (AM02)", variable, 5001, 5000, ErrAboveMaximum},
		{"variable without a floor", Amount{}, 1, 0, nil},
	}
	for _, tc := range tests {
		if err := tc.a.CheckCycle(tc.amount, tc.payerMax); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s: %v; want %v", tc.name, err, tc.want)
		}
	}
	var fe *FieldError
	if err := fixed.CheckCycle(0, 0); !errors.As(err, &fe) || fe.Field != "amount" {
		t.Errorf("zero amount: %v", err)
	}
}

// The payer's maximum may not be below the receiver's floor
// (valorMinimoRecebedor's description).
func TestAmountCheckPayerMaximum(t *testing.T) {
	variable := Amount{Floor: 1000}
	if err := variable.CheckPayerMaximum(999); !errors.Is(err, ErrBelowFloor) {
		t.Errorf("below the floor: %v", err)
	}
	if err := variable.CheckPayerMaximum(1000); err != nil {
		t.Errorf("at the floor: %v", err)
	}
	if err := variable.CheckPayerMaximum(0); err != nil {
		t.Errorf("no maximum: %v", err)
	}
	var fe *FieldError
	if err := (Amount{Fixed: 3500}).CheckPayerMaximum(5000); !errors.As(err, &fe) {
		t.Errorf("a maximum on a fixed recurrence: %v", err)
	}
}
