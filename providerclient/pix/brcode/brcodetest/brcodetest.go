// Package brcodetest reads PIX BR Codes back, for tests: PixGate only
// writes them (package brcode), and its tests check what it wrote, and
// what the Central Bank published, with this reader, written apart from
// the writer so that the two cannot share a misreading of the
// specification.
package brcodetest

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pixgate/pixgate/providerclient/pix/brcode"
	"github.com/pixgate/pixgate/storage/money"
)

// Field ids and limits of the PIX BR Code, as the reader knows them.
const (
	idFormat      = "00"
	idInitiation  = "01"
	idCategory    = "52"
	idCurrency    = "53"
	idAmount      = "54"
	idCountry     = "58"
	idName        = "59"
	idCity        = "60"
	idAdditional  = "62"
	idCRC         = "63"
	idRecurrence  = "80"
	subGUI        = "00"
	subKey        = "01"
	subLocation   = "25"
	subTxID       = "05"
	pixGUI        = "br.gov.bcb.pix"
	maxPayload    = 512
	maxName       = 25
	maxCity       = 15
	maxLocation   = 77
	maxKey        = 77
	maxTxID       = 25
	maxAmountText = 13
)

// crcHex is field 63's value for data: brcode.CRC16 as 4 uppercase hex
// digits.
func crcHex(data string) string { return fmt.Sprintf("%04X", brcode.CRC16([]byte(data))) }

// field is one TLV entry. Lengths count characters, so a name with an
// accented letter written by another generator still parses.
type field struct {
	id, value string
}

// Parse reads a BR Code. It refuses a payload whose CRC does not verify,
// whose TLV lengths do not add up, which misses a mandatory field (00, a PIX
// merchant account with a location or a key, 52, 53, 58, 59, 60, 62/05, 63)
// or whose fields break their rules. Unknown fields are allowed and ignored.
func Parse(s string) (brcode.Payload, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		return brcode.Payload{}, fmt.Errorf("%w: not UTF-8", brcode.ErrTLV)
	}
	if utf8.RuneCountInString(s) > maxPayload {
		return brcode.Payload{}, fmt.Errorf("%w: longer than %d characters", brcode.ErrField, maxPayload)
	}
	if len(s) < 8 || s[len(s)-8:len(s)-4] != idCRC+"04" {
		return brcode.Payload{}, fmt.Errorf("%w: CRC (63) must close the payload", brcode.ErrMissing)
	}
	if !strings.EqualFold(crcHex(s[:len(s)-4]), s[len(s)-4:]) {
		return brcode.Payload{}, brcode.ErrCRC
	}
	fields, err := parseTLV(s)
	if err != nil {
		return brcode.Payload{}, err
	}
	if fields[0].id != idFormat || fields[0].value != "01" {
		return brcode.Payload{}, fmt.Errorf("%w: payload format (00) must come first with value 01", brcode.ErrField)
	}
	if fields[len(fields)-1].id != idCRC {
		return brcode.Payload{}, fmt.Errorf("%w: CRC (63) must be the last field", brcode.ErrTLV)
	}
	return payloadOf(toMap(fields))
}

func payloadOf(f map[string]string) (brcode.Payload, error) {
	var p brcode.Payload
	if v, ok := f[idInitiation]; ok && v != "11" && v != "12" {
		return p, fmt.Errorf("%w: point of initiation (01) must be 11 or 12", brcode.ErrField)
	}
	if err := readAccount(f, &p); err != nil {
		return p, err
	}
	if err := expect(f, idCategory, func(v string) bool { return len(v) == 4 && digits(v) }); err != nil {
		return p, err
	}
	if err := expect(f, idCurrency, func(v string) bool { return v == "986" }); err != nil {
		return p, err
	}
	if err := expect(f, idCountry, func(v string) bool { return v == "BR" }); err != nil {
		return p, err
	}
	if err := expect(f, idName, func(v string) bool { return utf8.RuneCountInString(v) <= maxName }); err != nil {
		return p, err
	}
	if err := expect(f, idCity, func(v string) bool { return utf8.RuneCountInString(v) <= maxCity }); err != nil {
		return p, err
	}
	p.MerchantName, p.MerchantCity = f[idName], f[idCity]
	if v, ok := f[idAmount]; ok {
		m, err := money.Parse(v)
		if err != nil || m <= 0 || len(v) > maxAmountText || strings.HasPrefix(v, "-") {
			return p, fmt.Errorf("%w: amount (54) must be a positive decimal of at most %d characters", brcode.ErrField, maxAmountText)
		}
		p.Amount = m
	}
	additional, ok := f[idAdditional]
	if !ok {
		return p, fmt.Errorf("%w: additional data (62)", brcode.ErrMissing)
	}
	sub, err := parseTLV(additional)
	if err != nil {
		return p, err
	}
	txid, ok := toMap(sub)[subTxID]
	if !ok {
		return p, fmt.Errorf("%w: txid (62/05)", brcode.ErrMissing)
	}
	if utf8.RuneCountInString(txid) > maxTxID {
		return p, fmt.Errorf("%w: txid (62/05) longer than %d characters", brcode.ErrField, maxTxID)
	}
	p.TxID = txid
	return p, readRecurrence(f, &p)
}

// readRecurrence reads Pix Automático's template (80: GUI br.gov.bcb.pix
// and the recurrence's location in 25), when the code carries it; an 80
// of another GUI is ignored as any unknown field.
func readRecurrence(f map[string]string, p *brcode.Payload) error {
	v, ok := f[idRecurrence]
	if !ok {
		return nil
	}
	sub, err := parseTLV(v)
	if err != nil {
		return err
	}
	m := toMap(sub)
	loc, hasLoc := m[subLocation]
	switch {
	case !strings.EqualFold(m[subGUI], pixGUI):
		return nil // another scheme's template (80–99 are unreserved)
	case !hasLoc:
		return fmt.Errorf("%w: recurrence location (80/25)", brcode.ErrMissing)
	case utf8.RuneCountInString(loc) > maxLocation:
		return fmt.Errorf("%w: recurrence location longer than %d characters", brcode.ErrField, maxLocation)
	}
	p.RecurrenceLocation = loc
	return nil
}

// readAccount finds the PIX merchant account among the templates 26–51 (PIX
// uses 26) and reads its location or key.
func readAccount(f map[string]string, p *brcode.Payload) error {
	for id := 26; id <= 51; id++ {
		v, ok := f[fmt.Sprintf("%02d", id)]
		if !ok {
			continue
		}
		sub, err := parseTLV(v)
		if err != nil {
			return err
		}
		m := toMap(sub)
		if !strings.EqualFold(m[subGUI], pixGUI) {
			continue
		}
		loc, hasLoc := m[subLocation]
		key, hasKey := m[subKey]
		switch {
		case hasLoc && hasKey:
			return fmt.Errorf("%w: PIX account carries both a location and a key", brcode.ErrField)
		case hasLoc && utf8.RuneCountInString(loc) <= maxLocation:
			p.Location = loc
		case hasKey && utf8.RuneCountInString(key) <= maxKey:
			p.Key = key
		case hasLoc || hasKey:
			return fmt.Errorf("%w: location or key longer than %d characters", brcode.ErrField, maxKey)
		default:
			return fmt.Errorf("%w: location (26/25) or key (26/01)", brcode.ErrMissing)
		}
		return nil
	}
	return fmt.Errorf("%w: PIX merchant account (26)", brcode.ErrMissing)
}

func expect(f map[string]string, id string, ok func(string) bool) error {
	v, present := f[id]
	if !present {
		return fmt.Errorf("%w: %s", brcode.ErrMissing, id)
	}
	if !ok(v) {
		return fmt.Errorf("%w: field %s = %q", brcode.ErrField, id, v)
	}
	return nil
}

// parseTLV splits s into fields. Every field needs a 2-digit id, a 2-digit
// length of at least 1 and that many characters; ids may not repeat.
func parseTLV(s string) ([]field, error) {
	r := []rune(s)
	var out []field
	seen := make(map[string]bool)
	for i := 0; i < len(r); {
		if len(r)-i < 4 {
			return nil, fmt.Errorf("%w: truncated field at position %d", brcode.ErrTLV, i)
		}
		id, length := string(r[i:i+2]), string(r[i+2:i+4])
		if !digits(id) || !digits(length) {
			return nil, fmt.Errorf("%w: bad id or length at position %d", brcode.ErrTLV, i)
		}
		n := int(length[0]-'0')*10 + int(length[1]-'0')
		if n == 0 || i+4+n > len(r) {
			return nil, fmt.Errorf("%w: field %s has a bad length", brcode.ErrTLV, id)
		}
		if seen[id] {
			return nil, fmt.Errorf("%w: field %s repeated", brcode.ErrTLV, id)
		}
		seen[id] = true
		out = append(out, field{id: id, value: string(r[i+4 : i+4+n])})
		i += 4 + n
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: empty", brcode.ErrTLV)
	}
	return out, nil
}

func toMap(fields []field) map[string]string {
	m := make(map[string]string, len(fields))
	for _, f := range fields {
		m[f.id] = f.value
	}
	return m
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
