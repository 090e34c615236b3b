package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// subAccountView is one of the integrator's sub-accounts with its
// balances (docs/api-v1.md#sub-accounts).
type subAccountView struct {
	ID        string             `json:"id"`
	Name      string             `json:"name"`
	Email     string             `json:"email"`
	CreatedAt timestamp          `json:"created_at"`
	Balance   subAccountBalances `json:"balance"`
	// Credentials are the sub-account's first API key, shown once, in the
	// answer of its creation.
	Credentials *subAccountKey `json:"credentials,omitempty"`
}

type subAccountBalances struct {
	Available money.Money `json:"available_balance"`
	Pending   money.Money `json:"pending_balance"`
	Reserved  money.Money `json:"reserved_balance"`
	Blocked   money.Money `json:"blocked_balance"`
	Debt      money.Money `json:"debt_balance"`
}

type subAccountKey struct {
	PublicID string `json:"public_id"`
	Secret   string `json:"secret"`
	Token    string `json:"token"`
}

func viewSubAccount(sa storage.SubAccount) subAccountView {
	w := sa.Wallet
	return subAccountView{ID: strconv.FormatInt(sa.ID, 10), Name: sa.Name, Email: sa.Email, CreatedAt: timestamp(sa.CreatedAt),
		Balance: subAccountBalances{Available: w.Available, Pending: w.Pending, Reserved: w.Reserved, Blocked: w.Blocked, Debt: w.Debt}}
}

// createSubAccount is POST /api/v1/sub-accounts: a sub-account of the
// authenticated integrator, with its parent's fee rules and no settlement
// hold, and a first API key with every scope, shown only in this answer.
// A sub-account has no sub-accounts (403). An e-mail address already taken
// is 409: the create is keyed by it, so a retry never makes a second one.
func (s *Server) createSubAccount(c *fiber.Ctx) error {
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	name := body.name("name")
	email := body.email("email")
	if email == nil && !body.errs.has("email") {
		body.errs.add("email", "is required")
	}
	if err := body.errs.err(); err != nil {
		return err
	}
	parent := integratorOf(c)
	id := parent.ID
	in, creds, err := s.deps.DB.CreateIntegrator(c.UserContext(), storage.NewIntegrator{Name: name, Email: *email,
		CashIn: parent.CashIn, CashOut: parent.CashOut, ParentID: &id})
	switch {
	case errors.Is(err, storage.ErrNotAParent):
		return newError(http.StatusForbidden, codeForbidden, "A sub-account cannot create sub-accounts.")
	case errors.Is(err, storage.ErrEmailTaken):
		return &apiError{Status: http.StatusConflict, Code: codeIdempotency, Message: "email is already an account's: a sub-account is created once per e-mail address.",
			Fields: map[string][]string{"email": {"is already an account's"}}}
	case err != nil:
		return err
	}
	v := viewSubAccount(storage.SubAccount{Integrator: in})
	v.Credentials = &subAccountKey{PublicID: creds.PublicID, Secret: creds.Secret, Token: creds.Token()}
	return c.Status(http.StatusCreated).JSON(v)
}

// listSubAccounts is GET /api/v1/sub-accounts: the integrator's
// sub-accounts, oldest first, with their balances (few per integrator: not
// paged).
func (s *Server) listSubAccounts(c *fiber.Ctx) error {
	list, err := s.deps.DB.SubAccounts(c.UserContext(), integratorIDOf(c))
	if err != nil {
		return err
	}
	out := make([]subAccountView, len(list))
	for i, sa := range list {
		out[i] = viewSubAccount(sa)
	}
	return c.JSON(fiber.Map{"data": out})
}

// getSubAccount is GET /api/v1/sub-accounts/{id}: one of the integrator's
// sub-accounts with its balances; 404 for any other id.
func (s *Server) getSubAccount(c *fiber.Ctx) error {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil || id <= 0 {
		return newError(http.StatusNotFound, codeNotFound, "No such record for this account.")
	}
	sa, err := s.deps.DB.SubAccountOf(c.UserContext(), integratorIDOf(c), id)
	if err != nil {
		return err
	}
	return c.JSON(viewSubAccount(sa))
}
