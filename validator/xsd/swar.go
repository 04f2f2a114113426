package xsd

import "encoding/binary"

// Eight bytes at a time. In WebAssembly every iteration of a byte loop
// is a jump through the function's dispatch table, so the value checks
// that run for every entry of a big document (the URL of loc, its length
// and collapsing) look at a word of eight bytes with one test, and leave
// the byte loop the words that need a closer look.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// load64 returns s[i:i+8] as a little-endian word (one load where the
// compiler combines them: amd64, arm64, wasm).
func load64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// hasBlankOrLess reports whether a byte of x is below 0x21: a blank
// (space, tab, line feed, carriage return) or another control character.
func hasBlankOrLess(x uint64) bool { return (x-0x21*ones)&^x&highs != 0 }

// printable8 reports whether every byte of x is in 0x21..0x7E or 0x7F:
// ASCII and no blank.
func printable8(x uint64) bool { return (x|(x-0x21*ones))&highs == 0 }

// run returns the index of the first byte at or after i that t does not
// mark, testing eight bytes at a time.
func run(s string, i int, t *[256]uint8) int {
	for i+8 <= len(s) {
		_ = s[i+7]
		if t[s[i]]&t[s[i+1]]&t[s[i+2]]&t[s[i+3]]&t[s[i+4]]&t[s[i+5]]&t[s[i+6]]&t[s[i+7]] == 0 {
			break
		}
		i += 8
	}
	for i < len(s) && t[s[i]] != 0 {
		i++
	}
	return i
}

// nonZero8 has the high bit of each byte of y that is not zero set, and
// no other bit: exact byte by byte, unlike the borrow tests above.
func nonZero8(y uint64) uint64 { return ((y & 0x7F7F7F7F7F7F7F7F) + 0x7F7F7F7F7F7F7F7F | y) & highs }

// notBlank8 has the high bit set of each byte of x that is not a blank.
func notBlank8(x uint64) uint64 {
	return nonZero8(x^' '*ones) & nonZero8(x^'\t'*ones) & nonZero8(x^'\n'*ones) & nonZero8(x^'\r'*ones)
}

// allBlank reports whether b holds only blanks (true for no bytes). The
// text between tags is short: when b's capacity allows (it is a slice of
// the Scanner's buffer) its last bytes are read as one word and the bytes
// past its length masked off, so that no byte loop runs.
func allBlank(b []byte) bool {
	for len(b) >= 8 {
		if notBlank8(binary.LittleEndian.Uint64(b)) != 0 {
			return false
		}
		b = b[8:]
	}
	if len(b) == 0 {
		return true
	}
	if cap(b) >= 8 {
		mask := uint64(1)<<(8*len(b)) - 1
		return notBlank8(binary.LittleEndian.Uint64(b[:8]))&mask == 0
	}
	for _, c := range b {
		if !isBlank(c) {
			return false
		}
	}
	return true
}
