package report

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rscheck/rscheck/validator"
)

// Excerpt is the source line a finding points at, cut to a window around
// the finding's column.
type Excerpt struct {
	// Text is valid UTF-8 without line terminator, tabs or leading
	// whitespace. When the line was longer than the window, "…" marks the
	// cut ends.
	Text string `json:"text"`
	// Caret is the byte offset in Text of the finding's column, or -1
	// when the finding has no column.
	Caret int `json:"caret"`
}

// Pos is a position in a document, as findings give it.
type Pos struct{ Line, Column int }

// Excerpts are the excerpts of one document, by finding position.
type Excerpts map[Pos]Excerpt

// excerpt returns the excerpt of finding f of document doc, or nil.
func (r *Result) excerpt(doc int, f *validator.Finding) *Excerpt {
	ex, ok := r.Excerpts[doc][Pos{f.Line, f.Column}]
	if !ok {
		return nil
	}
	return &ex
}

// Window bounds of an excerpt, in bytes of the source line.
const (
	excerptBefore = 80  // kept before the column
	excerptWidth  = 240 // kept in all
)

// AddExcerpts reads the source of r.Documents[doc] from src and stores
// the lines its findings point at in r.Excerpts[doc]. It reads src once,
// up to the last line needed, and keeps only a window of about 240 bytes
// of each of those lines, so a 50 MB single-line document costs no more
// than a small one. A gzip-compressed source is decompressed, as Validate
// does. A UTF-16 source yields no excerpts.
func (r *Result) AddExcerpts(doc int, src io.Reader) error {
	if doc < 0 || doc >= len(r.Documents) {
		return fmt.Errorf("report: AddExcerpts: no document %d", doc)
	}
	ex, err := readExcerpts(r.Documents[doc].Findings, src)
	if err != nil {
		return err
	}
	if len(ex) == 0 {
		return nil
	}
	if r.Excerpts == nil {
		r.Excerpts = map[int]Excerpts{}
	}
	r.Excerpts[doc] = ex
	return nil
}

// window collects the bytes [lo, hi) of one line for one position.
type window struct {
	pos    Pos
	lo, hi int64
	buf    []byte
}

func (w *window) feed(off int64, seg []byte) {
	start, end := max(off, w.lo), min(off+int64(len(seg)), w.hi)
	if start < end {
		w.buf = append(w.buf, seg[start-off:end-off]...)
	}
}

// excerpt finishes the window once the line, of length n, has been read.
func (w *window) excerpt(n int64) Excerpt {
	b := w.buf
	caret := -1
	if w.pos.Column > 0 {
		caret = int(min(int64(w.pos.Column-1), n) - w.lo)
	}
	// Cut partial characters at both ends of the window.
	if w.lo > 0 {
		for len(b) > 0 && !utf8.RuneStart(b[0]) {
			b = b[1:]
			caret--
		}
	}
	if w.lo+int64(len(w.buf)) < n {
		if i := lastRuneStart(b); i >= 0 && !utf8.FullRune(b[i:]) {
			b = b[:i]
		}
	}
	// Drop the indentation: it says nothing and costs width.
	if w.lo == 0 {
		t := bytes.TrimLeft(b, " \t")
		caret -= len(b) - len(t)
		b = t
	}
	caret = max(min(caret, len(b)), -1)
	if w.pos.Column > 0 && caret < 0 {
		caret = 0
	}
	var before, after string
	if caret >= 0 {
		before, after = clean(b[:caret]), clean(b[caret:])
	} else {
		after = clean(b)
	}
	after = strings.TrimRight(after, " ")
	if w.lo > 0 {
		before = "…" + before
	}
	if w.lo+int64(len(w.buf)) < n {
		after += "…"
	}
	if caret >= 0 {
		caret = len(before)
	}
	return Excerpt{Text: before + after, Caret: caret}
}

func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return -1
}

// clean makes excerpt bytes valid UTF-8 with tabs as spaces, keeping
// their length where it can so that the caret stays in place.
func clean(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	return strings.ReplaceAll(s, "\t", " ")
}

// readExcerpts streams src and returns the excerpts of the findings'
// positions. Line ends are those of XML (LF, CRLF or CR), as the scanner
// counts them.
func readExcerpts(findings []validator.Finding, src io.Reader) (Excerpts, error) {
	lines := map[int][]*window{}
	maxLine := 0
	seen := map[Pos]bool{}
	for _, f := range findings {
		p := Pos{f.Line, f.Column}
		if f.Line <= 0 || seen[p] {
			continue
		}
		seen[p] = true
		lo := max(int64(f.Column-1-excerptBefore), 0)
		lines[f.Line] = append(lines[f.Line], &window{pos: p, lo: lo, hi: lo + excerptWidth})
		maxLine = max(maxLine, f.Line)
	}
	out := Excerpts{}
	if maxLine == 0 {
		return out, nil
	}

	br := bufio.NewReaderSize(src, 64<<10)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, []byte("\xfe\xff")), bytes.HasPrefix(head, []byte("\xff\xfe")):
		return out, nil // UTF-16: byte positions would not match
	case bytes.HasPrefix(head, []byte("\xef\xbb\xbf")):
		br.Discard(3) // the scanner does not count the byte order mark
	}

	finish := func(ws []*window, n int64) {
		for _, w := range ws {
			out[w.pos] = w.excerpt(n)
		}
	}
	buf := make([]byte, 32<<10)
	line, off := 1, int64(0)
	cur := lines[1]
	prevCR := false
	for {
		n, err := br.Read(buf)
		b := buf[:n]
		for len(b) > 0 {
			if prevCR {
				prevCR = false
				if b[0] == '\n' {
					b = b[1:]
					continue
				}
			}
			i := bytes.IndexAny(b, "\r\n")
			seg := b
			if i >= 0 {
				seg = b[:i]
			}
			for _, w := range cur {
				w.feed(off, seg)
			}
			off += int64(len(seg))
			if i < 0 {
				break
			}
			finish(cur, off)
			prevCR = b[i] == '\r'
			b = b[i+1:]
			line++
			if line > maxLine {
				return out, nil
			}
			off, cur = 0, lines[line]
		}
		if err == io.EOF {
			finish(cur, off)
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
