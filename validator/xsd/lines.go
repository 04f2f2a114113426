package xsd

import (
	"bytes"
	"io"
	"sort"
)

// SourceTracker wraps a document reader to record what the Scanner's
// tokens do not tell and libxml2's line numbers depend on: where carriage
// returns not followed by a line feed are. XML (and the Scanner) count
// them as line ends (classic Mac files); libxml2 counts only line feeds.
//
// Give the tracker to the Scanner as its reader and to
// Validator.SetSourceTracker, so that Error.Line is libxml2's line.
// Schema.Validate does this itself. Without a tracker, Error.Line is the
// XML line for documents with lone carriage returns.
//
// The tracker assumes an ASCII-compatible encoding (UTF-8, ISO-8859-1,
// US-ASCII); for UTF-16 input it records nothing.
type SourceTracker struct {
	r     io.Reader
	off   int64
	lone  []int64 // offsets of lone carriage returns
	cr    bool    // the previous read ended with a carriage return
	utf16 bool
	seen  bool
}

// NewSourceTracker returns a SourceTracker reading from r.
func NewSourceTracker(r io.Reader) *SourceTracker { return &SourceTracker{r: r} }

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

// libxmlLine converts the line of a position at byte offset off into the
// line libxml2 counts.
func (c *SourceTracker) libxmlLine(line int, off int64) int {
	if c == nil || len(c.lone) == 0 {
		return line
	}
	return c.searchLine(line, off)
}

// searchLine is libxmlLine past the common case, kept out of it so that
// the common case is inlined.
func (c *SourceTracker) searchLine(line int, off int64) int {
	k := sort.Search(len(c.lone), func(i int) bool { return c.lone[i] >= off })
	return line - k
}

// SetSourceTracker gives the validator the tracker that wraps the
// reader of its Scanner; see SourceTracker.
func (v *Validator) SetSourceTracker(c *SourceTracker) { v.src = c }
