package xsd

import (
	"bytes"
	"io"
	"sort"
)

// SourceTracker wraps a document reader to record two things about the
// raw input that the Scanner's tokens do not tell, and that libxml2's
// verdicts and line numbers depend on:
//
//   - where CDATA sections start: libxml2 rejects any CDATA section, even
//     an empty one, in element-only content, while whitespace text is
//     fine there;
//   - where carriage returns not followed by a line feed are: XML (and
//     the Scanner) count them as line ends (classic Mac files), libxml2
//     counts only line feeds.
//
// Give the tracker to the Scanner as its reader and to
// Validator.SetSourceTracker. Schema.Validate does this itself. Without a
// tracker, the Validator recognises CDATA tokens from their length
// (reliable except for contrived runs of character references) and reports
// XML's line numbers for lone carriage returns.
//
// The tracker assumes an ASCII-compatible encoding (UTF-8, ISO-8859-1,
// US-ASCII); for UTF-16 input it records nothing.
type SourceTracker struct {
	r     io.Reader
	off   int64
	lone  []int64 // offsets of lone carriage returns
	cdata []int64 // offsets of "<![CDATA["
	cr    bool    // the previous read ended with a carriage return
	tail  []byte  // the end of the previous read, for markers across reads
	utf16 bool
	seen  bool
}

// NewSourceTracker returns a SourceTracker reading from r.
func NewSourceTracker(r io.Reader) *SourceTracker { return &SourceTracker{r: r} }

var cdataStart = []byte("<![CDATA[")

// Read implements io.Reader.
func (c *SourceTracker) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	b := p[:n]
	if !c.seen && n >= 2 {
		c.seen = true
		c.utf16 = b[0] == 0xFE && b[1] == 0xFF || b[0] == 0xFF && b[1] == 0xFE ||
			b[0] == 0 && b[1] == '<' || b[0] == '<' && b[1] == 0
	}
	if !c.utf16 && n > 0 {
		c.scanCR(b, err)
		c.scanCDATA(b)
	}
	c.off += int64(n)
	return n, err
}

func (c *SourceTracker) scanCR(b []byte, err error) {
	if c.cr && b[0] != '\n' {
		c.lone = append(c.lone, c.off-1)
	}
	c.cr = false
	for i := bytes.IndexByte(b, '\r'); i >= 0; {
		switch {
		case i+1 == len(b):
			c.cr = true
		case b[i+1] != '\n':
			c.lone = append(c.lone, c.off+int64(i))
		}
		j := bytes.IndexByte(b[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if c.cr && err != nil {
		c.lone = append(c.lone, c.off+int64(len(b))-1)
		c.cr = false
	}
}

func (c *SourceTracker) scanCDATA(b []byte) {
	// A marker split across two reads: search the joined boundary.
	if len(c.tail) > 0 {
		joined := append(c.tail, b[:min(len(b), len(cdataStart)-1)]...)
		if i := bytes.Index(joined, cdataStart); i >= 0 && i < len(c.tail) {
			c.cdata = append(c.cdata, c.off-int64(len(c.tail))+int64(i))
		}
	}
	for i := 0; ; {
		j := bytes.Index(b[i:], cdataStart)
		if j < 0 {
			break
		}
		c.cdata = append(c.cdata, c.off+int64(i+j))
		i += j + len(cdataStart)
	}
	k := max(0, len(b)-(len(cdataStart)-1))
	c.tail = append(c.tail[:0], b[k:]...)
}

// isCDATAAt reports whether a CDATA section starts at offset off.
func (c *SourceTracker) isCDATAAt(off int64) bool {
	k := sort.Search(len(c.cdata), func(i int) bool { return c.cdata[i] >= off })
	return k < len(c.cdata) && c.cdata[k] == off
}

// libxmlLine converts the line of a position at byte offset off into the
// line libxml2 counts.
func (c *SourceTracker) libxmlLine(line int, off int64) int {
	if c == nil || len(c.lone) == 0 {
		return line
	}
	k := sort.Search(len(c.lone), func(i int) bool { return c.lone[i] >= off })
	return line - k
}

// SetSourceTracker gives the validator the tracker that wraps the
// reader of its Scanner; see SourceTracker.
func (v *Validator) SetSourceTracker(c *SourceTracker) { v.src = c }
