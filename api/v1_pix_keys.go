package api

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/pix"
)

// lookupKey is GET /api/v1/pix-keys/{key}[?keyType=]: who a PIX key
// belongs to, as a banking app shows it before a PIX is sent (the holder's
// name, the document masked, the institution), through the reading of the
// DICT of a provider of the account's own withdrawal route (see
// payments.Service.LookupKey). The key's type is read from its shape
// unless keyType names it. Lookups spend a budget of their own per
// account, on top of the key's (lookupBudget): the DICT limits reads per
// payer, and every account's lookups spend the provider's own DICT
// budget.
func (s *Server) lookupKey(c *fiber.Ctx) error {
	raw, err := url.PathUnescape(c.Params("key"))
	if err != nil || len(raw) > 100 {
		return fieldError("key", "must be a PIX key: a CPF, a CNPJ, an e-mail, a phone (+55…) or a random key")
	}
	typ, key, err := pix.DetectKey(raw)
	if kt := c.Query("keyType"); kt != "" {
		if typ, err = pix.ParseKeyType(kt); err != nil {
			return fieldError("keyType", "must be CPF, CNPJ, EMAIL, PHONE or EVP")
		}
		key, err = pix.NormalizeKey(typ, raw)
	}
	if err != nil {
		return fieldError("key", "must be a PIX key: "+err.Error())
	}
	h, err := s.payments.LookupKey(c.UserContext(), integratorOf(c).ID, string(typ), key)
	switch {
	case errors.Is(err, providerclient.ErrUnsupported):
		return newError(http.StatusNotImplemented, codeNotSupported, "No settlement provider of this account's route offers a key lookup.")
	case errors.Is(err, providerclient.ErrNotFound):
		return newError(http.StatusNotFound, codeKeyNotFound, "The DICT has no such PIX key.")
	case err != nil:
		return err
	}
	return c.JSON(viewPixKey(h))
}

func fieldError(field, detail string) *apiError {
	return &apiError{Status: http.StatusUnprocessableEntity, Code: codeValidation, Message: field + " " + detail,
		Fields: map[string][]string{field: {detail}}}
}

// pixKeyView is who a key belongs to. The holder's document is masked as
// PIX apps show it (a CPF's six middle digits; a company's CNPJ, public,
// whole); fraud_marked says the DICT counts reported frauds against the
// key, and a withdrawal to it is refused.
type pixKeyView struct {
	Key         string          `json:"key"`
	KeyType     string          `json:"key_type"`
	Holder      pixKeyHolder    `json:"holder"`
	Institution pixKeyInstitute `json:"institution"`
	FraudMarked bool            `json:"fraud_marked"`
}

type pixKeyHolder struct {
	Name     string `json:"name"`
	Document string `json:"document"`
	// Type is NATURAL_PERSON (a CPF) or LEGAL_PERSON (a CNPJ), the DICT's
	// words.
	Type string `json:"type"`
}

type pixKeyInstitute struct {
	Name string `json:"name"`
	ISPB string `json:"ispb"`
}

func viewPixKey(h *providerclient.KeyHolder) pixKeyView {
	doc := strings.ToUpper(h.Document)
	typ := "LEGAL_PERSON"
	if len(doc) == 11 {
		typ = "NATURAL_PERSON"
	}
	if !strings.Contains(doc, "*") {
		doc = pix.MaskDocument(doc)
	}
	return pixKeyView{Key: h.Key, KeyType: h.KeyType, Holder: pixKeyHolder{Name: h.Name, Document: doc, Type: typ},
		Institution: pixKeyInstitute{Name: h.Institution, ISPB: h.ISPB}, FraudMarked: h.FraudMarked}
}
