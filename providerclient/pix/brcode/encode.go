package brcode

import (
	"fmt"
	"strings"
)

// Encode renders p as a BR Code string: fields in the order of the PIX
// manual, amount with two decimals, CRC as 4 uppercase hex digits. Accented
// letters in the merchant name and city are folded to ASCII ("São Paulo" →
// "Sao Paulo"); any other non-ASCII character is refused, as are values over
// their length limits.
func Encode(p Payload) (string, error) {
	name, err := textField("merchant name", p.MerchantName, maxName)
	if err != nil {
		return "", err
	}
	city, err := textField("merchant city", p.MerchantCity, maxCity)
	if err != nil {
		return "", err
	}
	account, err := accountField(p)
	if err != nil {
		return "", err
	}
	txid := p.TxID
	if txid == "" {
		txid = dynamicTxID
	}
	if !validTxID(txid) {
		return "", fmt.Errorf("%w: txid must be *** or up to %d letters and digits", ErrField, maxTxID)
	}
	if p.Amount < 0 || p.Amount > MaxAmount {
		return "", fmt.Errorf("%w: amount must be between 0 and %s", ErrField, MaxAmount)
	}

	var b strings.Builder
	b.WriteString(tlv(idFormat, "01"))
	if p.Dynamic() {
		b.WriteString(tlv(idInitiation, "12"))
	}
	b.WriteString(tlv(idAccount, account))
	b.WriteString(tlv(idCategory, "0000"))
	b.WriteString(tlv(idCurrency, "986"))
	if p.Amount > 0 {
		b.WriteString(tlv(idAmount, p.Amount.String()))
	}
	b.WriteString(tlv(idCountry, "BR"))
	b.WriteString(tlv(idName, name))
	b.WriteString(tlv(idCity, city))
	b.WriteString(tlv(idAdditional, tlv(subTxID, txid)))
	if p.RecurrenceLocation != "" {
		rec, err := recurrenceField(p.RecurrenceLocation)
		if err != nil {
			return "", err
		}
		b.WriteString(rec)
	}
	b.WriteString(idCRC + "04")
	out := b.String()
	out += crcHex(out)
	if len(out) > maxPayload {
		return "", fmt.Errorf("%w: payload longer than %d characters", ErrField, maxPayload)
	}
	return out, nil
}

func accountField(p Payload) (string, error) {
	switch {
	case p.Location != "" && p.Key != "":
		return "", fmt.Errorf("%w: a code carries a location or a key, not both", ErrField)
	case p.Location != "":
		if err := checkLocation("location", p.Location); err != nil {
			return "", err
		}
		return tlv(subGUI, pixGUI) + tlv(subLocation, p.Location), nil
	case p.Key != "":
		if len(p.Key) > maxKey || !printableASCII(p.Key) {
			return "", fmt.Errorf("%w: key must be at most %d printable characters", ErrField, maxKey)
		}
		return tlv(subGUI, pixGUI) + tlv(subKey, p.Key), nil
	}
	return "", fmt.Errorf("%w: a location or a key", ErrMissing)
}

// checkLocation checks a location (26/25 or 80/25): a URL without its
// scheme, of at most maxLocation printable characters and no space.
func checkLocation(what, loc string) error {
	switch {
	case loc == "":
		return fmt.Errorf("%w: %s", ErrMissing, what)
	case strings.Contains(loc, "://"):
		return fmt.Errorf("%w: %s is written without its scheme", ErrField, what)
	case len(loc) > maxLocation || !printableASCII(loc) || strings.Contains(loc, " "):
		return fmt.Errorf("%w: %s must be at most %d printable characters", ErrField, what, maxLocation)
	}
	return nil
}

// textField folds accents and checks the length of a name or city.
func textField(what, s string, max int) (string, error) {
	s, ok := foldASCII(strings.TrimSpace(s))
	switch {
	case !ok:
		return "", fmt.Errorf("%w: %s must be plain letters, digits and punctuation", ErrField, what)
	case s == "":
		return "", fmt.Errorf("%w: %s", ErrMissing, what)
	case len(s) > max:
		return "", fmt.Errorf("%w: %s must be at most %d characters", ErrField, what, max)
	}
	return s, nil
}

func tlv(id, value string) string { return fmt.Sprintf("%s%02d%s", id, len(value), value) }

// Accented letters of Portuguese and their ASCII letters, rune by rune.
const (
	foldFrom = "áàâãäéèêëíìîïóòôõöúùûüçñÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑ"
	foldTo   = "aaaaaeeeeiiiiooooouuuucnAAAAAEEEEIIIIOOOOOUUUUCN"
)

func foldASCII(s string) (string, bool) {
	from := []rune(foldFrom)
	var b strings.Builder
	for _, r := range s {
		if r >= 0x20 && r <= 0x7e {
			b.WriteRune(r)
			continue
		}
		i := 0
		for i < len(from) && from[i] != r {
			i++
		}
		if i == len(from) {
			return "", false
		}
		b.WriteByte(foldTo[i])
	}
	return b.String(), true
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func validTxID(s string) bool {
	if s == dynamicTxID {
		return true
	}
	if s == "" || len(s) > maxTxID {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
