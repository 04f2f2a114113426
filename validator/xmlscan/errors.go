package xmlscan

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Error formats the error as "line:col: message", the way the Go toolchain
// reports positions.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// errShort is the internal signal that a token continues past the buffered
// input: the caller reads more and parses the token again. It never escapes
// the package.
var errShort = errors.New("xmlscan: token continues past the buffer")

// errAt returns a SyntaxError at buffer index i.
func (s *Scanner) errAt(i int, format string, args ...any) error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &SyntaxError{Pos: s.posAt(i), Msg: msg}
}

// short reports that the current token ends at buffer index i: errShort
// while more input may come, a SyntaxError at the end of the input
// otherwise.
func (s *Scanner) short(i int, what string) error {
	if s.rerr != io.EOF {
		return errShort
	}
	return s.errAt(i, "unexpected end of input in %s", what)
}

// charErr describes the byte at buffer index i, which the caller found
// unexpected: a malformed encoding, a character XML does not allow, or
// simply a character out of place (then the message is "unexpected
// character X in what").
func (s *Scanner) charErr(i int, what string) error {
	if i >= s.w {
		return s.errAt(i, "unexpected end of input in %s", what)
	}
	if err := s.badChar(i); err != nil {
		return err
	}
	r, _ := utf8.DecodeRune(s.buf[i:s.w])
	return s.errAt(i, "unexpected character %q in %s", r, what)
}

// badChar returns an error if the input at buffer index i does not decode
// to a character XML allows, nil otherwise.
func (s *Scanner) badChar(i int) error {
	c := s.buf[i]
	if c < utf8.RuneSelf {
		if !isChar(rune(c)) {
			return s.errAt(i, "character U+%04X is not allowed in XML", c)
		}
		return nil
	}
	if s.ascii {
		return s.errAt(i, "byte 0x%02X is not allowed in a document declared US-ASCII", c)
	}
	r, n := utf8.DecodeRune(s.buf[i:s.w])
	if r == utf8.RuneError && n <= 1 {
		return s.encodingErr(i)
	}
	if !isChar(r) {
		return s.errAt(i, "character U+%04X is not allowed in XML", r)
	}
	return nil
}

// encodingErr reports bytes that do not decode.
func (s *Scanner) encodingErr(i int) error {
	if s.enc == encUTF16LE || s.enc == encUTF16BE {
		return s.errAt(i, "invalid UTF-16 input (unpaired surrogate or odd number of bytes)")
	}
	return s.errAt(i, "invalid UTF-8 byte 0x%02X", s.buf[i])
}

// checkRune validates the non-ASCII character at b[i] (b is a slice of the
// buffer starting at buffer index base) and returns its length.
func (s *Scanner) checkRune(b []byte, i, base int) (int, error) {
	if s.ascii {
		return 0, s.badChar(base + i)
	}
	r, n := utf8.DecodeRune(b[i:])
	if r == utf8.RuneError && n <= 1 {
		return 0, s.encodingErr(base + i)
	}
	if r == 0xFFFE || r == 0xFFFF {
		return 0, s.errAt(base+i, "character U+%04X is not allowed in XML", r)
	}
	return n, nil
}
