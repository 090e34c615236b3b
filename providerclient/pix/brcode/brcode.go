// Package brcode writes the PIX BR Code: the EMV merchant presented QR
// payload behind every PIX QR code and its "copy and paste" string. (Its
// tests read codes back, with a parser of their own.)
//
// A payload is a list of TLV fields (2-digit id, 2-digit decimal length,
// value) closed by a CRC16/CCITT-FALSE in field 63. Dynamic codes carry a
// location URL (26/25) whose content the payer's bank fetches, and "***" in
// 62/05; static codes carry a PIX key (26/01) and an optional txid in 62/05.
package brcode

import (
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/storage/money"
)

// Payload is what a BR Code says.
type Payload struct {
	// MerchantName is field 59, at most 25 characters.
	MerchantName string
	// MerchantCity is field 60, at most 15 characters.
	MerchantCity string
	// Location is the URL without scheme (26/25, at most 77 characters) of a
	// dynamic code.
	Location string
	// Key is the PIX key (26/01) of a static code.
	Key string
	// Amount is field 54; zero means the payer chooses the amount.
	Amount money.Money
	// RecurrenceLocation is the location without scheme (80/25, at most 77
	// characters) of the Pix Automático recurrence whose consent the code
	// asks (recurrence.go).
	RecurrenceLocation string
	// TxID is field 62/05: "***" for dynamic codes (the default when empty),
	// or up to 25 letters and digits for a static code.
	TxID string
}

// Dynamic reports whether the code points to a location (a single-use charge)
// rather than carrying a key.
func (p Payload) Dynamic() bool { return p.Location != "" }

// Field ids and limits of the PIX BR Code.
const (
	idFormat      = "00"
	idInitiation  = "01"
	idAccount     = "26"
	idCategory    = "52"
	idCurrency    = "53"
	idAmount      = "54"
	idCountry     = "58"
	idName        = "59"
	idCity        = "60"
	idAdditional  = "62"
	idCRC         = "63"
	subGUI        = "00"
	subKey        = "01"
	subLocation   = "25"
	subTxID       = "05"
	pixGUI        = "br.gov.bcb.pix"
	dynamicTxID   = "***"
	maxPayload    = 512
	maxName       = 25
	maxCity       = 15
	maxLocation   = 77
	maxKey        = 77
	maxTxID       = 25
	maxAmountText = 13
)

// MaxAmount is the largest amount field 54 can carry (13 characters).
const MaxAmount money.Money = 999_999_999_999

// Errors returned by Parse and Encode. All of them match ErrInvalid with
// errors.Is; the others say which rule was broken.
var (
	ErrInvalid = errors.New("invalid BR Code")
	ErrCRC     = fmt.Errorf("%w: CRC does not match", ErrInvalid)
	ErrTLV     = fmt.Errorf("%w: malformed TLV", ErrInvalid)
	ErrMissing = fmt.Errorf("%w: missing mandatory field", ErrInvalid)
	ErrField   = fmt.Errorf("%w: bad field value", ErrInvalid)
)
