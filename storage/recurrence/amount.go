package recurrence

import (
	"errors"

	"github.com/pixgate/pixgate/storage/money"
)

// Amount is what a recurrence's cycles ask: either Fixed, the same every
// cycle (the BCB's valor.valorRec, "deve ser preenchido apenas quando o
// valor dos pagamentos for fixo"), or variable, set per cycle by the
// integrator, with an optional Floor (valor.valorMinimoRecebedor: "Se o
// usuário pagador atribuir um valor máximo para os pagamentos daquela
// autorização, ele não poderá ser inferior ao piso definido pelo usuário
// recebedor"). Never both ([API Pix], RecOperacaoInvalida: "Ambos os
// campos ... estão preenchidos"). The payer may set a maximum when
// consenting; the receiver learns it only from a rejection (AM02).
type Amount struct {
	Fixed money.Money `json:"fixed,omitempty"`
	Floor money.Money `json:"floor,omitempty"`
}

// Amount errors.
var (
	// ErrAmountMismatch: a fixed recurrence's cycle asks another amount;
	// the payer's bank would reject it with AM09 ("Valor da cobrança não
	// corresponde ao valor estabelecido na recorrência", Celcoin,
	// developers.celcoin.com.br/docs/motivos-de-rejeição-pelo-participante-pagador).
	ErrAmountMismatch = errors.New("the amount must be the recurrence's fixed amount")
	// ErrAboveMaximum: the cycle asks more than the payer's maximum; the
	// payer's bank would reject it with AM02 ("Valor da cobrança
	// ultrapassa o valor máximo estabelecido pelo usuário pagador", ibid.).
	ErrAboveMaximum = errors.New("the amount exceeds the maximum the payer set")
	// ErrBelowFloor: a variable recurrence's cycle asks less than its
	// floor, or a payer's maximum is below it.
	ErrBelowFloor = errors.New("the amount is below the recurrence's floor")
)

// Variable reports whether each cycle's amount is set per cycle.
func (a Amount) Variable() bool { return a.Fixed == 0 }

// Validate checks the amount as a request carries it; the first problem
// is a *FieldError below "amount".
func (a Amount) Validate() error {
	switch {
	case a.Fixed < 0:
		return fieldErr("amount.fixed", "must be greater than zero")
	case a.Floor < 0:
		return fieldErr("amount.floor", "must be greater than zero")
	case a.Fixed > 0 && a.Floor > 0:
		return fieldErr("amount.floor", "must not be given with amount.fixed")
	}
	return nil
}

// CheckCycle checks one cycle's amount against the recurrence's rule and,
// when known (non-zero), the payer's maximum. A variable cycle below the
// floor is refused too: the BCB sets the floor against the payer's
// maximum only, Woovi reads it as "o valor mínimo que poderá ser cobrado"
// ([Woovi] pix-automatic-how-to-create.md), and PixGate keeps to the
// stricter reading so that a cycle passes on every provider.
func (a Amount) CheckCycle(amount, payerMax money.Money) error {
	switch {
	case amount <= 0:
		return fieldErr("amount", "must be greater than zero")
	case !a.Variable() && amount != a.Fixed:
		return ErrAmountMismatch
	case a.Variable() && amount < a.Floor:
		return ErrBelowFloor
	case payerMax > 0 && amount > payerMax:
		return ErrAboveMaximum
	}
	return nil
}

// CheckPayerMaximum checks the maximum a payer sets when consenting: not
// below the floor (what the payer's bank enforces, and the sandbox as it).
// A fixed recurrence takes no maximum.
func (a Amount) CheckPayerMaximum(payerMax money.Money) error {
	switch {
	case payerMax <= 0:
		return nil
	case !a.Variable():
		return fieldErr("payer_max", "a fixed recurrence takes no maximum")
	case payerMax < a.Floor:
		return ErrBelowFloor
	}
	return nil
}
