package xmlscan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// docGen generates random well-formed, namespace-well-formed documents
// that exercise most of the grammar, and mutations of them.
type docGen struct {
	r *rand.Rand
	b bytes.Buffer
	// noDoctype leaves out the DOCTYPE (for comparisons with parsers that
	// handle it differently).
	noDoctype bool
}

func newDocGen(seed uint64) *docGen {
	return &docGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (g *docGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

var (
	genElemNames = []string{"a", "b", "url", "loc", "rs:md", "rs:ln", "x:y", "é", "_z", "a-b.c", "lastmod", "Ünïcödé", "x:url"}
	genAttrNames = []string{"at", "hash", "href", "x:k", "rs:k", "b.c", "xml:lang", "é"}
	genAttrChars = []string{"a", "b", " ", "1", "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#65;", "&#x20AC;", "é", "€", "😀", ">", "\t", "\n", "\r\n", "/", "=", "?", "#", "%", "]]>", "&#10;", "&#x9;"}
	genTextChars = []string{"x", "y", " ", "\n", "\t", "\r\n", "\r", "&amp;", "&lt;", "&gt;", "&#60;", "&#x1F600;", "é", "€", "😀", ">", "]", "]]", "'", "\"", "=", "/", "?", "%", "-"}
	genURIs      = []string{"http://www.sitemaps.org/schemas/sitemap/0.9", "http://www.openarchives.org/rs/terms/", "urn:x", "http://example.com/é?a=1&amp;b=2"}
)

// doc returns a new random well-formed document.
func (g *docGen) doc() []byte {
	g.b.Reset()
	if g.r.IntN(2) == 0 {
		g.b.WriteString(g.pick(`<?xml version="1.0"?>`, `<?xml version="1.0" encoding="UTF-8"?>`, `<?xml version='1.0' encoding='utf-8' standalone='yes'?>`, "<?xml version=\"1.0\"\n?>"))
	}
	g.misc()
	if !g.noDoctype && g.r.IntN(4) == 0 {
		g.b.WriteString(g.pick("<!DOCTYPE urlset>", "<!DOCTYPE a SYSTEM \"a.dtd\">", "<!DOCTYPE a PUBLIC \"-//A//EN\" 'a.dtd'>",
			"<!DOCTYPE a [\n<!ELEMENT a ANY>\n<!ATTLIST a x CDATA \"1\">\n<!ENTITY e \"v\">\n<!-- c -->\n<?p x?>\n]>"))
		g.misc()
	}
	g.element(0, true)
	g.misc()
	return append([]byte(nil), g.b.Bytes()...)
}

func (g *docGen) misc() {
	for n := g.r.IntN(3); n > 0; n-- {
		switch g.r.IntN(3) {
		case 0:
			g.b.WriteString(g.pick(" ", "\n", "\r\n", "\t", "  \n"))
		case 1:
			g.b.WriteString(g.pick("<!-- c -->", "<!---->", "<!-- - é\n-->"))
		case 2:
			g.b.WriteString(g.pick("<?pi?>", "<?pi data?>", "<?xml-stylesheet href='a'?>", "<?é\n x ?>"))
		}
	}
}

func (g *docGen) element(depth int, root bool) {
	name := g.pick(genElemNames...)
	g.b.WriteString("<" + name)
	if root {
		// Declare the prefixes used anywhere, so every document is
		// namespace-well-formed.
		g.b.WriteString(` xmlns:rs="http://www.openarchives.org/rs/terms/"` + g.pick(" ", "\n  ", "\t") + `xmlns:x="urn:x"`)
	}
	if g.r.IntN(5) == 0 {
		fmt.Fprintf(&g.b, " xmlns=%q", g.pick(genURIs...))
	}
	used := map[string]bool{}
	for n := g.r.IntN(4); n > 0; n-- {
		an := g.pick(genAttrNames...)
		if used[an] {
			continue
		}
		used[an] = true
		q := g.pick(`"`, `'`)
		g.b.WriteString(g.pick(" ", "\n    ", "\r\n\t", "  "))
		g.b.WriteString(an + g.pick("=", " = ", "\n=\n") + q)
		for k := g.r.IntN(6); k > 0; k-- {
			c := g.pick(genAttrChars...)
			if c == q || c == "]]>" && g.r.IntN(2) == 0 {
				continue
			}
			g.b.WriteString(c)
		}
		g.b.WriteString(q)
	}
	g.b.WriteString(g.pick("", " ", "\n"))
	if depth > 4 || g.r.IntN(4) == 0 {
		g.b.WriteString("/>")
		return
	}
	g.b.WriteString(">")
	for n := g.r.IntN(5); n > 0; n-- {
		switch g.r.IntN(6) {
		case 0, 1:
			g.element(depth+1, false)
		case 2:
			g.text()
		case 3:
			g.b.WriteString(g.pick("<![CDATA[x]]>", "<![CDATA[]]>", "<![CDATA[<&>]]]]><![CDATA[>]]>", "<![CDATA[\r\né]]>"))
		default:
			g.misc()
		}
	}
	g.b.WriteString("</" + name + g.pick(">", " >", "\n>"))
}

func (g *docGen) text() {
	for k := g.r.IntN(8) + 1; k > 0; k-- {
		c := g.pick(genTextChars...)
		if c == ">" && bytes.HasSuffix(g.b.Bytes(), []byte("]]")) {
			continue
		}
		g.b.WriteString(c)
	}
	if bytes.HasSuffix(g.b.Bytes(), []byte("]")) {
		g.b.WriteString("x")
	}
}

// mutate returns a copy of doc with a random, usually fatal, change.
func (g *docGen) mutate(doc []byte) []byte {
	d := append([]byte(nil), doc...)
	if len(d) == 0 {
		return d
	}
	i := g.r.IntN(len(d))
	ins := func(s string) []byte { return append(d[:i:i], append([]byte(s), d[i:]...)...) }
	switch g.r.IntN(14) {
	case 0: // truncate
		return d[:i]
	case 1: // drop a byte
		return append(d[:i:i], d[i+1:]...)
	case 2: // duplicate a byte
		return ins(string(d[i]))
	case 3, 4: // insert a delimiter or odd character
		return ins(g.pick("<", ">", "&", `"`, "'", "]", "/", "=", ":", "-", "!", "?", "[", " ", "\x01", "\xff", "\xc3", "\uFFFE", "&#0;", "&x;", "&#xD800;", "--", "]]>", "\x00"))
	case 5: // bad name start
		return ins(g.pick("1", ".", "-", "\u0300", "·"))
	case 6: // undeclared prefix
		if j := bytes.IndexByte(d[i:], '<'); j >= 0 && i+j+1 < len(d) && d[i+j+1] != '/' && d[i+j+1] != '!' && d[i+j+1] != '?' {
			i += j + 1
			return ins("zz:")
		}
		return ins("zz:")
	case 7: // text or element after the root
		return append(d, g.pick("x", "<a/>", "&amp;", "<!-- ok -->", " \n", "<?pi?>", "]]>")...)
	case 8: // stray ampersand
		return ins("&")
	case 9: // remove a quote
		if j := bytes.IndexAny(d[i:], `"'`); j >= 0 {
			i += j
			return append(d[:i:i], d[i+1:]...)
		}
		return d
	case 10: // remove a '>' or '<'
		if j := bytes.IndexAny(d[i:], "<>"); j >= 0 {
			i += j
			return append(d[:i:i], d[i+1:]...)
		}
		return d
	case 11: // duplicate an attribute
		if j := bytes.Index(d, []byte(`at=`)); j >= 0 {
			i = j
			return ins(`at="1" `)
		}
		return ins(" a='1' a='2'")
	case 12: // something before the declaration or the root
		return append([]byte(g.pick(" ", "x", "<!-- c -->", "\xEF\xBB\xBF", "<?xml version='1.0'?>")), d...)
	default: // rename an end tag
		if j := bytes.LastIndex(d, []byte("</")); j >= 0 {
			i = j + 2
			return ins("q")
		}
		return d
	}
}

// docString quotes a document for failure messages.
func docString(d []byte) string {
	if len(d) > 400 {
		return fmt.Sprintf("%q...(%d bytes)", d[:400], len(d))
	}
	return strings.TrimSpace(fmt.Sprintf("%q", d))
}
