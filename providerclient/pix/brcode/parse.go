package brcode

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pixgate/pixgate/storage/money"
)

// field is one TLV entry. Lengths count characters, so a name with an
// accented letter written by another generator still parses.
type field struct {
	id, value string
}

// Parse reads a BR Code. It refuses a payload whose CRC does not verify,
// whose TLV lengths do not add up, which misses a mandatory field (00, a PIX
// merchant account with a location or a key, 52, 53, 58, 59, 60, 62/05, 63)
// or whose fields break their rules. Unknown fields are allowed and ignored.
func Parse(s string) (Payload, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		return Payload{}, fmt.Errorf("%w: not UTF-8", ErrTLV)
	}
	if utf8.RuneCountInString(s) > maxPayload {
		return Payload{}, fmt.Errorf("%w: longer than %d characters", ErrField, maxPayload)
	}
	if len(s) < 8 || s[len(s)-8:len(s)-4] != idCRC+"04" {
		return Payload{}, fmt.Errorf("%w: CRC (63) must close the payload", ErrMissing)
	}
	if !strings.EqualFold(crcHex(s[:len(s)-4]), s[len(s)-4:]) {
		return Payload{}, ErrCRC
	}
	fields, err := parseTLV(s)
	if err != nil {
		return Payload{}, err
	}
	if fields[0].id != idFormat || fields[0].value != "01" {
		return Payload{}, fmt.Errorf("%w: payload format (00) must come first with value 01", ErrField)
	}
	if fields[len(fields)-1].id != idCRC {
		return Payload{}, fmt.Errorf("%w: CRC (63) must be the last field", ErrTLV)
	}
	return payloadOf(toMap(fields))
}

func payloadOf(f map[string]string) (Payload, error) {
	var p Payload
	if v, ok := f[idInitiation]; ok && v != "11" && v != "12" {
		return p, fmt.Errorf("%w: point of initiation (01) must be 11 or 12", ErrField)
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
			return p, fmt.Errorf("%w: amount (54) must be a positive decimal of at most %d characters", ErrField, maxAmountText)
		}
		p.Amount = m
	}
	additional, ok := f[idAdditional]
	if !ok {
		return p, fmt.Errorf("%w: additional data (62)", ErrMissing)
	}
	sub, err := parseTLV(additional)
	if err != nil {
		return p, err
	}
	txid, ok := toMap(sub)[subTxID]
	if !ok {
		return p, fmt.Errorf("%w: txid (62/05)", ErrMissing)
	}
	if utf8.RuneCountInString(txid) > maxTxID {
		return p, fmt.Errorf("%w: txid (62/05) longer than %d characters", ErrField, maxTxID)
	}
	p.TxID = txid
	return p, nil
}

// readAccount finds the PIX merchant account among the templates 26–51 (PIX
// uses 26) and reads its location or key.
func readAccount(f map[string]string, p *Payload) error {
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
			return fmt.Errorf("%w: PIX account carries both a location and a key", ErrField)
		case hasLoc && utf8.RuneCountInString(loc) <= maxLocation:
			p.Location = loc
		case hasKey && utf8.RuneCountInString(key) <= maxKey:
			p.Key = key
		case hasLoc || hasKey:
			return fmt.Errorf("%w: location or key longer than %d characters", ErrField, maxKey)
		default:
			return fmt.Errorf("%w: location (26/25) or key (26/01)", ErrMissing)
		}
		return nil
	}
	return fmt.Errorf("%w: PIX merchant account (26)", ErrMissing)
}

func expect(f map[string]string, id string, ok func(string) bool) error {
	v, present := f[id]
	if !present {
		return fmt.Errorf("%w: %s", ErrMissing, id)
	}
	if !ok(v) {
		return fmt.Errorf("%w: field %s = %q", ErrField, id, v)
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
			return nil, fmt.Errorf("%w: truncated field at position %d", ErrTLV, i)
		}
		id, length := string(r[i:i+2]), string(r[i+2:i+4])
		if !digits(id) || !digits(length) {
			return nil, fmt.Errorf("%w: bad id or length at position %d", ErrTLV, i)
		}
		n := int(length[0]-'0')*10 + int(length[1]-'0')
		if n == 0 || i+4+n > len(r) {
			return nil, fmt.Errorf("%w: field %s has a bad length", ErrTLV, id)
		}
		if seen[id] {
			return nil, fmt.Errorf("%w: field %s repeated", ErrTLV, id)
		}
		seen[id] = true
		out = append(out, field{id: id, value: string(r[i+4 : i+4+n])})
		i += 4 + n
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrTLV)
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
