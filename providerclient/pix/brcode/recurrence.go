package brcode

import (
	"fmt"
	"slices"
	"strconv"
)

// Pix Automático's template: a BR Code that asks the payer's consent to a
// recurrence carries the recurrence's location in field 80 (GUI
// br.gov.bcb.pix in 80/00, the location without scheme in 80/25), after
// the additional data (62) and before the CRC (63). With a charge's
// location in 26 as well, the one code pays the charge and asks the
// consent (the BCB's journey 3). Layout as the BCB's API Pix 2.9.0
// examples write it (dadosQR.pixCopiaECola of JORNADA_2, 3 and 4).
const idRecurrence = "80"

// recurrenceField is field 80 for location, checked as a charge's.
func recurrenceField(location string) (string, error) {
	if err := checkLocation("recurrence location", location); err != nil {
		return "", err
	}
	return tlv(idRecurrence, tlv(subGUI, pixGUI)+tlv(subLocation, location)), nil
}

// WithRecurrence adds the recurrence's location (field 80) to a BR Code
// written by Encode, and closes it with a new CRC: a charge's code becomes
// the composite code that also asks the consent. A code that already
// carries a recurrence, or whose CRC does not close it, is refused.
func WithRecurrence(code, location string) (string, error) {
	field, err := recurrenceField(location)
	if err != nil {
		return "", err
	}
	n := len(code)
	if n < 8 || code[n-8:n-4] != idCRC+"04" || crcHex(code[:n-4]) != code[n-4:] {
		return "", fmt.Errorf("%w: the code does not end with its CRC (63)", ErrField)
	}
	body := code[:n-8]
	ids, ok := topIDs(body)
	switch {
	case !ok:
		return "", fmt.Errorf("%w: the code is not a list of fields", ErrTLV)
	case slices.Contains(ids, idRecurrence):
		return "", fmt.Errorf("%w: the code already carries a recurrence (80)", ErrField)
	}
	out := body + field + idCRC + "04"
	out += crcHex(out)
	if len(out) > maxPayload {
		return "", fmt.Errorf("%w: payload longer than %d characters", ErrField, maxPayload)
	}
	return out, nil
}

// topIDs lists the ids of the top-level fields of s, an ASCII payload as
// Encode writes it; ok is false when the lengths do not add up.
func topIDs(s string) (ids []string, ok bool) {
	for i := 0; i < len(s); {
		if len(s)-i < 4 {
			return nil, false
		}
		n, err := strconv.Atoi(s[i+2 : i+4])
		if err != nil || n <= 0 || i+4+n > len(s) {
			return nil, false
		}
		ids = append(ids, s[i:i+2])
		i += 4 + n
	}
	return ids, len(ids) > 0
}
