package pix

import "strings"

// NormalizeKey validates a PIX key of the given type by the Central Bank's
// key directory rules and returns the form PixGate stores and sends:
//
//   - CPF, CNPJ: check digits verified, punctuation stripped, CNPJ letters
//     uppercased;
//   - EMAIL: trimmed, lowercased, at most 77 characters, local@domain with a
//     dotted domain;
//   - PHONE: "+55" + area code + 8 or 9 digits; "(11) 99876-5432",
//     "11998765432", "5511998765432" and "+55 11 99876-5432" are all read;
//   - EVP: a UUID of 36 characters, lowercased.
func NormalizeKey(t KeyType, key string) (string, error) {
	if strings.TrimSpace(key) == "" {
		return "", ErrKeyRequired
	}
	switch t {
	case KeyCPF:
		if v, ok := normalizeCPF(key); ok {
			return v, nil
		}
		return "", ErrInvalidCPF
	case KeyCNPJ:
		if v, ok := normalizeCNPJ(key); ok {
			return v, nil
		}
		return "", ErrInvalidCNPJ
	case KeyEmail:
		return normalizeEmail(key)
	case KeyPhone:
		return normalizePhone(key)
	case KeyEVP:
		return normalizeEVP(key)
	}
	return "", ErrKeyType
}

const maxEmailKey = 77

func normalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) > maxEmailKey {
		return "", ErrEmailTooLong
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || !validLocalPart(local) || !validDomain(domain) {
		return "", ErrInvalidEmail
	}
	return s, nil
}

func validLocalPart(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && !strings.ContainsRune("!#$%&'*+/=?^_`{|}~.-", rune(c)) {
			return false
		}
	}
	return true
}

func validDomain(s string) bool {
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			if !isAlnum(l[i]) && l[i] != '-' {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	return true
}

// validDDDs lists Brazil's area codes (Anatel), two digits each.
const validDDDs = "11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 " +
	"41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 " +
	"71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99"

func normalizePhone(s string) (string, error) {
	d := stripPunctuation(s)
	switch {
	case strings.HasPrefix(d, "+55"):
		d = d[3:]
	case strings.HasPrefix(d, "+"):
		return "", ErrInvalidPhone
	case len(d) == 12 || len(d) == 13:
		if !strings.HasPrefix(d, "55") {
			return "", ErrInvalidPhone
		}
		d = d[2:]
	}
	if (len(d) != 10 && len(d) != 11) || !allDigits(d) || !strings.Contains(validDDDs, d[:2]) {
		return "", ErrInvalidPhone
	}
	number := d[2:]
	// Mobile numbers have 9 digits and start with 9; landlines have 8 and
	// never start with 0 or 1.
	if len(number) == 9 && number[0] != '9' || len(number) == 8 && number[0] < '2' {
		return "", ErrInvalidPhone
	}
	return "+55" + d, nil
}

func normalizeEVP(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) != 36 {
		return "", ErrInvalidRandom
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return "", ErrInvalidRandom
			}
		default:
			if !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f') {
				return "", ErrInvalidRandom
			}
		}
	}
	return s, nil
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
