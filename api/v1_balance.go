package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage/money"
)

// balanceView is the spec's Balance object. reserved_balance,
// blocked_balance and debt_balance are PixGate's additions: money held for
// withdrawals, refunds and MED returns still in flight, money frozen under
// open MED infractions, and what the integrator owes (MED returns beyond
// what could be blocked), recovered from its next cash-ins.
type balanceView struct {
	AvailableBalance money.Money `json:"available_balance"`
	PendingBalance   money.Money `json:"pending_balance"`
	ReservedBalance  money.Money `json:"reserved_balance"`
	BlockedBalance   money.Money `json:"blocked_balance"`
	DebtBalance      money.Money `json:"debt_balance"`
	Currency         string      `json:"currency"`
	Account          accountView `json:"account"`
	Fees             feesView    `json:"fees"`
}

type accountView struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

type feesView struct {
	CashIn  money.FeeView `json:"cashin"`
	CashOut money.FeeView `json:"cashout"`
}

// getBalance is GET /api/v1/balance.
func (s *Server) getBalance(c *fiber.Ctx) error {
	in := integratorOf(c)
	w, err := s.payments.Balance(c.UserContext(), in.ID)
	if err != nil {
		return err
	}
	return c.JSON(balanceView{
		AvailableBalance: w.Available, PendingBalance: w.Pending, ReservedBalance: w.Reserved, BlockedBalance: w.Blocked,
		DebtBalance: w.Debt, Currency: "BRL",
		Account: accountView{ID: in.ID, Name: in.Name, Email: in.Email},
		Fees:    feesView{CashIn: in.CashIn.View("cashin"), CashOut: in.CashOut.View("cashout")},
	})
}
