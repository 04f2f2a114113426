package parity

// The generators of the corpus: byte-level value edits and xmlquery tree
// edits. See corpus_test.go for how they are combined.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/antchfx/xmlquery"
)

// ---------------------------------------------------------------------------
// Byte-level editing.

// startTag locates the n-th (0-based) start tag of qname in doc and returns
// the offsets of its "<" and of the end of its closing ">".
func startTag(doc []byte, qname string, n int) (start, end int, ok bool) {
	open := []byte("<" + qname)
	from := 0
	for {
		i := bytes.Index(doc[from:], open)
		if i < 0 {
			return 0, 0, false
		}
		i += from
		from = i + len(open)
		if from >= len(doc) || !strings.ContainsRune(" \t\r\n/>", rune(doc[from])) {
			continue
		}
		if n > 0 {
			n--
			continue
		}
		quote := byte(0)
		for j := from; j < len(doc); j++ {
			switch c := doc[j]; {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '>':
				return i, j + 1, true
			}
		}
		return 0, 0, false
	}
}

// countTags counts the start tags of qname in doc.
func countTags(doc []byte, qname string) int {
	n := 0
	for {
		if _, _, ok := startTag(doc, qname, n); !ok {
			return n
		}
		n++
	}
}

// setAttr sets attribute attr of the n-th qname start tag to the raw value,
// adding the attribute before the end of the tag if it is absent.
func setAttr(doc []byte, qname string, n int, attr, raw string) ([]byte, bool) {
	start, end, ok := startTag(doc, qname, n)
	if !ok {
		return nil, false
	}
	tag := string(doc[start:end])
	re := regexp.MustCompile(`(\s` + regexp.QuoteMeta(attr) + `\s*=\s*)("[^"]*"|'[^']*')`)
	if loc := re.FindStringSubmatchIndex(tag); loc != nil {
		tag = tag[:loc[4]] + `"` + raw + `"` + tag[loc[5]:]
	} else {
		cut := len(tag) - 1
		if strings.HasSuffix(tag, "/>") {
			cut--
		}
		tag = tag[:cut] + " " + attr + `="` + raw + `"` + tag[cut:]
	}
	return splice(doc, start, end, tag), true
}

// attrNames lists the attributes of the n-th qname start tag, in order.
func attrNames(doc []byte, qname string, n int) []string {
	start, end, ok := startTag(doc, qname, n)
	if !ok {
		return nil
	}
	var names []string
	for _, m := range attrNameRE.FindAllSubmatch(doc[start:end], -1) {
		names = append(names, string(m[1]))
	}
	return names
}

var attrNameRE = regexp.MustCompile(`\s([A-Za-z_][\w.:-]*)\s*=\s*["']`)

// setText replaces the content of the n-th qname element (which must not be
// empty-tagged or nested) with raw.
func setText(doc []byte, qname string, n int, raw string) ([]byte, bool) {
	_, end, ok := startTag(doc, qname, n)
	if !ok || doc[end-2] == '/' {
		return nil, false
	}
	closeAt := bytes.Index(doc[end:], []byte("</"+qname+">"))
	if closeAt < 0 {
		return nil, false
	}
	return splice(doc, end, end+closeAt, raw), true
}

func splice(doc []byte, start, end int, with string) []byte {
	out := make([]byte, 0, len(doc)-(end-start)+len(with))
	out = append(out, doc[:start]...)
	out = append(out, with...)
	return append(out, doc[end:]...)
}

// label turns a value into a readable, stable part of a document name.
func label(v string) string {
	if len(v) > 40 {
		sum := sha256.Sum256([]byte(v))
		return fmt.Sprintf("len%d-%s", len(v), hex.EncodeToString(sum[:4]))
	}
	plain := v != ""
	for _, r := range v {
		if r > '~' || r <= ' ' || r == '"' || r == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return v
	}
	return strconv.QuoteToASCII(v)
}

// ---------------------------------------------------------------------------
// Value generators.

// valueSlot is a place in a base document that takes values of one type.
type valueSlot struct {
	name   string // e.g. "url-md-length"
	qname  string // element holding the value
	occ    int    // which occurrence of qname
	attr   string // attribute; "" for element content
	values [][]string
}

// genSyntheticValues puts every edge value into every slot of the synthetic
// bases.
func genSyntheticValues(b *corpusBuilder, byName map[string][]byte) {
	dt := [][]string{dateTimeValues}
	lastmod := [][]string{dateTimeValues, dateOnlyValues}
	uri := [][]string{uriValues}
	plan := map[string][]valueSlot{
		"urlset-full": {
			{"doc-md-capability", "rs:md", 0, "capability", [][]string{stringValues}},
			{"doc-md-from", "rs:md", 0, "from", dt},
			{"url-md-at", "rs:md", 1, "at", dt},
			{"url-md-completed", "rs:md", 1, "completed", dt},
			{"url-md-datetime", "rs:md", 1, "datetime", dt},
			{"url-md-from", "rs:md", 1, "from", dt},
			{"url-md-until", "rs:md", 1, "until", dt},
			{"url-md-modified", "rs:md", 1, "modified", dt},
			{"url-md-length", "rs:md", 1, "length", [][]string{integerValues}},
			{"url-md-change", "rs:md", 1, "change", [][]string{changeValues}},
			{"url-md-hash", "rs:md", 1, "hash", [][]string{hashValues}},
			{"url-md-encoding", "rs:md", 1, "encoding", [][]string{stringValues}},
			{"url-md-path", "rs:md", 1, "path", [][]string{pathValues}},
			{"url-md-type", "rs:md", 1, "type", [][]string{contentTypeValues}},
			{"url-ln-modified", "rs:ln", 1, "modified", dt},
			{"url-ln-length", "rs:ln", 1, "length", [][]string{integerValues}},
			{"url-ln-pri", "rs:ln", 1, "pri", [][]string{integerValues}},
			{"url-ln-href", "rs:ln", 1, "href", uri},
			{"url-ln-profile", "rs:ln", 1, "profile", uri},
			{"url-ln-rel", "rs:ln", 1, "rel", [][]string{relValues, uriValues}},
			{"url-ln-path", "rs:ln", 1, "path", [][]string{pathValues}},
			{"url-ln-type", "rs:ln", 1, "type", [][]string{contentTypeValues}},
			{"url-ln-hash", "rs:ln", 1, "hash", [][]string{hashValues}},
			{"url-ln-encoding", "rs:ln", 1, "encoding", [][]string{stringValues}},
			{"url-loc", "loc", 0, "", [][]string{uriValues, locLengthValues}},
			{"url-lastmod", "lastmod", 0, "", lastmod},
			{"url-changefreq", "changefreq", 0, "", [][]string{changefreqValues}},
			{"url-priority", "priority", 0, "", [][]string{decimalValues}},
		},
		"sitemapindex-full": {
			{"doc-md-at", "rs:md", 0, "at", dt},
			{"sitemap-loc", "loc", 0, "", [][]string{uriValues, locLengthValues}},
			{"sitemap-lastmod", "lastmod", 0, "", lastmod},
		},
	}
	for _, base := range []string{"urlset-full", "sitemapindex-full"} {
		doc := byName[base]
		for _, slot := range plan[base] {
			done := map[string]bool{}
			for _, list := range slot.values {
				for _, v := range list {
					if done[v] {
						continue
					}
					done[v] = true
					var out []byte
					var ok bool
					if slot.attr != "" {
						if strings.Contains(v, "<") {
							continue // markup: not an attribute value
						}
						out, ok = setAttr(doc, slot.qname, slot.occ, slot.attr, v)
					} else {
						out, ok = setText(doc, slot.qname, slot.occ, v)
					}
					if !ok {
						panic("parity: cannot place value in " + base + "/" + slot.name)
					}
					b.add(catValue, base+"/"+slot.name+"="+label(v), out)
				}
			}
		}
	}
}

// shortValues are the few edge values tried on every attribute of the
// specification's examples, by attribute name.
var shortValues = map[string][]string{
	"at":         {"2013-01-03T09:00Z", "2013-01-03T24:00:00Z", "2013-02-29T00:00:00Z", "2013-01-03T09:00:00+14:01", "2013-01-03 09:00:00Z", "2013-01-03T09:00:00"},
	"length":     {"-1", "+5", " 7 ", "1e3", ""},
	"pri":        {"0", "999999", "1000000"},
	"capability": {""},
	"hash":       {"md5:zzz"},
	"encoding":   {""},
	"change":     {"modified", " created"},
	"path":       {"/", "a/b", "//a"},
	"type":       {"text/html;charset=utf-8", "application/atom+xml", "t\u00ebxt/html"},
	"rel":        {"Up", "up link", "%zz"},
	"href":       {"not a uri?", "http://[::1", ""},
	"profile":    {"http://[::1"},
}

func init() {
	for _, a := range []string{"completed", "datetime", "from", "until", "modified"} {
		shortValues[a] = shortValues["at"]
	}
}

// genExampleValues tries shortValues on every attribute of the first
// document-level and first entry-level rs:md and rs:ln of a base, and a few
// loc values, keeping the example's layout.
func genExampleValues(b *corpusBuilder, base baseDoc) {
	doc := base.data
	firstEntry := bytes.Index(doc, []byte("<url>"))
	if i := bytes.Index(doc, []byte("<sitemap>")); firstEntry < 0 || (i >= 0 && i < firstEntry) {
		firstEntry = i
	}
	for _, qname := range []string{"rs:md", "rs:ln"} {
		short := qname[3:]
		picked := map[string]bool{}
		for n := 0; n < countTags(doc, qname); n++ {
			start, _, _ := startTag(doc, qname, n)
			where := "doc"
			if firstEntry >= 0 && start > firstEntry {
				where = "entry"
			}
			if picked[where] {
				continue
			}
			picked[where] = true
			for _, attr := range attrNames(doc, qname, n) {
				for _, v := range shortValues[attr] {
					out, ok := setAttr(doc, qname, n, attr, v)
					if !ok {
						panic("parity: setAttr failed on " + base.name)
					}
					b.add(catValue, fmt.Sprintf("%s/%s-%s-%s=%s", base.name, where, short, attr, label(v)), out)
				}
			}
		}
	}
	if countTags(doc, "loc") > 0 {
		orig := ""
		if _, end, ok := startTag(doc, "loc", 0); ok {
			if c := bytes.Index(doc[end:], []byte("</loc>")); c >= 0 {
				orig = string(doc[end : end+c])
			}
		}
		for _, v := range []string{" " + orig + "\n  ", "http://a.bc"} {
			if out, ok := setText(doc, "loc", 0, v); ok {
				b.add(catValue, base.name+"/loc="+label(v), out)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Tree editing with xmlquery.

// parseTree parses a base document; bases are known to parse.
func parseTree(data []byte) *xmlquery.Node {
	doc, err := xmlquery.Parse(bytes.NewReader(data))
	if err != nil {
		panic("parity: xmlquery cannot parse a base document: " + err.Error())
	}
	return doc
}

// rawText is a placeholder text node replaced, after serialisation, by raw
// markup that xmlquery would otherwise escape.
type rawText struct {
	marks map[string]string
}

func (r *rawText) node(raw string) *xmlquery.Node {
	if r.marks == nil {
		r.marks = map[string]string{}
	}
	mark := fmt.Sprintf("\x00RAW%d\x00", len(r.marks))
	r.marks[mark] = raw
	return &xmlquery.Node{Type: xmlquery.TextNode, Data: mark}
}

// serialize writes the tree back to bytes, keeping whitespace and writing
// empty elements as empty-element tags.
func serialize(doc *xmlquery.Node, raws *rawText) []byte {
	s := doc.OutputXMLWithOptions(xmlquery.WithEmptyTagSupport(), xmlquery.WithPreserveSpace())
	if raws != nil {
		for mark, raw := range raws.marks {
			s = strings.Replace(s, mark, raw, 1)
		}
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return []byte(s)
}

func rootElement(doc *xmlquery.Node) *xmlquery.Node {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xmlquery.ElementNode {
			return c
		}
	}
	panic("parity: document without root element")
}

func qnameOf(n *xmlquery.Node) string {
	if n.Prefix != "" {
		return n.Prefix + ":" + n.Data
	}
	return n.Data
}

func elementChildren(n *xmlquery.Node) []*xmlquery.Node {
	var out []*xmlquery.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xmlquery.ElementNode {
			out = append(out, c)
		}
	}
	return out
}

func allChildren(n *xmlquery.Node) []*xmlquery.Node {
	var out []*xmlquery.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, c)
	}
	return out
}

// setChildren relinks the children of parent in the given order.
func setChildren(parent *xmlquery.Node, kids []*xmlquery.Node) {
	parent.FirstChild, parent.LastChild = nil, nil
	for _, k := range kids {
		k.Parent, k.PrevSibling, k.NextSibling = nil, nil, nil
		xmlquery.AddChild(parent, k)
	}
}

// insertBefore inserts n before ref among the children of parent; a nil
// ref appends.
func insertBefore(parent, ref, n *xmlquery.Node) {
	var kids []*xmlquery.Node
	for _, k := range allChildren(parent) {
		if k == ref {
			kids = append(kids, n)
		}
		kids = append(kids, k)
	}
	if ref == nil {
		kids = append(kids, n)
	}
	setChildren(parent, kids)
}

func clone(n *xmlquery.Node) *xmlquery.Node {
	c := &xmlquery.Node{Type: n.Type, Data: n.Data, Prefix: n.Prefix, NamespaceURI: n.NamespaceURI, ProcInst: n.ProcInst}
	c.Attr = append([]xmlquery.Attr(nil), n.Attr...)
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		xmlquery.AddChild(c, clone(k))
	}
	return c
}

// indexedElement is an element found by walking a tree, with the signature
// "parent>child" used to pick one element of each kind.
type indexedElement struct {
	sig  string
	node *xmlquery.Node
}

// elementsByKind returns the first element of each kind below the root, in
// document order.
func elementsByKind(root *xmlquery.Node) []indexedElement {
	var out []indexedElement
	seen := map[string]bool{}
	var walk func(n *xmlquery.Node)
	walk = func(n *xmlquery.Node) {
		for _, c := range elementChildren(n) {
			sig := qnameOf(n) + ">" + qnameOf(c)
			if !seen[sig] {
				seen[sig] = true
				out = append(out, indexedElement{sig, c})
			}
			walk(c)
		}
	}
	walk(root)
	return out
}

// treeEdit parses base, applies edit to the tree and serialises the result;
// ok is false when edit declines (the base has no place for the edit).
func treeEdit(base []byte, edit func(doc, root *xmlquery.Node, raws *rawText) bool) ([]byte, bool) {
	doc := parseTree(base)
	raws := &rawText{}
	if !edit(doc, rootElement(doc), raws) {
		return nil, false
	}
	return serialize(doc, raws), true
}

func findKind(root *xmlquery.Node, sig string) *xmlquery.Node {
	for _, e := range elementsByKind(root) {
		if e.sig == sig {
			return e.node
		}
	}
	return nil
}

// genStructure drops, duplicates and moves one element of each kind.
func genStructure(b *corpusBuilder, base baseDoc) {
	root := rootElement(parseTree(base.data))
	type op struct {
		name string
		fn   func(el *xmlquery.Node) bool
	}
	ops := []op{
		{"drop", func(el *xmlquery.Node) bool { xmlquery.RemoveFromTree(el); return true }},
		{"dup", func(el *xmlquery.Node) bool {
			xmlquery.AddImmediateSibling(el, clone(el))
			return true
		}},
		{"swap-next", func(el *xmlquery.Node) bool {
			sibs := elementChildren(el.Parent)
			for i, s := range sibs {
				if s == el && i+1 < len(sibs) {
					kids := allChildren(el.Parent)
					for j, k := range kids {
						switch k {
						case el:
							kids[j] = sibs[i+1]
						case sibs[i+1]:
							kids[j] = el
						}
					}
					setChildren(el.Parent, kids)
					return true
				}
			}
			return false
		}},
		{"to-first", func(el *xmlquery.Node) bool {
			first := elementChildren(el.Parent)[0]
			if first == el {
				return false
			}
			parent := el.Parent
			xmlquery.RemoveFromTree(el)
			insertBefore(parent, first, el)
			return true
		}},
		{"to-last", func(el *xmlquery.Node) bool {
			parent := el.Parent
			xmlquery.RemoveFromTree(el)
			insertBefore(parent, nil, el)
			return true
		}},
	}
	for _, kind := range elementsByKind(root) {
		for _, o := range ops {
			out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool {
				return o.fn(findKind(root, kind.sig))
			})
			if ok {
				b.add(catStructure, base.name+"/"+o.name+":"+kind.sig, out)
			}
		}
	}
}

// entryName is the entry element of a root: url or sitemap.
func entryName(root *xmlquery.Node) string {
	if root.Data == "sitemapindex" {
		return "sitemap"
	}
	return "url"
}

// firstOf returns the first element child of n with the given qname.
func firstOf(n *xmlquery.Node, qname string) *xmlquery.Node {
	for _, c := range elementChildren(n) {
		if qnameOf(c) == qname {
			return c
		}
	}
	return nil
}

// snippet parses a fragment into a detached element, declaring the
// prefixes the fragments use.
func snippet(fragment string) *xmlquery.Node {
	wrapped := `<w xmlns="` + nsSitemap + `" xmlns:rs="` + nsRS + `">` + fragment + `</w>`
	doc := parseTree([]byte(wrapped))
	el := elementChildren(rootElement(doc))[0]
	xmlquery.RemoveFromTree(el)
	return el
}

// genInsertions inserts foreign and misplaced elements at the places where
// the content models of the schemas differ.
func genInsertions(b *corpusBuilder, base baseDoc) {
	items := []struct{ name, fragment string }{
		{"ext", `<ext:x xmlns:ext="` + nsExt + `"/>`},
		{"no-ns", `<x xmlns=""/>`},
		{"sitemap-ns", `<x/>`},
		{"rs-unknown", `<rs:x/>`},
		{"rs-md", `<rs:md/>`},
		{"rs-ln", `<rs:ln rel="alternate" href="http://example.com/x"/>`},
		{"xhtml", `<xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href="http://example.com/de"/>`},
		{"xs-element", `<xs:element xmlns:xs="` + nsXS + `" name="x"/>`},
		{"xsi-element", `<xsi:x xmlns:xsi="` + nsXSI + `"/>`},
		{"loc", `<loc>http://example.com/x</loc>`},
		{"url", `<url><loc>http://example.com/x</loc></url>`},
		{"sitemap", `<sitemap><loc>http://example.com/x</loc></sitemap>`},
	}
	// positions return (parent, ref): the fragment goes before ref.
	positions := []struct {
		name string
		at   func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node)
	}{
		{"root-first", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			return root, elementChildren(root)[0]
		}},
		{"root-before-entries", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			return root, firstOf(root, entryName(root))
		}},
		{"root-between-entries", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			first := firstOf(root, entryName(root))
			if first == nil {
				return nil, nil
			}
			return root, first.NextSibling
		}},
		{"root-last", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			return root, nil
		}},
		{"entry-first", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			e := firstOf(root, entryName(root))
			if e == nil {
				return nil, nil
			}
			return e, e.FirstChild
		}},
		{"entry-after-loc", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			e := firstOf(root, entryName(root))
			if e == nil || firstOf(e, "loc") == nil {
				return nil, nil
			}
			return e, firstOf(e, "loc").NextSibling
		}},
		{"entry-last", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			e := firstOf(root, entryName(root))
			if e == nil {
				return nil, nil
			}
			return e, nil
		}},
		{"in-md", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			if e := firstOf(root, entryName(root)); e != nil {
				if md := firstOf(e, "rs:md"); md != nil {
					return md, nil
				}
			}
			if md := firstOf(root, "rs:md"); md != nil {
				return md, nil
			}
			return nil, nil
		}},
		{"in-loc", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			e := firstOf(root, entryName(root))
			if e == nil || firstOf(e, "loc") == nil {
				return nil, nil
			}
			return firstOf(e, "loc"), nil
		}},
	}
	for _, pos := range positions {
		for _, it := range items {
			out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool {
				parent, ref := pos.at(root)
				if parent == nil {
					return false
				}
				insertBefore(parent, ref, snippet(it.fragment))
				return true
			})
			if ok {
				b.add(catInsert, base.name+"/insert-"+it.name+"@"+pos.name, out)
			}
		}
	}
}

// genAttributes adds foreign, unknown and xsi: attributes to each kind of
// element.
func genAttributes(b *corpusBuilder, base baseDoc) {
	type target struct {
		name string
		find func(root *xmlquery.Node) *xmlquery.Node
	}
	entry := func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, entryName(root)) }
	child := func(qname string) func(root *xmlquery.Node) *xmlquery.Node {
		return func(root *xmlquery.Node) *xmlquery.Node {
			if e := entry(root); e != nil {
				return firstOf(e, qname)
			}
			return nil
		}
	}
	targets := []target{
		{"root", func(root *xmlquery.Node) *xmlquery.Node { return root }},
		{"entry", entry},
		{"loc", child("loc")},
		{"lastmod", child("lastmod")},
		{"priority", child("priority")},
		{"doc-md", func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, "rs:md") }},
		{"doc-ln", func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, "rs:ln") }},
		{"entry-md", child("rs:md")},
		{"entry-ln", child("rs:ln")},
	}
	common := [][2]string{
		{"ext:a", "1"}, {"a", "1"}, {"rs:a", "1"}, {"rs:length", "1"}, {"sm:a", "1"},
		{"xml:lang", "en"}, {"xml:space", "preserve"}, {"xml:space", "bogus"}, {"xml:foo", "1"},
		{"xml:base", "http://example.com/"}, {"xsi:nil", "true"}, {"xsi:nil", "false"},
		{"xsi:nil", "maybe"}, {"xsi:foo", "1"}, {"xsi:type", "xs:anyType"},
		{"xsi:type", "nope:x"}, {"xmlns:unused", "http://example.org/unused"},
	}
	specific := map[string][][2]string{
		"root": {
			{"xsi:schemaLocation", nsSitemap + " sitemap.xsd " + nsRS + " resourcesync.xsd"},
			{"xsi:schemaLocation", nsSitemap + " sitemap.xsd " + nsRS},
			{"xsi:schemaLocation", ""},
			{"xsi:noNamespaceSchemaLocation", "sitemap.xsd"},
			{"xsi:type", "sm:tUrl"},
		},
		"entry":    {{"xsi:type", "sm:tUrl"}, {"xsi:type", "sm:tSitemap"}, {"xsi:type", "tUrl"}},
		"loc":      {{"xsi:type", "sm:tLoc"}, {"xsi:type", "sm:tLocSitemap"}, {"xsi:type", "tLoc"}, {"xsi:type", "xs:anyURI"}, {"xsi:type", "xs:string"}, {"xsi:type", "sm:nope"}},
		"lastmod":  {{"xsi:type", "xs:date"}, {"xsi:type", "xs:dateTime"}, {"xsi:type", "sm:tLastmod"}, {"xsi:type", "sm:tLastmodSitemap"}},
		"priority": {{"xsi:type", "xs:decimal"}, {"xsi:type", "sm:tPriority"}},
		"doc-md":   {{"xsi:type", "rs:changeType"}, {"rs:capability", "resourcelist"}},
		"entry-ln": {{"xsi:type", "xs:string"}},
	}
	for _, tg := range targets {
		attrs := append(append([][2]string(nil), common...), specific[tg.name]...)
		for _, a := range attrs {
			out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool {
				el := tg.find(root)
				if el == nil {
					return false
				}
				declare(root, "ext", nsExt)
				declare(root, "sm", nsSitemap)
				declare(root, "xsi", nsXSI)
				declare(root, "xs", nsXS)
				xmlquery.AddAttr(el, a[0], a[1])
				return true
			})
			if ok {
				b.add(catAttr, base.name+"/attr-"+tg.name+"-"+a[0]+"="+label(a[1]), out)
			}
		}
	}
}

// declare adds a namespace declaration to the root unless the prefix is
// declared there already.
func declare(root *xmlquery.Node, prefix, uri string) {
	xmlquery.AddAttr(root, "xmlns:"+prefix, uri)
}

// setNamespaceDecl changes the value of a namespace declaration on the root
// ("" prefix for the default namespace).
func setNamespaceDecl(root *xmlquery.Node, prefix, uri string) bool {
	for i, a := range root.Attr {
		if (prefix == "" && a.Name.Space == "" && a.Name.Local == "xmlns") ||
			(prefix != "" && a.Name.Space == "xmlns" && a.Name.Local == prefix) {
			root.Attr[i].Value = uri
			return true
		}
	}
	return false
}

func removeNamespaceDecl(root *xmlquery.Node, prefix string) bool {
	for i, a := range root.Attr {
		if (prefix == "" && a.Name.Space == "" && a.Name.Local == "xmlns") ||
			(prefix != "" && a.Name.Space == "xmlns" && a.Name.Local == prefix) {
			root.Attr = append(root.Attr[:i], root.Attr[i+1:]...)
			return true
		}
	}
	return false
}

// genNamespaces changes namespace URIs and prefixes.
func genNamespaces(b *corpusBuilder, base baseDoc) {
	edits := []struct {
		name string
		fn   func(root *xmlquery.Node) bool
	}{
		{"rs-no-trailing-slash", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "rs", strings.TrimSuffix(nsRS, "/"))
		}},
		{"rs-https", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "rs", "https://www.openarchives.org/rs/terms/")
		}},
		{"rs-is-sitemap", func(r *xmlquery.Node) bool { return setNamespaceDecl(r, "rs", nsSitemap) }},
		{"rs-undeclared", func(r *xmlquery.Node) bool { return removeNamespaceDecl(r, "rs") }},
		{"rs-empty", func(r *xmlquery.Node) bool { return setNamespaceDecl(r, "rs", "") }},
		{"sitemap-0.84", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "", "http://www.google.com/schemas/sitemap/0.84")
		}},
		{"sitemap-https", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "", "https://www.sitemaps.org/schemas/sitemap/0.9")
		}},
		{"sitemap-trailing-slash", func(r *xmlquery.Node) bool { return setNamespaceDecl(r, "", nsSitemap+"/") }},
		{"sitemap-uppercase", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "", "http://www.SITEMAPS.org/schemas/sitemap/0.9")
		}},
		{"no-default-ns", func(r *xmlquery.Node) bool { return removeNamespaceDecl(r, "") }},
		{"default-ns-empty", func(r *xmlquery.Node) bool { return setNamespaceDecl(r, "", "") }},
		{"sitemap-prefixed", func(r *xmlquery.Node) bool {
			if !removeNamespaceDecl(r, "") {
				return false
			}
			xmlquery.AddAttr(r, "xmlns:sm", nsSitemap)
			var walk func(n *xmlquery.Node)
			walk = func(n *xmlquery.Node) {
				if n.Prefix == "" {
					n.Prefix = "sm"
				}
				for _, c := range elementChildren(n) {
					walk(c)
				}
			}
			walk(r)
			return true
		}},
		{"rs-prefix-renamed", func(r *xmlquery.Node) bool {
			if !removeNamespaceDecl(r, "rs") {
				return false
			}
			xmlquery.AddAttr(r, "xmlns:resync", nsRS)
			var walk func(n *xmlquery.Node)
			walk = func(n *xmlquery.Node) {
				if n.Prefix == "rs" {
					n.Prefix = "resync"
				}
				for _, c := range elementChildren(n) {
					walk(c)
				}
			}
			walk(r)
			return true
		}},
		{"rs-default-on-md", func(r *xmlquery.Node) bool {
			// <md xmlns="rs-namespace"/>: same element, no prefix.
			md := firstOf(r, "rs:md")
			if md == nil {
				return false
			}
			md.Prefix = ""
			xmlquery.AddAttr(md, "xmlns", nsRS)
			return true
		}},
		{"rs-redeclared-on-entry", func(r *xmlquery.Node) bool {
			e := firstOf(r, entryName(r))
			if e == nil {
				return false
			}
			xmlquery.AddAttr(e, "xmlns:rs", "http://example.org/not-rs")
			return true
		}},
		{"default-redeclared-on-entry", func(r *xmlquery.Node) bool {
			e := firstOf(r, entryName(r))
			if e == nil {
				return false
			}
			xmlquery.AddAttr(e, "xmlns", "http://example.org/not-sitemap")
			return true
		}},
	}
	for _, e := range edits {
		out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool { return e.fn(root) })
		if ok {
			b.add(catNamespace, base.name+"/ns-"+e.name, out)
		}
	}
}

// genText puts text, CDATA, comments and PIs into elements whose content
// is empty, element-only or simple.
func genText(b *corpusBuilder, base baseDoc) {
	items := []struct {
		name string
		node func(r *rawText) *xmlquery.Node
	}{
		{"text", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.TextNode, Data: "text"} }},
		{"space", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.TextNode, Data: " "} }},
		{"newline", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.TextNode, Data: "\n  \t"} }},
		{"nbsp-ref", func(r *rawText) *xmlquery.Node { return r.node("&#160;") }},
		{"space-ref", func(r *rawText) *xmlquery.Node { return r.node("&#32;") }},
		{"amp", func(r *rawText) *xmlquery.Node { return r.node("&amp;") }},
		{"cdata-empty", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.CharDataNode, Data: ""} }},
		{"cdata-space", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.CharDataNode, Data: " \n "} }},
		{"cdata-text", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.CharDataNode, Data: "x"} }},
		{"comment", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.CommentNode, Data: " c "} }},
		{"pi", func(*rawText) *xmlquery.Node {
			return &xmlquery.Node{Type: xmlquery.ProcessingInstruction, Data: "pi", ProcInst: &xmlquery.ProcInstData{Target: "pi", Inst: "x"}}
		}},
	}
	entry := func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, entryName(root)) }
	targets := []struct {
		name string
		find func(root *xmlquery.Node) *xmlquery.Node
	}{
		{"root", func(root *xmlquery.Node) *xmlquery.Node { return root }},
		{"entry", entry},
		{"doc-md", func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, "rs:md") }},
		{"doc-ln", func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, "rs:ln") }},
		{"entry-md", func(root *xmlquery.Node) *xmlquery.Node {
			if e := entry(root); e != nil {
				return firstOf(e, "rs:md")
			}
			return nil
		}},
		{"loc-end", func(root *xmlquery.Node) *xmlquery.Node {
			if e := entry(root); e != nil {
				return firstOf(e, "loc")
			}
			return nil
		}},
	}
	for _, tg := range targets {
		for _, it := range items {
			out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, raws *rawText) bool {
				el := tg.find(root)
				if el == nil {
					return false
				}
				// Into the middle of the children, so that text lands
				// between elements where there are any.
				kids := elementChildren(el)
				var ref *xmlquery.Node
				if len(kids) > 1 {
					ref = kids[1]
				}
				insertBefore(el, ref, it.node(raws))
				return true
			})
			if ok {
				b.add(catText, base.name+"/text-"+it.name+"@"+tg.name, out)
			}
		}
	}
}

// genEmpty removes the entries, or everything, from the root.
func genEmpty(b *corpusBuilder, base baseDoc) {
	edits := []struct {
		name string
		fn   func(root *xmlquery.Node)
	}{
		{"no-entries", func(root *xmlquery.Node) {
			for _, c := range elementChildren(root) {
				if c.Data == entryName(root) {
					xmlquery.RemoveFromTree(c)
				}
			}
		}},
		{"bare-root", func(root *xmlquery.Node) { setChildren(root, nil) }},
		{"only-entries", func(root *xmlquery.Node) {
			for _, c := range elementChildren(root) {
				if c.Prefix == "rs" {
					xmlquery.RemoveFromTree(c)
				}
			}
		}},
		{"entries-without-loc", func(root *xmlquery.Node) {
			for _, e := range elementChildren(root) {
				if l := firstOf(e, "loc"); l != nil {
					xmlquery.RemoveFromTree(l)
				}
			}
		}},
		{"empty-loc", func(root *xmlquery.Node) {
			if e := firstOf(root, entryName(root)); e != nil {
				setChildren(firstOf(e, "loc"), nil)
			}
		}},
	}
	for _, e := range edits {
		out, _ := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool { e.fn(root); return true })
		b.add(catEmpty, base.name+"/empty-"+e.name, out)
	}
}

// genProlog varies what surrounds the root element, and the line ends.
func genProlog(b *corpusBuilder, base baseDoc) {
	doc := string(base.data)
	decl := `<?xml version="1.0" encoding="UTF-8"?>`
	if !strings.HasPrefix(doc, decl) {
		panic("parity: prolog base without the usual declaration: " + base.name)
	}
	body := strings.TrimPrefix(doc, decl)
	rootStart := strings.Index(body, "<"+rootName(doc))
	edits := map[string]string{
		"bom":                 "\ufeff" + doc,
		"no-decl":             strings.TrimPrefix(body, "\n"),
		"decl-standalone":     `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + body,
		"decl-lowercase-utf8": `<?xml version="1.0" encoding="utf-8"?>` + body,
		"decl-no-encoding":    `<?xml version="1.0"?>` + body,
		"decl-single-quotes":  `<?xml version='1.0' encoding='UTF-8'?>` + body,
		"decl-latin1":         `<?xml version="1.0" encoding="ISO-8859-1"?>` + body,
		"decl-ascii":          `<?xml version="1.0" encoding="US-ASCII"?>` + body,
		"decl-1.1":            `<?xml version="1.1" encoding="UTF-8"?>` + body,
		"space-before-decl":   " " + doc,
		"comment-before-root": decl + body[:rootStart] + "<!-- before -->\n" + body[rootStart:],
		"comment-after-root":  doc + "<!-- after -->\n",
		"pi-before-root":      decl + body[:rootStart] + "<?pi before?>\n" + body[rootStart:],
		"pi-after-root":       doc + "<?pi after?>\n",
		"stylesheet":          decl + "\n" + `<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>` + body,
		"doctype":             decl + "\n<!DOCTYPE " + rootName(doc) + ">" + body,
		"doctype-subset":      decl + "\n<!DOCTYPE " + rootName(doc) + " [\n  <!ELEMENT " + rootName(doc) + " ANY>\n]>" + body,
		"crlf":                strings.ReplaceAll(doc, "\n", "\r\n"),
		"cr":                  strings.ReplaceAll(doc, "\n", "\r"),
		"tabs":                strings.ReplaceAll(doc, "  ", "\t"),
		"no-newlines":         strings.ReplaceAll(doc, "\n", " "),
		"trailing-space":      doc + "   \n\n",
		"blank-lines":         decl + "\n\n\n" + body,
	}
	names := make([]string, 0, len(edits))
	for n := range edits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.add(catProlog, base.name+"/prolog-"+n, []byte(edits[n]))
	}
	// Line ends combined with an error on a multi-line start tag.
	if countTags(base.data, "rs:md") > 0 {
		bad, _ := setAttr(base.data, "rs:md", 0, "bogus", "1")
		for _, le := range []struct{ name, with string }{{"crlf", "\r\n"}, {"cr", "\r"}, {"lf", "\n"}} {
			b.add(catProlog, base.name+"/prolog-"+le.name+"-with-error", []byte(strings.ReplaceAll(string(bad), "\n", le.with)))
		}
	}
	// ISO-8859-1 with a non-ASCII byte in a URI.
	latin := `<?xml version="1.0" encoding="ISO-8859-1"?>` + body
	if out, ok := setText([]byte(latin), "loc", 0, "http://example.com/caf\xe9"); ok {
		b.add(catProlog, base.name+"/prolog-latin1-nonascii", out)
	}
}

func rootName(doc string) string {
	if strings.Contains(doc, "<sitemapindex") {
		return "sitemapindex"
	}
	return "urlset"
}

// genWellFormedness produces documents that are not well-formed, or not
// namespace-well-formed, which libxml2 treats differently: it rejects the
// former and only reports the latter.
func genWellFormedness(b *corpusBuilder, base []byte) {
	doc := string(base)
	sub := func(old, new string) string {
		if !strings.Contains(doc, old) {
			panic("parity: wf edit does not apply: " + old)
		}
		return strings.Replace(doc, old, new, 1)
	}
	edits := map[string]string{
		"unclosed-root":             strings.TrimSuffix(strings.TrimSpace(doc), "</urlset>"),
		"mismatched-end":            sub("</loc>", "</lastmod>"),
		"duplicate-attribute":       sub(`change="updated"`, `change="updated" change="created"`),
		"lt-in-attribute":           sub(`change="updated"`, `change="up<dated"`),
		"raw-ampersand":             sub("/res1</loc>", "/res1?a&b</loc>"),
		"undefined-entity":          sub("/res1</loc>", "/res1&nbsp;</loc>"),
		"nul-char-ref":              sub("/res1</loc>", "/res1&#0;</loc>"),
		"bad-utf8":                  sub("/res1</loc>", "/res1\xff</loc>"),
		"two-roots":                 doc + "<urlset/>\n",
		"text-after-root":           doc + "text\n",
		"decl-not-first":            "\n" + doc,
		"empty-document":            "",
		"no-root":                   `<?xml version="1.0"?>` + "\n",
		"undeclared-prefix-element": sub("<url>", "<url><foo:x/>"),
		"undeclared-prefix-attribute": sub(`change="updated"`,
			`change="updated" foo:x="1"`),
		"empty-prefix-binding": sub(`xmlns:rs=`, `xmlns:e="" xmlns:rs=`),
		"relative-namespace":   sub(`xmlns:rs=`, `xmlns:e="relative/ns" xmlns:rs=`),
		"xml-prefix-rebound":   sub(`xmlns:rs=`, `xmlns:xml="http://example.org/xml" xmlns:rs=`),
		"xmlns-prefix-declared": sub(`xmlns:rs=`,
			`xmlns:xmlns="http://example.org/x" xmlns:rs=`),
		"duplicate-expanded-attribute": sub(`change="updated"`,
			`change="updated" xmlns:a="`+nsExt+`" xmlns:b="`+nsExt+`" a:x="1" b:x="2"`),
		"internal-entity": strings.Replace(sub("/res1</loc>", "/res1&e;</loc>"),
			"<urlset", "<!DOCTYPE urlset [<!ENTITY e \"x\">]>\n<urlset", 1),
		"colon-local-name": sub("<url>", `<url><rs:a:b xmlns:a="`+nsExt+`"/>`),
	}
	names := make([]string, 0, len(edits))
	for n := range edits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.add(catWF, "wf/"+n, []byte(edits[n]))
	}
}

// genLines stresses line numbers: errors after many lines (libxml2 keeps
// line numbers in 16 bits unless asked otherwise), after multi-line
// comments, CDATA and attribute values.
func genLines(b *corpusBuilder, base []byte) {
	bad, _ := setAttr(base, "rs:md", 1, "length", "x")
	for _, n := range []int{65530, 65534, 65535, 65536, 70000} {
		pad := strings.Repeat("\n", n)
		out := bytes.Replace(bad, []byte("<url>"), []byte("<url>"+pad), 1)
		b.add(catLines, fmt.Sprintf("lines/error-after-%d-newlines", n), out)
	}
	big := bytes.Replace(base, []byte("<url>"), []byte("<url>"+strings.Repeat("\n", 70000)), 1)
	b.add(catLines, "lines/valid-after-70000-newlines", big)
	tooLong := bytes.Replace(bad, []byte("<url>"), []byte("<url>"+strings.Repeat("\n", 70000)+"<bogus/>"), 1)
	b.add(catLines, "lines/two-errors-after-70000-newlines", tooLong)
	multi := map[string]string{
		"comment":    "<!--\n\n\n-->",
		"cdata":      "<![CDATA[\n\n\n]]>",
		"pi":         "<?pi\n\n\n?>",
		"char-refs":  "&#10;&#10;&#10;",
		"nel-ls":     "<!--\u0085\u2028\u2029-->", // not line ends in XML 1.0
		"cr-ref":     "<rs:ln rel=\"alternate\" href=\"http://example.com/x\" hash=\"a&#13;&#13;b\"/>",
		"attr-value": `<rs:ln rel="alternate" href="http://example.com/x` + "\n\n\n" + `"/>`,
	}
	names := make([]string, 0, len(multi))
	for n := range multi {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out := bytes.Replace(bad, []byte("<url>"), []byte("<url>"+multi[n]), 1)
		b.add(catLines, "lines/multiline-"+n+"-before-error", out)
	}
	// An error whose start tag spans lines, with the bad attribute on the
	// first line of the tag.
	first := bytes.Replace(base, []byte(`<rs:md change="updated"`), []byte(`<rs:md change="bogus"`), 1)
	b.add(catLines, "lines/error-on-first-line-of-tag", first)
}
