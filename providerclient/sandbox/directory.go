package sandbox

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"net/http"
	"strings"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
)

// The sandbox's key directory stands for the BCB's DICT: deterministic, so
// that tests and demos know what a key answers, with keys that do not
// exist and keys marked for fraud. Every valid key exists, held by someone
// derived from the key itself, except:
//
//   - not in the directory: e-mails whose local part starts with
//     "inexistente" or "unknown", phones ending in 0000, random keys (EVP)
//     starting with 00000000-, and the CPF 000.000.001-91;
//   - marked for fraud: e-mails whose local part starts with "fraude" or
//     "fraud", phones ending in 6666, random keys starting with deadbeef-,
//     and the CPF 111.444.777-35.
//
// A CPF or CNPJ key is held by that document; other keys by a person (a
// valid CPF) derived from the key. A PIX sent to a key not in the directory
// or marked for fraud is refused.

// DirectoryEntry is who a key belongs to in the sandbox's directory.
type DirectoryEntry = contract.KeyEntry

var (
	errNoSuchKey   = refusal("the PIX key is not in the directory (DICT)")
	errFraudMarked = refusal("the PIX key is marked for fraud in the directory (DICT)")
)

// directoryBanks are the institutions the directory spreads keys over
// (name, ISPB).
var directoryBanks = [][2]string{
	{"BCO DO BRASIL S.A.", "00000000"}, {"CAIXA ECONOMICA FEDERAL", "00360305"}, {"ITAÚ UNIBANCO S.A.", "60701190"},
	{"BCO BRADESCO S.A.", "60746948"}, {"NU PAGAMENTOS - IP", "18236120"}, {"PIXGATE SANDBOX", sandboxISPB},
}

var (
	firstNames = []string{"Ana", "Bruno", "Carla", "Diego", "Eduarda", "Felipe", "Gabriela", "Henrique", "Isabela", "João",
		"Larissa", "Marcos", "Natália", "Otávio", "Paula", "Rafael"}
	lastNames = []string{"Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
		"Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes"}
)

// LookupKey answers who the key of keyType belongs to, after
// normalizing both; ErrNotFound for a key not in the directory.
func LookupKey(keyType, key string) (DirectoryEntry, error) {
	kt, err := pix.ParseKeyType(keyType)
	if err != nil {
		return DirectoryEntry{}, err
	}
	if key, err = pix.NormalizeKey(kt, key); err != nil {
		return DirectoryEntry{}, err
	}
	e := DirectoryEntry{Key: key, KeyType: string(kt)}
	local, _, _ := strings.Cut(key, "@")
	switch {
	case kt == pix.KeyEmail && (strings.HasPrefix(local, "inexistente") || strings.HasPrefix(local, "unknown")),
		kt == pix.KeyPhone && strings.HasSuffix(key, "0000"),
		kt == pix.KeyEVP && strings.HasPrefix(key, "00000000-"),
		kt == pix.KeyCPF && key == "00000000191":
		return DirectoryEntry{}, ErrNotFound
	case kt == pix.KeyEmail && (strings.HasPrefix(local, "fraude") || strings.HasPrefix(local, "fraud")),
		kt == pix.KeyPhone && strings.HasSuffix(key, "6666"),
		kt == pix.KeyEVP && strings.HasPrefix(key, "deadbeef-"),
		kt == pix.KeyCPF && key == "11144477735":
		e.FraudMarked = true
	}
	h := sha256.Sum256([]byte(e.KeyType + "\x00" + key))
	n := binary.BigEndian.Uint64(h[:8])
	bank := directoryBanks[n%uint64(len(directoryBanks))]
	e.Bank, e.ISPB = bank[0], bank[1]
	switch kt {
	case pix.KeyCPF:
		e.TaxID, e.Name = key, personName(h[8:])
	case pix.KeyCNPJ:
		e.TaxID, e.Name = key, lastNames[int(h[8])%len(lastNames)]+" Comércio Ltda"
	default:
		e.TaxID, e.Name = derivedCPF(h[16:]), personName(h[8:])
	}
	return e, nil
}

func personName(b []byte) string {
	return firstNames[int(b[0])%len(firstNames)] + " " + lastNames[int(b[1])%len(lastNames)] + " " + lastNames[int(b[2])%len(lastNames)]
}

// derivedCPF is a valid CPF from b: nine digits and their two check
// digits.
func derivedCPF(b []byte) string {
	d := make([]int, 11)
	for i := range 9 {
		d[i] = int(b[i]) % 10
	}
	d[0] = 1 + int(b[0])%9 // never all digits equal
	for _, n := range []int{9, 10} {
		sum := 0
		for i := range n {
			sum += d[i] * (n + 1 - i)
		}
		if r := sum % 11; r >= 2 {
			d[n] = 11 - r
		}
	}
	var sb strings.Builder
	for _, v := range d {
		sb.WriteByte(byte('0' + v))
	}
	return sb.String()
}

// payable refuses a PIX to a key not in the directory or marked for fraud,
// as the payer's institution does after reading the DICT.
func payable(keyType, key string) error {
	e, err := LookupKey(keyType, key)
	switch {
	case errors.Is(err, ErrNotFound):
		return errNoSuchKey
	case err != nil:
		return refusal("creditParty.key: " + err.Error())
	case e.FraudMarked:
		return errFraudMarked
	}
	return nil
}

// handleKeyLookup is the family face's key directory route (ours,
// contract.PathKeyLookup).
func (s *Sandbox) handleKeyLookup(w http.ResponseWriter, r *http.Request) {
	var req contract.KeyLookup
	if !decodeJSON(w, r, &req) {
		return
	}
	e, err := LookupKey(req.KeyType, req.Key)
	switch {
	case errors.Is(err, ErrNotFound):
		s.face.writeError(w, http.StatusNotFound, "the PIX key is not in the directory")
	case err != nil:
		s.face.writeError(w, http.StatusUnprocessableEntity, err.Error())
	default:
		writeJSON(w, http.StatusOK, e)
	}
}

// handleDirectory is POST /sandbox/keys/lookup: the directory without a
// token, for tests and demos.
func (s *Sandbox) handleDirectory(w http.ResponseWriter, r *http.Request) {
	var req contract.KeyLookup
	if !decodeJSON(w, r, &req) {
		return
	}
	e, err := LookupKey(req.KeyType, req.Key)
	switch {
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, "the PIX key is not in the directory")
	case err != nil:
		writeError(w, http.StatusUnprocessableEntity, err.Error())
	default:
		writeJSON(w, http.StatusOK, e)
	}
}
