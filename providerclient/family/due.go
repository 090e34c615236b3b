package family

import (
	"github.com/pixgate/pixgate/providerclient"
)

// dueCharge makes in a due-date charge of req's terms, through PixGate's
// extension of the family contract (due on POST /v2/pix/qrcode,
// contract.ChargeRequest.Due; docs/provider.md): amount is the original,
// expiration is not sent, and the payer's name and document are required.
// Only a provider that serves the extensions takes it: a provider of the
// family would ignore due and issue an immediate charge.
func (f *connector) dueCharge(req providerclient.ChargeRequest, in *ChargeRequest) error {
	if !f.ext {
		return &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnsupported,
			Message: "due-date charges are PixGate's extension of the family contract, which this provider is not configured to serve"}
	}
	refuse := func(msg string) error {
		return &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrRejected, Message: msg}
	}
	switch {
	case req.Payer.Name == "":
		return refuse("payer.name is required for a due-date charge")
	case req.Payer.Document == "":
		return refuse("payer.document is required for a due-date charge")
	}
	terms := *req.Due
	if terms.Original == 0 {
		terms.Original = req.Amount
	}
	in.Amount, in.Expiration, in.Due = terms.Original, 0, &terms
	return nil
}
