package family

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// Notification is what a provider notification claims: a transaction, its
// type and its status. PixGate believes none of it (it consults the
// provider before anything moves); the claim only decides which transaction
// to look at and when a copy is a duplicate. Everything else in the body is
// kept as the provider sent it, uninterpreted.
type Notification struct {
	TransactionType string // uppercased: RECEIVEPIX, PAYMENT, REFUND, or what the provider sent
	TransactionID   string
	Status          string // uppercased
}

// NotificationError is the neutral one: a body that names no transaction.
type NotificationError = providerclient.NotificationError

// Bounds of the claim's fields. Real values are short ASCII tokens (a
// transactionId is 32 letters and digits); anything else cannot name a
// transaction the provider will recognise.
const (
	maxClaimIDLen   = contract.MaxPixIDLen
	maxClaimWordLen = 32
)

// ParseNotification reads the claim of a notification, wrapped in
// "requestBody" or not (each field comes from requestBody when there, else
// from the top level). It needs only the three fields it returns, each a
// string (or a number, taken as written) of printable ASCII: so amounts
// written as 1e-100000, names in Latin-1, NUL characters or lone surrogates
// elsewhere in the body do not make a genuine notification unreadable.
func ParseNotification(body []byte) (Notification, error) {
	type claim struct {
		TransactionType json.RawMessage `json:"transactionType"`
		TransactionID   json.RawMessage `json:"transactionId"`
		Status          json.RawMessage `json:"status"`
	}
	var outer struct {
		claim
		RequestBody json.RawMessage `json:"requestBody"`
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return Notification{}, &NotificationError{Problem: "must be a JSON object"}
	}
	if err := json.Unmarshal(body, &outer); err != nil {
		return Notification{}, &NotificationError{Problem: "is not valid JSON"}
	}
	inner := claim{}
	if r := bytes.TrimSpace(outer.RequestBody); len(r) > 0 && string(r) != "null" {
		if r[0] != '{' || json.Unmarshal(r, &inner) != nil {
			return Notification{}, &NotificationError{Field: "requestBody", Problem: "must be an object"}
		}
	}
	var (
		n   Notification
		err error
	)
	if n.TransactionType, err = claimField("transactionType", pick(inner.TransactionType, outer.TransactionType), maxClaimWordLen); err != nil {
		return Notification{}, err
	}
	if n.TransactionID, err = claimField("transactionId", pick(inner.TransactionID, outer.TransactionID), maxClaimIDLen); err != nil {
		return Notification{}, err
	}
	if n.Status, err = claimField("status", pick(inner.Status, outer.Status), maxClaimWordLen); err != nil {
		return Notification{}, err
	}
	n.TransactionType, n.Status = strings.ToUpper(n.TransactionType), strings.ToUpper(n.Status)
	return n, nil
}

// pick is a claim's member from requestBody (a) when there, else from the
// top level (b).
func pick(a, b json.RawMessage) json.RawMessage {
	if len(a) > 0 && string(a) != "null" {
		return a
	}
	return b
}

// notificationEvents is the Event of claim n of body. A RECURRENCE's and
// a RECURRENCE_CYCLE's name PixGate's id too (external_id), when the body
// carries one.
func notificationEvents(n Notification, body []byte) ([]providerclient.Event, error) {
	ev := providerclient.Event{Kind: kindOf(n.TransactionType), ProviderID: n.TransactionID,
		Status: providerclient.Status(n.Status), Payload: body}
	switch n.TransactionType {
	case contract.TypeRecurrence, contract.TypeRecurrenceCycle:
		var err error
		ev.Kind = providerclient.KindRecurrence
		if n.TransactionType == contract.TypeRecurrenceCycle {
			ev.Kind = providerclient.KindRecurrenceCycle
		}
		if ev.ID, err = externalIDClaim(body); err != nil {
			return nil, err
		}
	}
	return []providerclient.Event{ev}, nil
}

// externalIDClaim is a notification's external_id, from requestBody when
// there, else from the top level; "" when it carries none. body is one
// ParseNotification read.
func externalIDClaim(body []byte) (string, error) {
	type claim struct {
		ExternalID json.RawMessage `json:"external_id"`
	}
	var outer struct {
		claim
		RequestBody json.RawMessage `json:"requestBody"`
	}
	var inner claim
	if err := json.Unmarshal(body, &outer); err != nil {
		return "", &NotificationError{Problem: "is not valid JSON"}
	}
	if r := bytes.TrimSpace(outer.RequestBody); len(r) > 0 && r[0] == '{' {
		if json.Unmarshal(r, &inner) != nil {
			return "", &NotificationError{Field: "requestBody", Problem: "must be an object"}
		}
	}
	raw := bytes.TrimSpace(pick(inner.ExternalID, outer.ExternalID))
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	return claimField("external_id", raw, contract.MaxExternalIDLen)
}

// claimField reads one field of the claim from its raw JSON.
func claimField(name string, raw json.RawMessage, maxLen int) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", &NotificationError{Field: name, Problem: "is required"}
	}
	var s string
	switch {
	case raw[0] == '"':
		if !utf8.Valid(raw) || json.Unmarshal(raw, &s) != nil {
			return "", &NotificationError{Field: name, Problem: "must be text"}
		}
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		s = string(raw)
	default:
		return "", &NotificationError{Field: name, Problem: "must be a string"}
	}
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", &NotificationError{Field: name, Problem: "is required"}
	case len(s) > maxLen:
		return "", &NotificationError{Field: name, Problem: fmt.Sprintf("must be at most %d characters", maxLen)}
	case strings.IndexFunc(s, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0:
		return "", &NotificationError{Field: name, Problem: "must be printable ASCII without spaces"}
	}
	return s, nil
}
