package pix

import "strings"

// NormalizeDocument returns a valid CPF or CNPJ without punctuation (CNPJ
// letters uppercased), or ErrInvalidDoc.
func NormalizeDocument(s string) (string, error) {
	if v, ok := normalizeCPF(s); ok {
		return v, nil
	}
	if v, ok := normalizeCNPJ(s); ok {
		return v, nil
	}
	return "", ErrInvalidDoc
}

// stripPunctuation removes the separators people type in documents and phone
// numbers. Anything else is kept, so that it fails validation.
func stripPunctuation(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '.', '-', '/', ' ', '(', ')':
			return -1
		}
		return r
	}, strings.TrimSpace(s))
}

func normalizeCPF(s string) (string, bool) {
	d := stripPunctuation(s)
	if len(d) != 11 || !allDigits(d) || allSame(d) {
		return "", false
	}
	if cpfDigit(d[:9]) != d[9] || cpfDigit(d[:10]) != d[10] {
		return "", false
	}
	return d, true
}

// cpfDigit computes the next CPF check digit of the given prefix: weights
// start at len+1 and go down to 2.
func cpfDigit(prefix string) byte {
	sum := 0
	for i := 0; i < len(prefix); i++ {
		sum += int(prefix[i]-'0') * (len(prefix) + 1 - i)
	}
	r := sum * 10 % 11
	if r == 10 {
		r = 0
	}
	return byte('0' + r)
}

func normalizeCNPJ(s string) (string, bool) {
	d := strings.ToUpper(stripPunctuation(s))
	if len(d) != 14 || !allDigits(d[12:]) || allSame(d) {
		return "", false
	}
	for i := 0; i < 12; i++ {
		c := d[i]
		if !(c >= '0' && c <= '9') && !(c >= 'A' && c <= 'Z') {
			return "", false
		}
	}
	if cnpjDigit(d[:12]) != d[12] || cnpjDigit(d[:13]) != d[13] {
		return "", false
	}
	return d, true
}

// cnpjDigit computes the next CNPJ check digit of the given prefix. Weights
// run 2..9 from the right and wrap; each character is worth its ASCII code
// minus 48, which keeps digits as they are and makes 'A' 17.
func cnpjDigit(prefix string) byte {
	sum, w := 0, 2
	for i := len(prefix) - 1; i >= 0; i-- {
		sum += int(prefix[i]-'0') * w
		if w++; w > 9 {
			w = 2
		}
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func allSame(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return true
}
