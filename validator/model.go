package validator

import (
	"strconv"
	"strings"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// Namespaces of the Sitemap and ResourceSync elements.
const (
	SitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"
	RSNS      = "http://www.openarchives.org/rs/terms/"
)

// Element is an element of the document as the rules see it: its name,
// position, attributes and, for leaf elements such as <loc>, its text.
type Element struct {
	Name  xmlscan.Name
	Pos   xmlscan.Pos // position of the start tag's "<"
	Attrs []xmlscan.Attr
	// Text is the character content of a leaf element (<loc>, <lastmod>,
	// <changefreq>, <priority>), as written: not trimmed.
	Text string
	// TextPos is the position of the first character of Text (of the
	// content, when the element is empty).
	TextPos xmlscan.Pos

	parent *Element
	index  int // among same-name siblings, 1-based; 0 for the root
}

// Attr returns the unprefixed attribute with the given local name, or nil.
// ResourceSync attributes have no namespace prefix (§7).
func (e *Element) Attr(local string) *xmlscan.Attr {
	if e == nil {
		return nil
	}
	for i := range e.Attrs {
		if a := &e.Attrs[i]; a.Name.Local == local && a.Name.Space == "" {
			return a
		}
	}
	return nil
}

// Value returns the value of the unprefixed attribute, or "" when absent.
func (e *Element) Value(local string) string {
	if a := e.Attr(local); a != nil {
		return a.Value
	}
	return ""
}

// Has reports whether the unprefixed attribute is present.
func (e *Element) Has(local string) bool { return e.Attr(local) != nil }

// Path returns the element's path, such as "/urlset/url[17]/rs:md".
func (e *Element) Path() string {
	var b strings.Builder
	e.writePath(&b)
	return b.String()
}

func (e *Element) writePath(b *strings.Builder) {
	if e.parent != nil {
		e.parent.writePath(b)
	}
	b.WriteByte('/')
	b.WriteString(qname(e.Name))
	if e.index > 0 && (e.index > 1 || repeatable(e.Name.Local)) {
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(e.index))
		b.WriteByte(']')
	}
}

// Detach returns a copy of el that stays valid after the entry holding it
// is reused, for rules that report on an element after seeing later ones.
func (e *Element) Detach() *Element {
	c := *e
	c.Attrs = append([]xmlscan.Attr(nil), e.Attrs...)
	if e.parent != nil && e.parent.parent != nil {
		c.parent = e.parent.Detach()
	}
	return &c
}

// AttrPath returns the path of one of the element's attributes.
func (e *Element) AttrPath(a *xmlscan.Attr) string { return e.Path() + "/@" + qname(a.Name) }

// repeatable reports whether elements with that local name always carry an
// index in paths (the repeatable ResourceSync elements), as xmlscan.Path does.
func repeatable(local string) bool { return local == "url" || local == "sitemap" || local == "ln" }

func qname(n xmlscan.Name) string {
	if n.Prefix == "" {
		return n.Local
	}
	return n.Prefix + ":" + n.Local
}

// Doc is what rules know about a document once its header is read: the
// root element and the document-level <rs:md> and <rs:ln> elements.
type Doc struct {
	Root Element
	// Kind is the detected kind of document.
	Kind Kind
	// Capability is the capability value of the document-level rs:md
	// ("" when absent), and Cap its description (nil when unknown).
	Capability string
	Cap        *Capability
	// IsIndex is true for a <sitemapindex> root.
	IsIndex bool
	// MD is the first document-level <rs:md>; MDs counts them and Extra
	// holds the ones after the first, which should not exist.
	MD       *Element
	MDs      int
	ExtraMDs []*Element
	// Links are the document-level <rs:ln> elements.
	Links []*Element
	// Encoding is the encoding the document is read in, from its byte
	// order mark and XML declaration: "UTF-8", "UTF-16LE", "UTF-16BE",
	// "ISO-8859-1" or "US-ASCII".
	Encoding string
	// Doctype is the DOCTYPE token, if the document had one.
	Doctype *Element
	// ForeignRS lists the root's children named md or ln in a namespace
	// that resembles, but is not, the ResourceSync namespace (e.g. without
	// the trailing slash); Entry.ForeignRS has the entries' ones.
	ForeignRS []*Element
}

// Links returns the document-level links with the given relation type.
func (d *Doc) LinksRel(rel string) []*Element {
	var out []*Element
	for _, l := range d.Links {
		if l.Value("rel") == rel {
			out = append(out, l)
		}
	}
	return out
}

// Entry is one <url> (or <sitemap>) element with its children.
// Entries are reused: a rule must copy what it keeps.
type Entry struct {
	Element
	// N is the entry's 1-based position in the document.
	N int
	// Loc, Lastmod, Changefreq and Priority are the Sitemap children (nil
	// when absent).
	Loc, Lastmod, Changefreq, Priority *Element
	// MD is the first <rs:md> child, nil when absent; MDs counts them.
	MD  *Element
	MDs int
	// Links are the <rs:ln> children.
	Links []*Element
	// ForeignRS are md or ln children in a namespace that resembles the
	// ResourceSync namespace but is not it.
	ForeignRS []*Element

	pool []Element // storage for children, reused between entries
}

// LinksRel returns the entry's links with the given relation type.
func (e *Entry) LinksRel(rel string) []*Element {
	var out []*Element
	for _, l := range e.Links {
		if l.Value("rel") == rel {
			out = append(out, l)
		}
	}
	return out
}

// LocText returns the trimmed text of <loc>, or "".
func (e *Entry) LocText() string {
	if e.Loc == nil {
		return ""
	}
	return strings.TrimSpace(e.Loc.Text)
}

// reset prepares the entry for reuse.
func (e *Entry) reset() {
	e.Element = Element{}
	e.Loc, e.Lastmod, e.Changefreq, e.Priority, e.MD = nil, nil, nil, nil, nil
	e.MDs = 0
	e.Links = e.Links[:0]
	e.ForeignRS = e.ForeignRS[:0]
	e.pool = e.pool[:0]
}

// child allocates a child element of the entry from its pool, so that
// steady-state entry building does not allocate.
func (e *Entry) child() *Element {
	if len(e.pool) == cap(e.pool) {
		// append would move the elements already handed out this entry:
		// start a new, larger backing array instead; the old one lives on
		// as long as pointers into it do.
		e.pool = make([]Element, 0, 2*cap(e.pool)+8)
	}
	e.pool = e.pool[:len(e.pool)+1]
	el := &e.pool[len(e.pool)-1]
	attrs := el.Attrs[:0] // keep the attribute storage of a reused element
	*el = Element{Attrs: attrs}
	return el
}

// Stats are known at the end of a document.
type Stats struct {
	Entries int   // number of <url>/<sitemap> elements
	Bytes   int64 // uncompressed size of the document in bytes
}
