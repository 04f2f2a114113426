package xmlscan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"unicode/utf8"
)

// next produces the next token in s.tok.
func (s *Scanner) next() error {
	if !s.started {
		if err := s.start(); err != nil {
			return err
		}
	}
	t := &s.tok
	if s.pendingEnd {
		// The EndElement of an empty-element tag: same name, same span.
		s.pendingEnd = false
		t.Kind = EndElement
		t.Attrs, t.NSDecls, t.SelfClosing = nil, nil, false
		s.endElement()
		return nil
	}
	if s.popPending {
		s.popPending = false
		if ns := s.stack[len(s.stack)-1].ns; len(s.ns) > ns {
			s.popNS(ns)
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
	*t = Token{}
	if s.r >= s.w && !s.more() {
		if s.rerr != io.EOF {
			return s.rerr
		}
		return s.atEOF()
	}
	if s.ci == s.r {
		// mark, without the call: the cursor is at the token already.
		s.markOff = s.base + int64(s.r)
		s.markLine, s.markLineStart, s.markCR = s.line, s.lineStart, s.lastCR
		s.scanFrom, s.scanKey = 0, 0
		t.Pos = Pos{Offset: s.markOff, Line: s.line, Col: int(s.markOff-s.lineStart) + 1}
	} else {
		t.Pos = s.mark()
	}
	if s.buf[s.r] != '<' {
		if err := s.textToken(); err != nil {
			return err
		}
		if s.base+int64(s.r)-s.markOff > int64(s.lim.MaxTokenBytes) {
			return s.checkSize("text")
		}
		return nil
	}
	for {
		// Tags go straight to their parsers (markup would dispatch them).
		var err error
		if b := s.buf[s.r:s.w]; len(b) < 2 || b[1] == '?' || b[1] == '!' {
			err = s.markup()
		} else if b[1] == '/' {
			err = s.endTag()
		} else {
			err = s.startTag()
		}
		if err == nil {
			if s.base+int64(s.r)-s.markOff > int64(s.lim.MaxTokenBytes) {
				return s.checkSize("markup")
			}
			return nil
		}
		if err != errShort {
			return err
		}
		if !s.grow() {
			if s.tooBig {
				return s.errAt(s.r, "markup larger than %d bytes", s.lim.MaxTokenBytes)
			}
			if s.rerr != io.EOF {
				return s.rerr
			}
		}
	}
}

// checkSize enforces MaxTokenBytes on a token that fitted in the buffer
// (the buffer has a little slack above the limit).
func (s *Scanner) checkSize(what string) error {
	if n := s.base + int64(s.r) - s.markOff; n > int64(s.lim.MaxTokenBytes) {
		return &SyntaxError{Pos: s.tok.Pos, Msg: fmt.Sprintf("%s larger than %d bytes", what, s.lim.MaxTokenBytes)}
	}
	return nil
}

// atEOF checks the document is complete at the end of the input.
func (s *Scanner) atEOF() error {
	if s.depth > 0 {
		return s.errAt(s.w, "unexpected end of input: <%s> not closed", s.stack[len(s.stack)-1].q.full)
	}
	if !s.seenRoot {
		return s.errAt(s.w, "no root element")
	}
	return io.EOF
}

// endElement turns the current token into the EndElement of the innermost
// element. Its namespace scope is popped on the following call to Next, so
// that LookupPrefix still works while the EndElement is current.
func (s *Scanner) endElement() {
	s.tok.Name = s.stack[len(s.stack)-1].name
	s.tok.Depth = s.depth
	s.depth--
	s.popPending = true
	if s.depth == 0 {
		s.rootDone = true
	}
}

// markup dispatches on the characters after '<'.
func (s *Scanner) markup() error {
	b := s.buf[s.r:s.w]
	if len(b) < 2 {
		return s.short(s.r+len(b), "markup")
	}
	switch b[1] {
	case '/':
		return s.endTag()
	case '?':
		return s.procInst()
	case '!':
		switch {
		case hasPrefix(b, "<!--"):
			return s.comment()
		case hasPrefix(b, "<![CDATA["):
			return s.cdata()
		case hasPrefix(b, "<!DOCTYPE"):
			return s.doctype()
		}
		for _, kw := range [...]string{"<!--", "<![CDATA[", "<!DOCTYPE"} {
			if len(b) < len(kw) && kw[:len(b)] == string(b) {
				return s.short(s.r+len(b), "markup")
			}
		}
		end, more := scanName(b, 2)
		if more && s.rerr != io.EOF {
			return errShort
		}
		return s.errAt(s.r, "unexpected %q: expected a comment, CDATA section or DOCTYPE", b[:max(end, 3)])
	}
	return s.startTag()
}

func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}

// finish completes the current token, which ends at buffer index end.
func (s *Scanner) finish(end int) {
	s.tok.End = s.posAt(end)
	s.r = end
}

// comment parses "<!--" ... "-->" at s.r.
func (s *Scanner) comment() error {
	end, err := s.scanComment(s.r, s.r)
	if err != nil {
		return err
	}
	data, err := s.chars(s.r+4, end-3, "comment")
	if err != nil {
		return err
	}
	s.tok.Kind = Comment
	s.tok.Data = data
	s.tok.Depth = s.depth
	s.finish(end)
	return nil
}

// scanComment finds the end of the comment at buffer index i (the token
// starts at tok) and returns the index after "-->". "--" must not occur
// inside a comment (production [15]).
func (s *Scanner) scanComment(tok, i int) (int, error) {
	from := i + 4
	if s.scanKey == i-tok+1 && s.scanFrom > from-tok {
		from = tok + s.scanFrom
	}
	j := bytes.Index(s.buf[from:s.w], dashDash)
	if j < 0 {
		if s.rerr == io.EOF {
			if _, err := s.chars(i+4, s.w, "comment"); err != nil {
				return 0, err
			}
		}
		s.scanFrom, s.scanKey = max(s.w-1, i+4)-tok, i-tok+1
		return 0, s.short(s.w, "comment")
	}
	k := from + j
	if k+2 >= s.w {
		s.scanFrom, s.scanKey = k-tok, i-tok+1
		return 0, s.short(s.w, "comment")
	}
	if s.buf[k+2] == '>' {
		return k + 3, nil
	}
	if _, err := s.chars(i+4, k, "comment"); err != nil {
		return 0, err // an earlier error comes first
	}
	return 0, s.errAt(k, "\"--\" is not allowed inside a comment")
}

var dashDash = []byte("--")

// procInst parses a processing instruction at s.r.
func (s *Scanner) procInst() error {
	tEnd, dStart, end, err := s.scanPI(s.r, s.r)
	if err != nil {
		return err
	}
	data, err := s.chars(dStart, end-2, "processing instruction")
	if err != nil {
		return err
	}
	s.tok.Kind = ProcInst
	s.tok.Target = s.intern(s.buf[s.r+2 : tEnd])
	s.tok.Data = data
	s.tok.Depth = s.depth
	s.finish(end)
	return nil
}

// scanPI parses the processing instruction at buffer index i (the token
// starts at tok): it returns the end of the target, the start of the data
// and the index after "?>".
func (s *Scanner) scanPI(tok, i int) (tEnd, dStart, end int, err error) {
	const what = "processing instruction"
	b := s.buf[:s.w]
	tEnd, more := scanName(b, i+2)
	if more && s.rerr != io.EOF {
		return 0, 0, 0, errShort
	}
	if tEnd == i+2 {
		if tEnd >= len(b) {
			return 0, 0, 0, s.short(tEnd, what)
		}
		return 0, 0, 0, s.errAt(tEnd, "processing instruction lacks a valid target name")
	}
	target := b[i+2 : tEnd]
	if len(target) == 3 && (target[0]|0x20) == 'x' && (target[1]|0x20) == 'm' && (target[2]|0x20) == 'l' {
		if string(target) == "xml" {
			return 0, 0, 0, s.errAt(i, "XML declaration allowed only at the start of the document")
		}
		return 0, 0, 0, s.errAt(i+2, "processing instruction target %q is reserved", target)
	}
	if bytes.IndexByte(target, ':') >= 0 {
		// Namespaces in XML 1.0 §7; libxml2 only warns.
		return 0, 0, 0, s.errAt(i+2, "processing instruction target %q contains a colon", target)
	}
	j := tEnd
	for j < len(b) && isSpace(b[j]) {
		j++
	}
	if j >= len(b) {
		return 0, 0, 0, s.short(j, what)
	}
	dStart = j
	if j == tEnd {
		// No whitespace: the PI must end right after its target.
		if b[j] != '?' {
			return 0, 0, 0, s.charErr(j, "processing instruction target")
		}
		if j+1 >= len(b) {
			return 0, 0, 0, s.short(j+1, what)
		}
		if b[j+1] != '>' {
			return 0, 0, 0, s.errAt(j, "missing whitespace after the processing instruction target")
		}
		return tEnd, j, j + 2, nil
	}
	from := dStart
	if s.scanKey == i-tok+1 && s.scanFrom > from-tok {
		from = tok + s.scanFrom
	}
	k := bytes.Index(b[from:], qGt)
	if k < 0 {
		if s.rerr == io.EOF {
			if _, err := s.chars(dStart, len(b), what); err != nil {
				return 0, 0, 0, err
			}
		}
		s.scanFrom, s.scanKey = max(len(b)-1, dStart)-tok, i-tok+1
		return 0, 0, 0, s.short(len(b), what)
	}
	return tEnd, dStart, from + k + 2, nil
}

var qGt = []byte("?>")

// cdata parses a CDATA section at s.r.
func (s *Scanner) cdata() error {
	if s.depth == 0 {
		return s.errAt(s.r, "CDATA section outside the root element")
	}
	start := s.r + 9
	from := start
	if s.scanFrom > 9 {
		from = s.r + s.scanFrom
	}
	k := bytes.Index(s.buf[from:s.w], cdEnd)
	if k < 0 {
		if s.rerr == io.EOF {
			if _, err := s.chars(start, s.w, "CDATA section"); err != nil {
				return err
			}
		}
		s.scanFrom = max(s.w-2, start) - s.r
		return s.short(s.w, "CDATA section")
	}
	end := from + k
	data, err := s.chars(start, end, "CDATA section")
	if err != nil {
		return err
	}
	s.tok.Kind = Text
	s.tok.CDATA = true
	s.tok.Data = data
	s.tok.Depth = s.depth
	s.finish(end + 3)
	return nil
}

var cdEnd = []byte("]]>")

// chars checks that buf[i:j] holds only XML characters and returns it with
// line ends normalised (a slice of the buffer when nothing changes).
func (s *Scanner) chars(i, j int, what string) ([]byte, error) {
	b := s.buf[i:j]
	out := s.data[:0]
	copied, flushed := false, 0
	for k := 0; k < len(b); {
		c := b[k]
		if class[c]&clChar == 0 {
			k++
			continue
		}
		switch {
		case c >= 0x80:
			n, err := s.checkRune(b, k, i)
			if err != nil {
				return nil, err
			}
			k += n
		case c == '\r':
			out = append(out, b[flushed:k]...)
			out = append(out, '\n')
			k++
			if k < len(b) && b[k] == '\n' {
				k++
			}
			flushed, copied = k, true
		default:
			return nil, s.charErr(i+k, what)
		}
	}
	if !copied {
		return b, nil
	}
	out = append(out, b[flushed:]...)
	s.data = out
	return out, nil
}

// endTag parses an end tag at s.r.
func (s *Scanner) endTag() error {
	const what = "end tag"
	b := s.buf[s.r:s.w]
	end := 0
	if s.depth > 0 {
		// Most end tags close the innermost element by its name: compare
		// it in place, where a name that goes on past it fails the test.
		full := s.stack[len(s.stack)-1].q.full
		if e := 2 + len(full); e < len(b) && b[e] < utf8.RuneSelf && class[b[e]]&clName == 0 && string(b[2:e]) == full {
			end = e
		}
	}
	if end == 0 {
		var more bool
		end, more = scanName(b, 2)
		if more && s.rerr != io.EOF {
			return errShort
		}
	}
	if end == 2 {
		if end >= len(b) {
			return s.short(s.r+end, what)
		}
		return s.errAt(s.r+2, "end tag lacks a valid element name")
	}
	name := b[2:end]
	i := end
	nl := false
	for i < len(b) && isSpace(b[i]) {
		if b[i] == '\n' || b[i] == '\r' {
			nl = true
		}
		i++
	}
	if i >= len(b) {
		return s.short(s.r+i, what)
	}
	if b[i] != '>' {
		return s.charErr(s.r+i, "end tag </"+string(name)+">")
	}
	if s.depth == 0 {
		return s.errAt(s.r, "end tag </%s> without a matching start tag", name)
	}
	top := &s.stack[len(s.stack)-1]
	if top.q.full != string(name) {
		return s.errAt(s.r, "element <%s> closed by </%s>", top.q.full, name)
	}
	s.tok.Kind = EndElement
	s.endElement()
	if end := s.r + i + 1; nl || s.ci != s.r {
		s.finish(end)
	} else {
		// No line end in the tag: the end is on the cursor's line.
		s.tok.End = s.sameLine(end)
		s.ci, s.lastCR, s.r = end, false, end
	}
	return nil
}

// textToken parses character data at s.r, up to the next '<' or the end of
// the input.
func (s *Scanner) textToken() error {
	from := 0
	end := 0
	for {
		b := s.buf[s.r:s.w]
		j := bytes.IndexByte(b[from:], '<')
		if s.depth == 0 {
			seg := b[from:]
			if j >= 0 {
				seg = b[from : from+j]
			}
			next := len(b)
			for k, c := range seg {
				if !isSpace(c) {
					if j < 0 && !utf8.FullRune(seg[k:]) && s.rerr != io.EOF {
						next = from + k // a character cut by the buffer end
						break
					}
					return s.outsideText(s.r + from + k)
				}
			}
			if j < 0 && next < len(b) {
				from = next
				if !s.grow() {
					if s.tooBig {
						return s.errAt(s.r, "text larger than %d bytes", s.lim.MaxTokenBytes)
					}
					if s.rerr != io.EOF {
						return s.rerr
					}
				}
				continue
			}
		}
		if j >= 0 {
			end = s.r + from + j
			break
		}
		from = len(b)
		if !s.grow() {
			if s.tooBig {
				return s.errAt(s.r, "text larger than %d bytes", s.lim.MaxTokenBytes)
			}
			if s.rerr != io.EOF {
				return s.rerr
			}
			end = s.w
			break
		}
	}
	data, err := s.text(s.r, end)
	if err != nil {
		return err
	}
	s.tok.Kind = Text
	s.tok.CDATA = false
	s.tok.Data = data
	s.tok.Depth = s.depth
	if end == s.ci {
		// text moved the cursor here.
		s.tok.End = s.sameLine(end)
		s.r = end
	} else {
		s.finish(end)
	}
	return nil
}

// outsideText reports character data outside the root element.
func (s *Scanner) outsideText(i int) error {
	if err := s.badChar(i); err != nil {
		return err
	}
	switch {
	case s.rootDone:
		return s.errAt(i, "text after the root element")
	case s.seenRoot:
		return s.errAt(i, "text outside the root element")
	}
	return s.errAt(i, "text before the root element")
}

// text checks and decodes the character data buf[i:j]: references are
// replaced, line ends normalised, and "]]>" and non-characters rejected.
// It also counts the line ends as advance would, and moves the line
// cursor to j when it stood at i: the text need not be read twice.
func (s *Scanner) text(i, j int) ([]byte, error) {
	b := s.buf[i:j]
	if n := len(b); n > 0 && n <= 8 && cap(b) >= 8 && s.ci == i {
		// The indentation between tags, without a loop: up to eight bytes
		// read as a word (the buffer goes on past the text), and when they
		// are all spaces, tabs and line feeds, the line ends are counted
		// and the last one found with bit operations.
		x := binary.LittleEndian.Uint64(b[:8])
		in := uint64(highs) >> (64 - 8*n) // the high bits of b's bytes
		nl := ^nonZero8(x^'\n'*ones) & in
		if nonZero8(x^' '*ones)&nonZero8(x^'\t'*ones)&nonZero8(x^'\n'*ones)&in == 0 {
			if nl != 0 {
				lines := bits.OnesCount64(nl)
				if b[0] == '\n' && s.lastCR {
					lines-- // the second half of a CR LF
				}
				s.line += lines
				s.lineStart = s.base + int64(i+(63-bits.LeadingZeros64(nl))/8+1)
			}
			s.lastCR = false
			s.ci = j
			return b, nil
		}
	}
	out := s.data[:0]
	copied, flushed := false, 0
	lines, last := 0, -1
	for k := 0; k < len(b); {
		for k+8 <= len(b) && plainText8(binary.LittleEndian.Uint64(b[k:])) {
			k += 8
		}
		for k < len(b) && class[b[k]]&clTextL == 0 {
			k++
		}
		if k >= len(b) {
			break
		}
		c := b[k]
		switch {
		case c == '\n':
			if k > 0 || !s.lastCR {
				lines++
			}
			last = k
			k++
		case c >= 0x80:
			n, err := s.checkRune(b, k, i)
			if err != nil {
				return nil, err
			}
			k += n
		case c == '\r':
			out = append(out, b[flushed:k]...)
			out = append(out, '\n')
			k++
			if k < len(b) && b[k] == '\n' {
				k++
			}
			lines++
			last = k - 1
			flushed, copied = k, true
		case c == '&':
			r, n, err := s.reference(b, k, i)
			if err != nil {
				return nil, err
			}
			out = append(out, b[flushed:k]...)
			out = appendRune(out, r)
			k += n
			flushed, copied = k, true
		case c == ']':
			if k+2 < len(b) && b[k+1] == ']' && b[k+2] == '>' {
				return nil, s.errAt(i+k, "\"]]>\" is not allowed in character data")
			}
			k++
		default:
			return nil, s.charErr(i+k, "text")
		}
	}
	if s.ci == i && len(b) > 0 {
		if last >= 0 {
			s.line += lines
			s.lineStart = s.base + int64(i+last+1)
		}
		s.lastCR = b[len(b)-1] == '\r'
		s.ci = j
	}
	if !copied {
		return b, nil
	}
	out = append(out, b[flushed:]...)
	s.data = out
	return out, nil
}

func appendRune(b []byte, r rune) []byte {
	if r < 0x80 {
		return append(b, byte(r))
	}
	return utf8.AppendRune(b, r)
}
