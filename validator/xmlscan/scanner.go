// Package xmlscan is a fast, streaming, namespace-aware XML 1.0 tokenizer
// that checks well-formedness and reports exact positions.
//
// It exists because the validator reads every document exactly once and
// feeds the same tokens to the XSD engine and to the ResourceSync rules, on
// documents of 50 MB and more, natively and in WebAssembly. Compared with
// encoding/xml it resolves namespaces and enforces the Namespaces in XML
// rules, reports the position of every attribute, never expands entities
// declared in a DOCTYPE, bounds nesting depth and token size, and allocates
// little: names are interned and token storage is reused.
//
// A Scanner stops at the first well-formedness error, as XML 1.0 requires of
// a conforming processor; the error is a *SyntaxError carrying the position.
package xmlscan

import (
	"io"
)

// Kind identifies the kind of a Token.
type Kind uint8

// The kinds of token a Scanner produces.
const (
	// StartElement is a start tag or an empty-element tag. For an
	// empty-element tag the Scanner produces a StartElement with
	// SelfClosing set, immediately followed by an EndElement.
	StartElement Kind = iota + 1
	// EndElement is an end tag (or the implied end of an empty-element tag).
	EndElement
	// Text is character data: text, whitespace and CDATA sections, with
	// character and predefined entity references replaced and line ends
	// normalised to "\n". Adjacent text may arrive as several Text tokens
	// (for example text, then a CDATA section).
	Text
	// Comment is a comment; Data holds its content without the delimiters.
	Comment
	// ProcInst is a processing instruction other than the XML declaration;
	// Target holds its target and Data the rest.
	ProcInst
	// Doctype is a document type declaration; Data holds everything between
	// "<!DOCTYPE" and the closing ">", internal subset included. Entities it
	// declares are never expanded: a reference to one is a SyntaxError.
	Doctype
)

// Pos is a position in the input. Line and Col are 1-based; Col counts bytes
// from the start of the line, as the Go toolchain does. Offset counts bytes
// from the start of the (UTF-8) input: for UTF-16 and ISO-8859-1 documents
// it counts bytes of the UTF-8 transcoding, and a byte order mark is never
// counted. "\n", "\r\n" and a lone "\r" each end a line.
type Pos struct {
	Offset int64
	Line   int
	Col    int
}

// Name is an expanded XML name.
type Name struct {
	Space  string // namespace URI, "" when the name is in no namespace
	Local  string // local part
	Prefix string // prefix used in the document, "" when none
}

// Attr is an attribute of a start tag. Namespace declarations (xmlns,
// xmlns:p) are not attributes: they are reported in Token.NSDecls.
type Attr struct {
	Name  Name
	Value string // the normalised attribute value (XML 1.0 §3.3.3, CDATA rules)
	Pos   Pos    // position of the first character of the attribute name
}

// NSDecl is a namespace declaration made on a start tag.
type NSDecl struct {
	Prefix string // "" for a default namespace declaration
	URI    string // "" un-declares the default namespace
	Pos    Pos    // position of the first character of the xmlns attribute name
}

// Token is one unit of XML. The Scanner reuses a single Token: its fields,
// slices and Data are valid only until the next call to Next. Strings
// (names, attribute values, URIs) remain valid forever.
type Token struct {
	Kind Kind
	// Name is set for StartElement and EndElement.
	Name Name
	// Attrs and NSDecls are set for StartElement, in document order.
	Attrs   []Attr
	NSDecls []NSDecl
	// SelfClosing is set on the StartElement of an empty-element tag.
	SelfClosing bool
	// CDATA is set on a Text token that is a CDATA section. It matters
	// to schema validation: libxml2 rejects a CDATA section, even an
	// empty one, in element-only content, where whitespace text is fine.
	CDATA bool
	// Target is set for ProcInst.
	Target string
	// Data is the content of Text, Comment, ProcInst and Doctype tokens.
	Data []byte
	// Pos is where the token starts: its "<" (also for a CDATA section),
	// or its first character for other Text.
	Pos Pos
	// End is the position just after the token's last byte. For a
	// StartElement it is just after the closing ">" of the start tag, so
	// End.Line is the line libxml2 reports for errors on that element.
	End Pos
	// Depth is the element nesting depth: 1 for the root element's start
	// and end tags, 0 for tokens outside the root. Text, comments and PIs
	// have the depth of the element containing them.
	Depth int
}

// SyntaxError is a well-formedness error (XML 1.0, Namespaces in XML 1.0)
// or a violation of a Scanner limit. It is always fatal.
type SyntaxError struct {
	Pos Pos
	Msg string
}

// Limits bound the resources a Scanner uses on hostile input.
type Limits struct {
	// MaxDepth is the deepest element nesting allowed. Zero means 256,
	// libxml2's default (xmllint without --huge).
	MaxDepth int
	// MaxTokenBytes bounds the size of one token (a text node, a start tag,
	// a comment...). Zero means 10,000,000 bytes, libxml2's text-node limit.
	MaxTokenBytes int
}

// Scanner reads tokens from an input stream.
//
// Supported encodings: UTF-8 (with or without BOM), UTF-16 LE and BE
// (detected from the BOM, or from "<?" when the document starts with an XML
// declaration), ISO-8859-1 (declared as ISO-8859-1, latin1 or ISO_8859-1)
// and US-ASCII (bytes above 0x7F are then an error), case-insensitively.
// Any other declared encoding is a SyntaxError naming it. Input is
// transcoded to UTF-8 on the fly, with the standard library only.
type Scanner struct {
	raw      io.Reader // the original input
	src      io.Reader // UTF-8 input: raw, or a decoder reading raw
	rawCount *int64    // raw bytes a decoder has read, nil without decoder
	rawBase  int64     // raw offset where the decoder started
	lim      Limits

	buf    []byte
	r, w   int   // unread input is buf[r:w]; the current token starts at r
	base   int64 // offset of buf[0] in the UTF-8 input
	rerr   error // sticky read error, io.EOF at the end of the input
	err    error // sticky error returned by Next
	tooBig bool  // the current token exceeds lim.MaxTokenBytes
	tagNL  bool  // the start tag being parsed holds a line end

	// Line cursor: line and lineStart describe buffer index ci.
	ci        int
	line      int
	lineStart int64
	lastCR    bool
	// Position of the current token's start, to rewind the cursor.
	markOff       int64
	markLine      int
	markLineStart int64
	markCR        bool
	scanFrom      int // where a re-parse of the current token resumes a search
	scanKey       int // 1 + offset in the token of the construct scanFrom is for

	// Encoding and XML declaration.
	started                       bool
	enc                           int
	bom                           int
	ascii                         bool
	hasDecl                       bool
	version, encoding, standalone string

	// Document state.
	depth      int
	seenRoot   bool
	rootDone   bool
	seenDTD    bool
	pendingEnd bool // an empty-element tag's EndElement is due
	popPending bool // the element ended by the last token is still on the stack
	stack      []elem
	ns         []nsBinding
	nsTop      map[string]int  // prefix -> index in ns of its innermost binding
	nsGen      uint64          // changes whenever the bindings in scope do
	entities   map[string]bool // general entities declared in the DOCTYPE

	// Interning and reused storage.
	qnames    map[string]*qname
	recent    [64]*qname // cache in front of qnames, see internQName
	lastStart *qname     // the name of the last start tag, see qname.nextStart
	strs      map[string]string
	tok       Token
	attrs     []Attr
	nsDecls   []NSDecl
	rawAttrs  []rawAttr
	vals      []byte
	data      []byte
	seen      map[string]int
}

// elem is an open element.
type elem struct {
	q    *qname
	name Name
	ns   int // len(Scanner.ns) before the element's declarations
}

// nsBinding binds a prefix to a namespace URI ("" undeclares the default).
type nsBinding struct {
	prefix, uri string
	prev        int // index in Scanner.ns of the binding this one hides, or -1
}

// Namespace scopes are a stack of bindings searched from the top. Real
// documents declare a handful of prefixes, so a linear search is fastest;
// past nsIndexAt bindings a map from prefix to its innermost binding keeps
// lookups constant-time for hostile documents with thousands of
// declarations.
const nsIndexAt = 16

// pushNS declares prefix as uri in the scope being opened.
func (s *Scanner) pushNS(prefix, uri string) {
	if s.nsTop == nil {
		s.nsTop = make(map[string]int)
	}
	prev, ok := s.nsTop[prefix]
	if !ok {
		prev = -1
	}
	s.nsTop[prefix] = len(s.ns)
	s.ns = append(s.ns, nsBinding{prefix, uri, prev})
	s.nsGen++
}

// resolve is LookupPrefix for the prefix of q, remembered in q while the
// bindings in scope stay the same (they rarely change in big documents).
func (s *Scanner) resolve(q *qname) (string, bool) {
	if q.nsGen != s.nsGen {
		s.rebind(q)
	}
	return q.space, q.bound
}

// rebind is resolve's lookup, out of line so that resolve is inlined.
func (s *Scanner) rebind(q *qname) {
	q.space, q.bound = s.LookupPrefix(q.prefix)
	q.nsGen = s.nsGen
}

// popNS closes the scopes back to n bindings.
func (s *Scanner) popNS(n int) {
	for i := len(s.ns) - 1; i >= n; i-- {
		b := s.ns[i]
		if b.prev < 0 {
			delete(s.nsTop, b.prefix)
		} else {
			s.nsTop[b.prefix] = b.prev
		}
	}
	if len(s.ns) > n {
		s.nsGen++
	}
	s.ns = s.ns[:n]
}

// NewScanner returns a Scanner reading from r with default Limits.
func NewScanner(r io.Reader) *Scanner { return NewScannerLimits(r, Limits{}) }

// NewScannerLimits returns a Scanner reading from r with the given limits.
// Zero fields of lim take their defaults.
func NewScannerLimits(r io.Reader, lim Limits) *Scanner {
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = DefaultMaxDepth
	}
	if lim.MaxTokenBytes <= 0 {
		lim.MaxTokenBytes = DefaultMaxTokenBytes
	}
	n := initialBufSize
	if n > lim.MaxTokenBytes+64 {
		n = lim.MaxTokenBytes + 64
	}
	return &Scanner{
		raw:    r,
		src:    r,
		lim:    lim,
		buf:    make([]byte, n),
		line:   1,
		nsGen:  1,
		qnames: make(map[string]*qname),
		strs:   make(map[string]string),
	}
}

// Default limits, as in libxml2 without XML_PARSE_HUGE.
const (
	DefaultMaxDepth      = 256
	DefaultMaxTokenBytes = 10_000_000
)

// Next returns the next token. At the end of a well-formed document it
// returns nil, io.EOF. Any other error is a *SyntaxError (well-formedness
// or limit) or an error from the underlying reader; after an error, Next
// keeps returning it.
func (s *Scanner) Next() (*Token, error) {
	if s.err != nil {
		return nil, s.err
	}
	if err := s.next(); err != nil {
		s.err = err
		return nil, err
	}
	return &s.tok, nil
}

// XMLDecl reports the version, encoding and standalone values of the XML
// declaration, if the document had one. Valid once Next has been called.
func (s *Scanner) XMLDecl() (version, encoding, standalone string, ok bool) {
	return s.version, s.encoding, s.standalone, s.hasDecl
}

// LookupPrefix resolves a namespace prefix in the scope of the most recent
// StartElement ("" is the default namespace). It is what QName-valued
// attribute and element values need. While the current token is an
// EndElement, the scope is still that of the element it ends. The prefix
// "xml" is always bound; an undeclared or undeclared-again default
// namespace reports "", false.
func (s *Scanner) LookupPrefix(prefix string) (uri string, ok bool) {
	if prefix == "xml" {
		return xmlNS, true
	}
	if len(s.ns) > nsIndexAt {
		if i, ok := s.nsTop[prefix]; ok {
			return s.ns[i].uri, s.ns[i].uri != ""
		}
		return "", false
	}
	for i := len(s.ns) - 1; i >= 0; i-- {
		if s.ns[i].prefix == prefix {
			return s.ns[i].uri, s.ns[i].uri != ""
		}
	}
	return "", false
}

// InputOffset returns the number of input bytes consumed so far, that is up
// to the end of the last token returned (of the original, undecoded input,
// byte order mark included). For transcoded input (UTF-16, ISO-8859-1) the
// figure is the number of bytes the decoder has read, which may run ahead of
// the last token by up to one buffer.
func (s *Scanner) InputOffset() int64 {
	if s.rawCount != nil {
		return s.rawBase + *s.rawCount
	}
	return int64(s.bom) + s.base + int64(s.r)
}
