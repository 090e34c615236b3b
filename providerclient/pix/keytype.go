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
