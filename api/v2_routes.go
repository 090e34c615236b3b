package api

import "github.com/pixgate/pixgate/storage"

// v2Routes wires the provider-contract surface at the root of the host.
// Every route but the token endpoint authenticates with an access token
// (v2Auth); like v1, route by route, so an unknown path is 404 either way.
//
// Like the provider family, the PIX routes answer 200 with the contract's
// bodies, whether the record is new or a replay, and read the body as JSON
// whatever its Content-Type says: the family's clients are not all careful
// with the header.
func (s *Server) v2Routes() {
	v2 := s.app.Group("/v2")
	v2.Post("/oauth/token", s.issueToken)
	v2.Post("/balance", s.v2Auth(storage.ScopeBalanceRead), s.v2Balance)
	v2.Post("/pix/qrcode", s.v2Auth(storage.ScopeChargesWrite), s.v2CreateCharge)
	v2.Post("/pix/payment", s.admitCashOut, s.v2Auth(storage.ScopeWithdrawalsWrite), s.v2CreatePayment)
	v2.Post("/pix/refund", s.admitCashOut, s.v2Auth(storage.ScopeRefundsWrite), s.v2CreateRefund)
	v2.Post("/consult-transaction", s.v2Auth(storage.ScopeTransactionsRead), s.v2ConsultTransaction)
}
