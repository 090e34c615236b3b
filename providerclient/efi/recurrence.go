package efi

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"slices"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Pix Automático's recurrences (docs/recurrences.md; docs/provider.md,
// "Recurrences (efi)"): the BCB's rec as Efí serves it. Efí assigns a
// recurrence's idRec (POST /v2/rec takes no client id), so the connector
// writes PixGate's id in the one field the receiver fills that it can find
// the recurrence by again, vinculo.contrato, and before creating one looks
// for it in the payer's recurrences (see findRec): a create repeated after
// a lost answer finds the first one.

// offeredJourneys are the journeys the connector takes: a QR Code of the
// recurrence alone (journey 2: a location, POST /v2/locrec; the recurrence
// on it, POST /v2/rec; its BR Code, GET /v2/rec/{idRec}), a request
// pushed to the payer's bank (journey 1: POST /v2/rec, then POST
// /v2/solicrec to the payer's account) and the QR Code of a first payment
// and the recurrence (journey 3: recurrence_first.go).
var offeredJourneys = []recurrence.Journey{recurrence.JourneyQR, recurrence.JourneyPush, recurrence.JourneyQRWithPayment}

// idRecPattern is a recurrence's id (RecId: 29 letters and digits).
var idRecPattern = regexp.MustCompile(`^[a-zA-Z0-9]{29}$`)

// CreateRecurrence registers a recurrence under PixGate's id: the one an
// earlier try registered, when findRec finds it, or a new one; for the
// push journey, it then sends the consent request unless one is open; for
// a QR journey it reads the BR Code back (Efí's create answers without
// it). Journey 3 makes its first payment's cob before the recurrence that
// names it, and reads back the composite BR Code of both. A journey not
// offered, or a request the contract cannot carry, is refused before any
// call.
func (c *connector) CreateRecurrence(ctx context.Context, req providerclient.RecurrenceRequest) (*providerclient.Recurrence, error) {
	op := providerclient.OpCreateRecurrence
	in, err := recRequest(op, req)
	if err != nil {
		return nil, err
	}
	if err := c.registerHook(ctx, &c.recHookDoneAt, bcbpix.PathWebhookRec); err != nil {
		return nil, err
	}
	var txid string // journey 3's first payment
	if in.Ativacao != nil {
		txid = in.Ativacao.DadosJornada.Txid
		if err := c.ensureFirstPayment(ctx, req, txid); err != nil {
			return nil, err
		}
	}
	rec, err := c.findRec(ctx, req.ID, in)
	if err == nil && rec == nil {
		rec, err = c.postRec(ctx, req.Journey, in)
	}
	if err != nil {
		return nil, err
	}
	if req.Journey == recurrence.JourneyPush {
		if err := c.ensureSolicitation(ctx, req, *rec); err != nil {
			return nil, err
		}
	}
	switch {
	case txid != "":
		rec, err = c.getRecWithCob(ctx, rec.IDRec, txid)
	case req.Journey.HasQR() && (rec.DadosQR == nil || rec.DadosQR.PixCopiaECola == ""):
		rec, err = c.getRec(ctx, op, rec.IDRec)
	}
	if err != nil {
		return nil, err
	}
	out, err := recurrenceOf(op, *rec)
	if err == nil && txid != "" && out.FirstPaymentID == "" {
		out.FirstPaymentID = txid
	}
	if err == nil && req.Journey.HasQR() && out.QRCode == "" {
		err = &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "the recurrence " + rec.IDRec + " has no dadosQR.pixCopiaECola"}
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// postRec creates the recurrence in, on a location of its own for a QR
// journey.
func (c *connector) postRec(ctx context.Context, j recurrence.Journey, in bcbpix.RecRequest) (*bcbpix.Rec, error) {
	op := providerclient.OpCreateRecurrence
	if j.HasQR() {
		loc, err := c.postLocRec(ctx)
		if err != nil {
			return nil, err
		}
		in.Loc = loc.ID
	}
	res, err := c.call(ctx, op, http.MethodPost, bcbpix.PathRecList, in)
	if err != nil {
		return nil, err
	}
	var rec bcbpix.Rec
	if err := decode(op, res, &rec); err != nil {
		return nil, err
	}
	if !idRecPattern.MatchString(rec.IDRec) {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "answer without an idRec"}
	}
	return &rec, nil
}

// postLocRec creates a recurrence's payload location (POST /v2/locrec,
// without a body, as Efí's SDK sends it). One left unused by a create that
// failed afterwards serves nothing and costs nothing.
func (c *connector) postLocRec(ctx context.Context) (*bcbpix.LocRec, error) {
	op := providerclient.OpCreateRecurrence
	res, err := c.call(ctx, op, http.MethodPost, bcbpix.PathLocRec, nil)
	if err != nil {
		return nil, err
	}
	var loc bcbpix.LocRec
	if err := decode(op, res, &loc); err != nil {
		return nil, err
	}
	if loc.ID == 0 {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "answer without the location's id"}
	}
	return &loc, nil
}

// ReadRecurrence reads a recurrence by its idRec (GET /v2/rec/{idRec});
// one Efí does not hold is ErrNotFound. Efí reads none by PixGate's id.
func (c *connector) ReadRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) (*providerclient.Recurrence, error) {
	op := providerclient.OpReadRecurrence
	idRec, err := recRef(op, ref)
	if err != nil {
		return nil, err
	}
	rec, err := c.getRec(ctx, op, idRec)
	if err != nil {
		return nil, err
	}
	return recurrenceOf(op, *rec)
}

// CancelRecurrence cancels a recurrence on the integrator's behalf (PATCH
// /v2/rec/{idRec} with status CANCELADA). The BCB refuses to revise one
// already cancelled, expired or rejected: a refusal is read back, and one
// found cancelled is no error.
func (c *connector) CancelRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) error {
	op := providerclient.OpCancelRecurrence
	idRec, err := recRef(op, ref)
	if err != nil {
		return err
	}
	cancelled := recurrence.RecurrenceCancelled.BCB()
	res, err := c.call(ctx, op, http.MethodPatch, "/v2/rec/"+idRec, bcbpix.RecRevisada{Status: cancelled})
	if err != nil {
		return err
	}
	var rec bcbpix.Rec
	err = decode(op, res, &rec)
	if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
		return err
	}
	if now, rerr := c.getRec(ctx, op, idRec); rerr == nil && now.Status == cancelled {
		return nil
	}
	return err
}

// getRec reads a recurrence by its idRec.
func (c *connector) getRec(ctx context.Context, op, idRec string) (*bcbpix.Rec, error) {
	return c.getRecAt(ctx, op, "/v2/rec/"+idRec)
}

// getRecAt reads a recurrence at path (its route, with a query or not).
func (c *connector) getRecAt(ctx context.Context, op, path string) (*bcbpix.Rec, error) {
	res, err := c.call(ctx, op, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	var rec bcbpix.Rec
	if err := decode(op, res, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// recRef is the idRec a ref names; without one (or with something else)
// nothing is asked.
func recRef(op string, ref providerclient.RecurrenceRef) (string, error) {
	if !idRecPattern.MatchString(ref.ProviderID) {
		return "", &providerclient.Error{Op: op, Kind: providerclient.ErrRejected,
			Message: "Efí reads a recurrence only by its idRec (29 letters and digits), which is not known"}
	}
	return ref.ProviderID, nil
}

// offered refuses a journey the connector does not take, before any call.
func offered(op string, j recurrence.Journey) error {
	if slices.Contains(offeredJourneys, j) {
		return nil
	}
	return &providerclient.Error{Op: op, Kind: providerclient.ErrUnsupported,
		Message: "the journey " + string(j) + " is not offered"}
}
