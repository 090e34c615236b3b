package pix

import "strings"

// KeyType is the canonical name of a PIX key type, as PixGate stores it.
type KeyType string

// The five key types of the Central Bank's key directory (DICT).
const (
	KeyCPF   KeyType = "CPF"
	KeyCNPJ  KeyType = "CNPJ"
	KeyEmail KeyType = "EMAIL"
	KeyPhone KeyType = "PHONE"
	KeyEVP   KeyType = "EVP"
)

// ParseKeyType reads a key type the way the provider family spells it:
// case-insensitively, with the aliases TELEFONE (PHONE) and RANDOM, ALEATORIA,
// CHAVE_ALEATORIA (EVP). Surrounding spaces are ignored.
func ParseKeyType(s string) (KeyType, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "CPF":
		return KeyCPF, nil
	case "CNPJ":
		return KeyCNPJ, nil
	case "EMAIL":
		return KeyEmail, nil
	case "PHONE", "TELEFONE":
		return KeyPhone, nil
	case "EVP", "RANDOM", "ALEATORIA", "CHAVE_ALEATORIA":
		return KeyEVP, nil
	}
	return "", ErrKeyType
}

// DetectKey reads a key given without its type, as a payer types it in a
// banking app, and returns its type and canonical form: an e-mail (it has
// an @), a phone (+55…), a random key (a UUID), else a CPF or a CNPJ (by
// their check digits). A key that is none of them is ErrKeyType.
func DetectKey(key string) (KeyType, string, error) {
	s := strings.TrimSpace(key)
	var order []KeyType
	switch {
	case s == "":
		return "", "", ErrKeyRequired
	case strings.Contains(s, "@"):
		order = []KeyType{KeyEmail}
	case strings.HasPrefix(s, "+"):
		order = []KeyType{KeyPhone}
	case strings.Count(s, "-") == 4 && len(s) == 36:
		order = []KeyType{KeyEVP}
	default:
		order = []KeyType{KeyCPF, KeyCNPJ}
	}
	var err error
	for _, t := range order {
		var norm string
		if norm, err = NormalizeKey(t, s); err == nil {
			return t, norm, nil
		}
	}
	if len(order) > 1 {
		err = ErrKeyType
	}
	return "", "", err
}
