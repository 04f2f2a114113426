package xmlscan

import (
	"bytes"
	"io"
)

// Buffer management. The unread input is s.buf[s.r:s.w]; a token always
// starts at s.r. When a token continues past s.w the parser asks for more
// input (grow) and parses the token again from its start, so parsers never
// hold state across reads. grow at least doubles what is buffered, so the
// re-parsing costs O(token size) in total.

const initialBufSize = 64 << 10

// more moves the unread input to the front of the buffer, enlarges the
// buffer when it is full, and reads. It returns false at the end of the
// input, on a read error (both recorded in s.rerr), or when the current
// token exceeds MaxTokenBytes (s.tooBig).
func (s *Scanner) more() bool {
	if s.rerr != nil {
		return false
	}
	if s.r > 0 {
		if s.ci < s.r {
			s.advance(s.r)
		}
		n := copy(s.buf, s.buf[s.r:s.w])
		s.base += int64(s.r)
		s.ci -= s.r
		s.w = n
		s.r = 0
		if len(s.buf) > 4*initialBufSize && s.w < initialBufSize/2 {
			// A huge token is behind us: give its memory back.
			nb := make([]byte, initialBufSize)
			copy(nb, s.buf[:s.w])
			s.buf = nb
		}
	}
	if s.w == len(s.buf) {
		if s.w > s.lim.MaxTokenBytes {
			s.tooBig = true
			return false
		}
		n := 2 * len(s.buf)
		if n < initialBufSize {
			n = initialBufSize
		}
		if max := s.lim.MaxTokenBytes + 64; n > max {
			n = max
		}
		nb := make([]byte, n)
		copy(nb, s.buf[:s.w])
		s.buf = nb
	}
	for tries := 0; ; tries++ {
		n, err := s.src.Read(s.buf[s.w:])
		if n < 0 || n > len(s.buf)-s.w {
			s.rerr = io.ErrShortBuffer
			return false
		}
		s.w += n
		if err != nil {
			s.rerr = err
			return n > 0
		}
		if n > 0 {
			return true
		}
		if tries >= 100 {
			s.rerr = io.ErrNoProgress
			return false
		}
	}
}

// grow makes at least twice as much input available from s.r as there is
// now. It reports whether any input was added.
func (s *Scanner) grow() bool {
	want := 2*(s.w-s.r) + 256
	got := false
	for s.w-s.r < want && s.more() {
		got = true
	}
	return got
}

// peek makes n bytes available from s.r if the input has them, and returns
// the available bytes (possibly fewer than n at the end of the input).
func (s *Scanner) peek(n int) []byte {
	for s.w-s.r < n && s.more() {
	}
	return s.buf[s.r:s.w]
}

// advance moves the line cursor to buffer index i, counting line ends on
// the way: "\n", "\r\n" and a lone "\r" each end a line. It looks at the
// bytes with bytes.Count and bytes.IndexByte, not one by one.
func (s *Scanner) advance(i int) {
	b := s.buf[s.ci:i]
	if len(b) == 0 {
		return
	}
	if len(b) <= 32 {
		// Most spans between two positions are a few bytes (a name, the
		// indentation between tags): a look at each byte is cheaper there
		// than the calls below.
		line, last, cr := s.line, -1, s.lastCR
		for k, c := range b {
			if c > '\r' {
				cr = false
				continue
			}
			switch c {
			case '\n':
				if !cr {
					line++
				}
				last, cr = k, false
			case '\r':
				line++
				last, cr = k, true
			default:
				cr = false
			}
		}
		if last >= 0 {
			s.line = line
			s.lineStart = s.base + int64(s.ci+last+1)
		}
		s.lastCR = cr
		s.ci = i
		return
	}
	n := bytes.Count(b, nl)
	last := -1
	if n > 0 {
		last = bytes.LastIndexByte(b, '\n')
		if s.lastCR && b[0] == '\n' {
			n--
		}
	}
	if cr := bytes.IndexByte(b, '\r'); cr >= 0 {
		for k := cr; k >= 0; {
			k++
			if k == len(b) || b[k] != '\n' {
				n++
			}
			j := bytes.IndexByte(b[k:], '\r')
			if j < 0 {
				break
			}
			k += j
		}
		if l := bytes.LastIndexByte(b, '\r'); l > last {
			last = l
		}
	}
	if last >= 0 {
		s.line += n
		s.lineStart = s.base + int64(s.ci+last+1)
	}
	s.lastCR = b[len(b)-1] == '\r'
	s.ci = i
}

var nl = []byte{'\n'}

// mark records the position of the token starting at s.r, and returns it.
func (s *Scanner) mark() Pos {
	if s.ci != s.r {
		s.advance(s.r)
	}
	s.markOff = s.base + int64(s.r)
	s.markLine = s.line
	s.markLineStart = s.lineStart
	s.markCR = s.lastCR
	s.scanFrom, s.scanKey = 0, 0
	return Pos{Offset: s.markOff, Line: s.line, Col: int(s.markOff-s.lineStart) + 1}
}

// posAt returns the position of buffer index i, which must not be before
// the current token.
func (s *Scanner) posAt(i int) Pos {
	if i == s.ci {
		// The cursor is there already (text moves it as it reads).
		off := s.base + int64(i)
		return Pos{Offset: off, Line: s.line, Col: int(off-s.lineStart) + 1}
	}
	if i < s.ci {
		s.ci = int(s.markOff - s.base)
		s.line = s.markLine
		s.lineStart = s.markLineStart
		s.lastCR = s.markCR
	}
	s.advance(i)
	off := s.base + int64(i)
	return Pos{Offset: off, Line: s.line, Col: int(off-s.lineStart) + 1}
}

// sameLine returns the position of buffer index i, at or after the line
// cursor, when no line end lies between the two: the tag parsers know
// that of most tags, and skip advance then.
func (s *Scanner) sameLine(i int) Pos {
	off := s.base + int64(i)
	return Pos{Offset: off, Line: s.line, Col: int(off-s.lineStart) + 1}
}
