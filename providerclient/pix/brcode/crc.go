package brcode

import "fmt"

// CRC16 computes CRC16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF,
// no reflection, no final xor), the checksum of field 63.
func CRC16(data []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, b := range data {
		crc ^= uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// crcHex renders the checksum as field 63 carries it: 4 uppercase hex digits.
func crcHex(data string) string { return fmt.Sprintf("%04X", CRC16([]byte(data))) }
