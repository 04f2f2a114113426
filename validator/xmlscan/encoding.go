package xmlscan

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Input encodings. Everything is transcoded to UTF-8 before scanning, with
// the standard library only (golang.org/x/text would weigh on the WASM
// binary).
const (
	encUTF8 = iota
	encUTF16LE
	encUTF16BE
	encLatin1
)

// start detects the encoding from the first bytes (XML 1.0 Appendix F),
// reads the XML declaration if there is one and applies its encoding.
func (s *Scanner) start() error {
	s.started = true
	b := s.peek(4)
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		s.bom = 3
		s.r = 3
		s.ci = 3
		s.base = -3 // offsets count from after the byte order mark
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		s.bom = 2
		s.toUTF16(2, encUTF16LE)
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		s.bom = 2
		s.toUTF16(2, encUTF16BE)
	case bytes.HasPrefix(b, []byte{'<', 0, '?', 0}):
		s.toUTF16(0, encUTF16LE)
	case bytes.HasPrefix(b, []byte{0, '<', 0, '?'}):
		s.toUTF16(0, encUTF16BE)
	}
	if s.rerr != nil && s.rerr != io.EOF {
		return s.rerr
	}
	b = s.peek(6)
	if len(b) < 6 || string(b[:5]) != "<?xml" || !isSpace(b[5]) {
		return nil
	}
	s.mark()
	for {
		err := s.xmlDecl()
		if err != errShort {
			return err
		}
		if !s.grow() {
			if s.tooBig {
				return s.errAt(s.r, "XML declaration longer than %d bytes", s.lim.MaxTokenBytes)
			}
			if s.rerr != io.EOF {
				return s.rerr
			}
		}
	}
}

// toUTF16 switches to a UTF-16 decoder for the input after the first skip
// bytes of the buffer.
func (s *Scanner) toUTF16(skip int, enc int) {
	s.enc = enc
	rest := append([]byte(nil), s.buf[skip:s.w]...)
	d := &utf16Reader{r: s.rest(rest), be: enc == encUTF16BE}
	s.src = d
	s.rawCount = &d.raw
	s.rawBase = int64(skip)
	s.w = 0
}

// rest returns a reader for the already buffered raw bytes b followed by
// what remains of the original input.
func (s *Scanner) rest(b []byte) io.Reader {
	var tail io.Reader = s.raw
	switch s.rerr {
	case nil:
	case io.EOF:
		tail = eofReader{}
	default:
		tail = errReader{s.rerr}
	}
	s.rerr = nil
	return io.MultiReader(bytes.NewReader(b), tail)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// xmlDecl parses the XML declaration (production [23]) at s.r:
//
//	'<?xml' VersionInfo EncodingDecl? SDDecl? S? '?>'
func (s *Scanner) xmlDecl() error {
	b := s.buf[s.r:s.w]
	const what = "XML declaration"
	i := 5
	type field struct {
		name     string
		set      bool
		val      []byte
		valStart int
	}
	fields := [3]field{{name: "version"}, {name: "encoding"}, {name: "standalone"}}
	next := 0
	for {
		ws := i
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return s.short(s.r+i, what)
		}
		if b[i] == '?' {
			if i+1 >= len(b) {
				return s.short(s.r+i+1, what)
			}
			if b[i+1] != '>' {
				return s.charErr(s.r+i+1, what)
			}
			i += 2
			break
		}
		if ws == i {
			return s.errAt(s.r+i, "missing whitespace in XML declaration")
		}
		ns := i
		for i < len(b) && b[i] >= 'a' && b[i] <= 'z' {
			i++
		}
		if i >= len(b) {
			return s.short(s.r+i, what)
		}
		name := string(b[ns:i])
		if name == "" {
			return s.charErr(s.r+ns, what)
		}
		k := next
		for k < len(fields) && fields[k].name != name {
			k++
		}
		switch {
		case next == 0 && k != 0:
			return s.errAt(s.r+ns, "XML declaration must start with version")
		case k == len(fields):
			return s.errAt(s.r+ns, "unexpected %q in XML declaration", name)
		}
		next = k + 1
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return s.short(s.r+i, what)
		}
		if b[i] != '=' {
			return s.errAt(s.r+i, "expected '=' after %s in XML declaration", name)
		}
		i++
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return s.short(s.r+i, what)
		}
		q := b[i]
		if q != '"' && q != '\'' {
			return s.errAt(s.r+i, "value of %s in XML declaration is not quoted", name)
		}
		i++
		// None of the values may contain '<', '>' or '?': finding one
		// first means the quote is missing, whether or not a quote comes
		// later in the input.
		j := bytes.IndexByte(b[i:], q)
		v := b[i:]
		if j >= 0 {
			v = b[i : i+j]
		}
		if k := bytes.IndexAny(v, "<>?"); k >= 0 {
			return s.errAt(s.r+i+k, "unterminated %s value in XML declaration", name)
		}
		if j < 0 {
			return s.short(s.r+len(b), what)
		}
		fields[k].set, fields[k].val, fields[k].valStart = true, b[i:i+j], i
		i += j + 1
	}
	// Validate the values.
	for _, f := range fields {
		if !f.set {
			continue
		}
		v := string(f.val)
		at := s.r + f.valStart
		switch f.name {
		case "version":
			if !validVersion(v) {
				return s.errAt(at, "unsupported XML version %q (want 1.x)", v)
			}
			s.version = v
		case "encoding":
			if !validEncName(v) {
				return s.errAt(at, "invalid encoding name %q", v)
			}
			s.encoding = v
		case "standalone":
			if v != "yes" && v != "no" {
				return s.errAt(at, "standalone must be \"yes\" or \"no\", not %q", v)
			}
			s.standalone = v
		}
	}
	if s.version == "" {
		return s.errAt(s.r+5, "XML declaration lacks the version")
	}
	s.hasDecl = true
	s.r += i
	s.advance(s.r)
	if fields[1].set {
		return s.applyEncoding(s.r - i + fields[1].valStart)
	}
	return nil
}

func validVersion(v string) bool {
	if len(v) < 3 || v[:2] != "1." {
		return false
	}
	for i := 2; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// validEncName checks production [81] EncName.
func validEncName(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// applyEncoding checks the declared encoding against what the first bytes
// said and switches decoders for ISO-8859-1. at is the buffer index of the
// encoding value, for errors.
func (s *Scanner) applyEncoding(at int) error {
	name := strings.ToUpper(s.encoding)
	switch s.enc {
	case encUTF16LE, encUTF16BE:
		switch name {
		case "UTF-16", "UTF16":
			return nil
		case "UTF-16LE":
			if s.enc == encUTF16LE {
				return nil
			}
		case "UTF-16BE":
			if s.enc == encUTF16BE {
				return nil
			}
		}
		return s.errAt(at, "encoding %q declared but the document is UTF-16", s.encoding)
	}
	switch name {
	case "UTF-8", "UTF8":
		return nil
	case "UTF-16", "UTF16", "UTF-16LE", "UTF-16BE":
		return s.errAt(at, "encoding %q declared but the document is not UTF-16 (no byte order mark)", s.encoding)
	case "US-ASCII", "ASCII":
		if s.bom > 0 {
			return s.errAt(at, "encoding %q declared but the document starts with a UTF-8 byte order mark", s.encoding)
		}
		s.ascii = true
		return nil
	case "ISO-8859-1", "ISO_8859-1", "LATIN1", "ISO8859-1", "ISO-LATIN-1", "L1":
		if s.bom > 0 {
			return s.errAt(at, "encoding %q declared but the document starts with a UTF-8 byte order mark", s.encoding)
		}
		s.enc = encLatin1
		rest := append([]byte(nil), s.buf[s.r:s.w]...)
		d := &latin1Reader{r: s.rest(rest)}
		s.src = d
		s.rawCount = &d.raw
		s.rawBase = s.base + int64(s.r)
		s.w = s.r
		return nil
	}
	return s.errAt(at, "unsupported encoding %q", s.encoding)
}

// utf16Reader transcodes UTF-16 to UTF-8. Malformed input (an unpaired
// surrogate, an odd trailing byte) becomes the byte 0xFF, which is never
// valid UTF-8, so that the scanner reports it at the right position.
type utf16Reader struct {
	r    io.Reader
	be   bool
	in   [8192]byte
	p, n int
	err  error
	out  []byte
	obuf []byte
	raw  int64
}

func (d *utf16Reader) Read(p []byte) (int, error) {
	for len(d.out) == 0 {
		if d.n-d.p < 4 && d.err == nil {
			copy(d.in[:], d.in[d.p:d.n])
			d.n -= d.p
			d.p = 0
			n, err := d.r.Read(d.in[d.n:])
			d.n += n
			d.raw += int64(n)
			d.err = err
			if n == 0 && err == nil {
				return 0, nil
			}
			continue
		}
		if d.n-d.p < 2 {
			if d.n > d.p {
				d.p = d.n
				d.out = append(d.obuf[:0], 0xFF)
				break
			}
			return 0, d.err
		}
		d.obuf = d.obuf[:0]
	units:
		for d.n-d.p >= 2 {
			u := d.unit(d.p)
			switch {
			case u < 0x80:
				d.obuf = append(d.obuf, byte(u))
				d.p += 2
			case utf16.IsSurrogate(rune(u)):
				if u >= 0xDC00 {
					d.obuf = append(d.obuf, 0xFF)
					d.p += 2
					break
				}
				if d.n-d.p < 4 {
					if d.err == nil {
						break units
					}
					d.obuf = append(d.obuf, 0xFF)
					d.p += 2
					break
				}
				u2 := d.unit(d.p + 2)
				if u2 < 0xDC00 || u2 > 0xDFFF {
					d.obuf = append(d.obuf, 0xFF)
					d.p += 2
					break
				}
				d.obuf = utf8.AppendRune(d.obuf, utf16.DecodeRune(rune(u), rune(u2)))
				d.p += 4
			default:
				d.obuf = utf8.AppendRune(d.obuf, rune(u))
				d.p += 2
			}
		}
		d.out = d.obuf
	}
	n := copy(p, d.out)
	d.out = d.out[n:]
	return n, nil
}

func (d *utf16Reader) unit(i int) uint16 {
	if d.be {
		return uint16(d.in[i])<<8 | uint16(d.in[i+1])
	}
	return uint16(d.in[i+1])<<8 | uint16(d.in[i])
}

// latin1Reader transcodes ISO-8859-1 to UTF-8.
type latin1Reader struct {
	r    io.Reader
	in   [8192]byte
	out  []byte
	obuf []byte
	err  error
	raw  int64
}

func (d *latin1Reader) Read(p []byte) (int, error) {
	for len(d.out) == 0 {
		if d.err != nil {
			return 0, d.err
		}
		n, err := d.r.Read(d.in[:])
		d.raw += int64(n)
		d.err = err
		d.obuf = d.obuf[:0]
		for _, c := range d.in[:n] {
			if c < utf8.RuneSelf {
				d.obuf = append(d.obuf, c)
			} else {
				d.obuf = append(d.obuf, 0xC0|c>>6, 0x80|c&0x3F)
			}
		}
		d.out = d.obuf
		if n == 0 && err == nil {
			return 0, nil
		}
	}
	n := copy(p, d.out)
	d.out = d.out[n:]
	return n, nil
}
