package xmlscan

import (
	"strconv"
	"strings"
)

// Path tracks the element path of the current position, for messages
// such as "/urlset/url[17]/rs:md/@hash".
//
// Steps use the qualified name as written in the document. A step carries
// the 1-based index among preceding siblings with the same expanded name
// when that index is above 1, and always for the repeatable ResourceSync
// elements url, sitemap and ln, so that the first <url> reads url[1]. The
// root step has no index. Push and Pop do not build strings; String does.
//
// The zero Path is ready to use.
type Path struct {
	steps  []pathStep
	levels []siblings // levels[d]: counts of the children seen at depth d
}

type pathStep struct {
	name  Name
	index int
}

// siblings counts the children of one element by expanded name. Most
// elements have a handful of distinct child names, so a slice searched
// linearly is fastest; past a few dozen names a map keeps Push linear for
// pathological documents.
type siblings struct {
	names []nameCount
	big   map[nameKey]int
}

type nameKey struct{ space, local string }

type nameCount struct {
	key   nameKey
	count int
}

const siblingsMapAt = 32

func (c *siblings) reset() {
	c.names = c.names[:0]
	c.big = nil
}

func (c *siblings) inc(k nameKey) int {
	if c.big != nil {
		c.big[k]++
		return c.big[k]
	}
	for i := range c.names {
		if c.names[i].key == k {
			c.names[i].count++
			return c.names[i].count
		}
	}
	if len(c.names) < siblingsMapAt {
		c.names = append(c.names, nameCount{k, 1})
		return 1
	}
	c.big = make(map[nameKey]int, 2*siblingsMapAt)
	for _, nc := range c.names {
		c.big[nc.key] = nc.count
	}
	c.big[k] = 1
	return 1
}

// Push enters element n; call it on every StartElement.
func (p *Path) Push(n Name) {
	d := len(p.steps)
	for len(p.levels) <= d+1 {
		p.levels = append(p.levels, siblings{})
	}
	idx := p.levels[d].inc(nameKey{n.Space, n.Local})
	p.levels[d+1].reset()
	p.steps = append(p.steps, pathStep{n, idx})
}

// Pop leaves the current element; call it on every EndElement.
func (p *Path) Pop() {
	if len(p.steps) > 0 {
		p.steps = p.steps[:len(p.steps)-1]
	}
}

// Depth returns the number of open elements.
func (p *Path) Depth() int { return len(p.steps) }

// String returns the path of the current element, "/" outside the root.
func (p *Path) String() string {
	if len(p.steps) == 0 {
		return "/"
	}
	var b strings.Builder
	p.write(&b)
	return b.String()
}

// Attr returns the path of attribute n of the current element.
func (p *Path) Attr(n Name) string {
	var b strings.Builder
	p.write(&b)
	b.WriteString("/@")
	writeQName(&b, n)
	return b.String()
}

func (p *Path) write(b *strings.Builder) {
	for i, st := range p.steps {
		b.WriteByte('/')
		writeQName(b, st.name)
		if i > 0 && (st.index > 1 || repeatable(st.name.Local)) {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(st.index))
			b.WriteByte(']')
		}
	}
}

func writeQName(b *strings.Builder, n Name) {
	if n.Prefix != "" {
		b.WriteString(n.Prefix)
		b.WriteByte(':')
	}
	b.WriteString(n.Local)
}

// repeatable reports the ResourceSync elements that always get an index.
func repeatable(local string) bool {
	return local == "url" || local == "sitemap" || local == "ln"
}
